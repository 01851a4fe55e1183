/**
 * Where the files that the pages link to, besides other pages, are, and their media types: the
 * citation files of a manuscript (citations/citations.ts) and the feed (feed.ts). A module of its
 * own, which imports nothing, because the pages link to them and their renderers read the pages'
 * helpers. Their renderers declare the same media types for the hosts (`CITATION_TYPES`,
 * `FEED_TYPES`; docs/indexing.md).
 */

/** The folder of the citation files in the output. */
export const CITATIONS_FOLDER = 'citations';

/** The citation formats, in the order a landing page offers them. */
export const CITATION_FORMATS = [
  { name: 'BibTeX', extension: 'bib', type: 'application/x-bibtex' },
  { name: 'RIS', extension: 'ris', type: 'application/x-research-info-systems' },
  { name: 'CSL-JSON', extension: 'json', type: 'application/vnd.citationstyles.csl+json' },
] as const;
export type CitationExtension = (typeof CITATION_FORMATS)[number]['extension'];

/** The URL path of a manuscript's citation file (its API id), from the site's root. */
export const citationPath = (id: number, extension: CitationExtension) => `/${CITATIONS_FOLDER}/${id}.${extension}`;

/** The Atom feed, at the site's root. */
export const FEED_PATH = 'feed.xml';
export const FEED_TYPE = 'application/atom+xml';
