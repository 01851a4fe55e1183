/**
 * One manuscript as a reference manager reads it: the fields every citation format writes
 * (bibtex.ts, ris.ts, csl-json.ts), found once here from the records, in the readers' terms
 * (docs/indexing.md, "Citation files").
 *
 * The same values as the landing page's meta tags (render/citation-values.ts): the volume is the number
 * readers cite (the label's numeral), the ISSN is in its standard form, the language is a code.
 */
import type { ManuscriptRecord } from '../../model/records.ts';
import type { Site } from '../../model/site.ts';
import { richTextToPlain } from '../../model/rich-text.ts';
import { mediaUrl } from '../api.ts';
import { keywordList, languageCode, pageUrl, standardIssn } from '../citation-values.ts';
import { volumeNumber } from '../page-paths.ts';
import { citationKey } from './citation-key.ts';
import { titleRuns, titleToPlain, type TitleRun } from '../title-text.ts';

/** An author: a family and a given name from an author record, or a name kept as published (a literal). */
export type CitedName = { family: string; given: string } | { literal: string };

export interface Citation {
  /** A key for the reference, unique in the journal (citation-key.ts). */
  key: string;
  /** Plain text (title-text.ts, titleToPlain). */
  title: string;
  /** The title with its markup, as runs of styled text (title-text.ts): one plain run for most. */
  titleRuns: TitleRun[];
  authors: CitedName[];
  /** `citation_date`, `YYYY-MM-DD`, and its parts. */
  date: { iso: string; year: number; month: number; day: number };
  journal: string;
  /** The journal's abbreviated title, when it has one. */
  journalAbbreviation?: string;
  volume: number;
  /** `first_page` and `last_page`, when the manuscript has them. */
  pages?: { first: string; last?: string };
  /**
   * `NNNN-NNNN`: the manuscript's ISSN (else the journal's), then the journal's online ISSN, when
   * there is each.
   */
  issns: string[];
  publisher?: string;
  /** Bare, e.g. `10.1234/bbsrs.2023.17`. */
  doi?: string;
  /** The manuscript's licence URL, else the journal's. */
  license?: string;
  /** The landing page. */
  url: string;
  pdf: string;
  /** Plain text. */
  abstract: string;
  keywords: string[];
  /** The language as the content names it, and its ISO 639-1 code (citation-values.ts, languageCode). */
  language?: { name: string; code: string };
}

/**
 * The manuscript's reference, read through the site while a body runs (what a body reads is what
 * its file depends on, model/site.ts).
 */
export function citationOf(site: Site, m: ManuscriptRecord): Citation {
  const { journal } = site;
  const found = site.authorsOf(m);
  const authors: CitedName[] = [];
  m.authors.forEach((ref, k) => {
    if (typeof ref !== 'string') authors.push({ literal: ref.as_published });
    else {
      const a = found[k];
      // A key no author has is reported by the reference checks, and nothing is published.
      if (a) authors.push({ family: a.surname, given: a.name });
    }
  });
  const [year, month, day] = m.citation_date.split('-').map(Number) as [number, number, number];
  const language = m.citation_language ?? journal.citation_language;
  const citation: Citation = {
    key: citationKey(authors[0], year, m.id),
    title: titleToPlain(m.citation_title),
    titleRuns: titleRuns(m.citation_title),
    authors,
    date: { iso: m.citation_date, year, month, day },
    journal: journal.title,
    volume: volumeNumber(site.volume(m.citation_volume)!),
    issns: [m.citation_issn || journal.citation_issn, journal.online_issn]
      .filter((issn): issn is string => Boolean(issn))
      .map(standardIssn),
    url: pageUrl(journal, m),
    pdf: mediaUrl(m.document, journal),
    abstract: plainAbstractOf(m),
    keywords: keywordList(m.keywords),
  };
  if (journal.abbreviation) citation.journalAbbreviation = journal.abbreviation;
  if (m.first_page) citation.pages = m.last_page ? { first: m.first_page, last: m.last_page } : { first: m.first_page };
  if (journal.publisher) citation.publisher = journal.publisher;
  if (m.doi) citation.doi = m.doi;
  const license = m.license ?? journal.license;
  if (license) citation.license = license;
  if (language) citation.language = { name: language, code: languageCode(language) };
  return citation;
}

/**
 * Reads, through the site, every record citationOf reads for `m`: the manuscript, its authors and
 * its volume. A body that takes the reference citationOf made for another body of the same build
 * reads them so, and depends on what that body depends on (test/citations-feed-reuse.test.ts holds
 * the two to the same records).
 */
export function readCitationInputs(site: Site, m: ManuscriptRecord): void {
  for (const a of site.authorsOf(m)) void a?.surname;
  // The language stands for the long fields citationOf reads (the abstract too): a body that read
  // one has its manuscript's file read in before it runs again, as the first body has. Read in
  // citationOf's order, the three files' reads are one text in the build cache, not three.
  void m.citation_language;
  void site.volume(m.citation_volume)?.citation_journal_title;
}

/** The abstract as plain text: the project's one conversion from rich text (model/rich-text.ts). */
export function plainAbstractOf(m: ManuscriptRecord): string {
  return richTextToPlain(m.abstract);
}
