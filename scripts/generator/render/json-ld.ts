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

/** The script element, on a line of its own. */
export function scholarlyArticleScript(
  journal: JournalInput,
  m: ManuscriptRecord,
  volume: VolumeRecord,
  authors: readonly PageAuthor[],
): string {
  return `<script type="application/ld+json">${scriptSafeJson(scholarlyArticle(journal, m, volume, authors))}</script>\n`;
}

/**
 * The article as schema.org describes a ScholarlyArticle; unknown values left out. Its abstract is
 * in the page's citation_abstract and description: a third copy in every page cost more time and
 * bytes (a second plain-text conversion per page) than the structured data gains from it.
 */
export function scholarlyArticle(
  journal: JournalInput,
  m: ManuscriptRecord,
  volume: VolumeRecord,
  authors: readonly PageAuthor[],
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
    headline: m.citation_title,
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
