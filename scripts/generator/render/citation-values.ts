/**
 * The values a landing page's metadata gives in several vocabularies (Scholar's tags, Dublin Core,
 * Open Graph, JSON-LD): the manuscript's authors, its keywords, the ISSN's and the language's
 * standard forms, and the links of the page, a DOI and an ORCID iD.
 */
import type { FoundAuthors, ManuscriptRecord } from '../model/records.ts';
import type { JournalInput } from '../model/schema.ts';
import { manuscriptPagePath } from './page-paths.ts';

/** The landing page's own absolute URL. */
export function pageUrl(journal: JournalInput, m: ManuscriptRecord): string {
  return journal.base_url + manuscriptPagePath(m);
}

/** An ORCID iD as the link ORCID asks every display of an iD to be (the content keeps the bare iD). */
export function orcidUrl(orcid: string): string {
  return `https://orcid.org/${orcid}`;
}

/** A DOI as its resolver's link. */
export function doiUrl(doi: string): string {
  return `https://doi.org/${doi}`;
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
  /** The record's parts, for schema.org's givenName and familyName; none for an author kept as published. */
  name?: string;
  surname?: string;
  institution?: string;
  orcid?: string;
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
        name: a.name,
        surname: a.surname,
        institution: a.institution,
        ...(a.orcid === undefined ? {} : { orcid: a.orcid }),
      });
  });
  return found;
}

/**
 * The manuscript's authors as pageAuthors displays them, read from their names only: a page that
 * prints nothing else of them (a volume's) is then not made again when an institution changes
 * (what a body reads is what its file depends on, model/site.ts).
 */
export function authorDisplayNames(m: ManuscriptRecord, authors: FoundAuthors): string[] {
  const names: string[] = [];
  m.authors.forEach((ref, k) => {
    if (typeof ref !== 'string') names.push(ref.as_published);
    else {
      const a = authors[k];
      if (a) names.push(`${a.name} ${a.surname}`);
    }
  });
  return names;
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
