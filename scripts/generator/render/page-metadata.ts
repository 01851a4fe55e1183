/**
 * The metadata in a landing page's head, for indexers and citation tools (docs/indexing.md): Google
 * Scholar's `citation_*` tags. Pure: records in, tags out; render/pages.ts writes them.
 */
import type { FoundAuthors, ManuscriptRecord, VolumeRecord } from '../model/records.ts';
import type { JournalInput } from '../model/schema.ts';
import { mediaUrl } from './api.ts';
import { manuscriptPagePath, volumeNumber } from './page-paths.ts';

/** Google Scholar's tags, in the order its inclusion guidelines list them; `undefined` values are left out. */
export function citationTags(
  journal: JournalInput,
  m: ManuscriptRecord,
  volume: VolumeRecord,
  authors: FoundAuthors,
): [string, string][] {
  return tagsOf(journal, m, volume, pageAuthors(m, authors));
}

/** citationTags with the manuscript's authors found already (the page lists them too). */
export function tagsOf(
  journal: JournalInput,
  m: ManuscriptRecord,
  volume: VolumeRecord,
  authors: readonly PageAuthor[],
): [string, string][] {
  const tags: [string, string | undefined][] = [['citation_title', m.citation_title]];
  for (const author of authors) {
    tags.push(['citation_author', author.citation]);
    // Scholar reads an institution as belonging to the author tag just before it.
    tags.push(['citation_author_institution', author.institution]);
  }
  const language = m.citation_language ?? journal.citation_language;
  tags.push(
    // Scholar's guidelines write full dates as YYYY/MM/DD (their example: 1996/05/17).
    ['citation_publication_date', m.citation_date.replaceAll('-', '/')],
    ['citation_journal_title', journal.title],
    ['citation_publisher', journal.publisher],
    ['citation_volume', String(volumeNumber(volume))],
    // Manuscripts carry no page numbers in the content model, so no citation_firstpage/lastpage.
    // The standard ISSN form (NNNN-NNNN), not the contract's spaced one; the journal's when the record has none.
    ['citation_issn', standardIssn(m.citation_issn || journal.citation_issn)],
    ['citation_language', language === '' ? undefined : languageCode(language)],
    ...keywordList(m.keywords).map((k): [string, string] => ['citation_keywords', k]),
    ['citation_pdf_url', mediaUrl(m.document, journal)],
    ['citation_abstract_html_url', journal.base_url + manuscriptPagePath(m)],
  );
  return tags.filter((t): t is [string, string] => t[1] !== undefined);
}

/** `1857 - 9639` (SPEC 2.2's spaced shape) → `1857-9639`, the form ISSN registries and indexers use. */
export function standardIssn(issn: string): string {
  return issn.replace(' - ', '-');
}

export interface PageAuthor {
  /** As the API writes it: `"<name> <surname>"` (SPEC 2.3). */
  display: string;
  /** As Scholar's examples write it: "Last, First"; the comma keeps multi-word names unambiguous. */
  citation: string;
  institution?: string;
}

/**
 * The manuscript's authors in order. An author kept as published names no record: it is
 * shown and cited as written (Scholar accepts "First Last" too), without an institution.
 */
export function pageAuthors(m: ManuscriptRecord, authors: FoundAuthors): PageAuthor[] {
  // A loop, not flatMap: an array per author cost about a second of a cold build (100,000 landing and volume pages' lists).
  const found: PageAuthor[] = [];
  m.authors.forEach((ref, k) => {
    if (typeof ref !== 'string') {
      found.push({ display: ref.as_published, citation: ref.as_published });
      return;
    }
    const a = authors[k];
    if (a)
      found.push({
        display: `${a.name} ${a.surname}`,
        citation: `${a.surname}, ${a.name}`,
        institution: a.institution,
      });
  });
  return found;
}

/** SPEC 2.3 keywords ("a, b, c.") as a list: the final full stop removed, split at ", ". */
export function keywordList(keywords: string): string[] {
  return keywords
    .replace(/\.$/, '')
    .split(', ')
    .filter((k) => k !== '');
}

/**
 * ISO 639-1 codes for the language names a journal of the region uses; other values are published
 * as written (a name Scholar can still read). A value that already is a code stays as it is.
 */
const LANGUAGE_CODES: Record<string, string> = {
  albanian: 'sq',
  bosnian: 'bs',
  bulgarian: 'bg',
  croatian: 'hr',
  czech: 'cs',
  dutch: 'nl',
  english: 'en',
  french: 'fr',
  german: 'de',
  greek: 'el',
  hungarian: 'hu',
  italian: 'it',
  latin: 'la',
  macedonian: 'mk',
  polish: 'pl',
  portuguese: 'pt',
  romanian: 'ro',
  russian: 'ru',
  serbian: 'sr',
  slovak: 'sk',
  slovenian: 'sl',
  spanish: 'es',
  turkish: 'tr',
  ukrainian: 'uk',
  македонски: 'mk',
  англиски: 'en',
  српски: 'sr',
  бугарски: 'bg',
};

export function languageCode(language: string): string {
  return LANGUAGE_CODES[language.toLowerCase()] ?? language;
}
