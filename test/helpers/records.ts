/**
 * Records the tests share: a new manuscript to add to the workspace's journal, and the keys every
 * published manuscript has.
 */

/** A manuscript (id 40) that the workspace's journal accepts as written: a test edits one line of it. */
export const NEW_MANUSCRIPT = `id: 40
volume: volume-ii
citation_title: A new record
citation_date: 2022-01-10
abstract: <p>Text.</p>
keywords: [one, two]
document: pdfs/orchids.pdf
authors:
  - marko-nikolov
  - jane-doe
section: Botany
`;

/** The keys of a manuscript in the published list, in the contract's order (SPEC section 2.3). */
export const PUBLISHED_MANUSCRIPT_KEYS = [
  'id',
  'citation_language',
  'udc',
  'abstract',
  'citation_issn',
  'citation_title',
  'citation_date',
  'citation_volume',
  'keywords',
  'document',
  'authors',
  'section',
] as const;
