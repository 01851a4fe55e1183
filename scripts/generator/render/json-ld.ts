/**
 * A landing page's schema.org ScholarlyArticle, as JSON-LD in a `<script type="application/ld+json">`
 * (docs/indexing.md): what search engines read as the article's structured data.
 *
 * A script element ends at the first `</script` in it, and `<!--` in it changes how the rest is
 * read, whatever the JSON means: so every `<`, `>` and `&` in the JSON is written as its `\u` escape
 * (`scriptSafeJson`), which JSON parsers read back as the same character. Nothing else in the
 * element can end it or start markup.
 */
import type { ManuscriptRecord, VolumeRecord } from '../model/records.ts';
import type { JournalInput } from '../model/schema.ts';
import { mediaUrl } from './api.ts';
import { scriptSafeJson } from './script-safe-json.ts';
import { titleToPlain } from './title-text.ts';
import type { AbstractTextKind } from './abstract-text.ts';
import type { DeferredText } from '../../shared/output-file.ts';
import { volumeNumber } from './page-paths.ts';
import {
  doiUrl,
  keywordList,
  languageCode,
  orcidUrl,
  pageUrl,
  standardIssn,
  type PageAuthor,
} from './citation-values.ts';

/** A part of a page (page-metadata.ts, PagePart), named here too: that module imports this one. */
type PagePart = string | DeferredText;

/**
 * Stand for the abstract's two texts while the JSON is written: JSON writes the control character
 * as `\u0001`, which no value of a record holds (the content refuses control characters).
 */
const ABSTRACT_SLOT = '\u0001abstract';
const DESCRIPTION_SLOT = '\u0001description';

/**
 * The script element, on a line of its own, as parts: the abstract's texts (abstract-text.ts, the
 * whole plain text as `abstract`, the page's summary as `description`) are made where the page is
 * written, as the head's other texts of the abstract are.
 */
export function scholarlyArticleScript(
  journal: JournalInput,
  m: ManuscriptRecord,
  volume: VolumeRecord,
  authors: readonly PageAuthor[],
  abstract: (kind: AbstractTextKind) => PagePart,
): PagePart[] {
  const json = scriptSafeJson(
    scholarlyArticle(journal, m, volume, authors, { abstract: ABSTRACT_SLOT, description: DESCRIPTION_SLOT }),
  );
  const [before, between, after] = json.split(SLOTS) as [string, string, string];
  return [
    `<script type="application/ld+json">${before}`,
    abstract('json-summary'),
    between,
    abstract('json-plain'),
    `${after}</script>\n`,
  ];
}

/** The two slots as they stand in the JSON: quoted strings, their control character escaped. */
const SLOTS = new RegExp(
  [DESCRIPTION_SLOT, ABSTRACT_SLOT].map((text) => JSON.stringify(text).replace(/\\/g, '\\\\')).join('|'),
);

/**
 * The article as schema.org describes a ScholarlyArticle; unknown values left out. `texts` gives its
 * description and abstract (plain text), when the caller has them.
 */
export function scholarlyArticle(
  journal: JournalInput,
  m: ManuscriptRecord,
  volume: VolumeRecord,
  authors: readonly PageAuthor[],
  texts?: { description: string; abstract: string },
): Record<string, unknown> {
  const url = pageUrl(journal, m);
  const language = m.citation_language ?? journal.citation_language;
  const license = m.license ?? journal.license;
  const issns = [standardIssn(m.citation_issn || journal.citation_issn)];
  if (journal.online_issn) issns.push(standardIssn(journal.online_issn));
  const publisher = journal.publisher ? { '@type': 'Organization', name: journal.publisher } : undefined;
  return withoutUndefined({
    '@context': 'https://schema.org',
    '@type': 'ScholarlyArticle',
    '@id': url,
    url,
    headline: titleToPlain(m.citation_title),
    name: titleToPlain(m.citation_title),
    description: texts?.description,
    abstract: texts?.abstract,
    author: authors.map((author) =>
      withoutUndefined({
        '@type': 'Person',
        name: author.display,
        givenName: author.name,
        familyName: author.surname,
        affiliation: author.institution && { '@type': 'Organization', name: author.institution },
        sameAs: author.orcid && orcidUrl(author.orcid),
      }),
    ),
    datePublished: m.citation_date,
    inLanguage: language === '' ? undefined : languageCode(language),
    keywords: keywordList(m.keywords),
    articleSection: m.section,
    pageStart: m.first_page,
    pageEnd: m.last_page,
    identifier: m.doi && { '@type': 'PropertyValue', propertyID: 'DOI', value: m.doi },
    sameAs: m.doi && doiUrl(m.doi),
    license,
    encoding: { '@type': 'MediaObject', contentUrl: mediaUrl(m.document, journal), encodingFormat: 'application/pdf' },
    isPartOf: {
      '@type': 'PublicationVolume',
      volumeNumber: String(volumeNumber(volume)),
      datePublished: volume.full_date,
      isPartOf: withoutUndefined({
        '@type': 'Periodical',
        name: journal.title,
        alternateName: journal.abbreviation,
        issn: issns,
        publisher,
      }),
    },
    publisher,
  });
}

function withoutUndefined(object: Record<string, unknown>): Record<string, unknown> {
  for (const key of Object.keys(object)) if (object[key] === undefined) delete object[key];
  return object;
}
