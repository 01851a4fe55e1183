/**
 * A manuscript as an OAI-PMH `<record>`: its header (identifier, datestamp, sets) and its metadata
 * in unqualified Dublin Core (oai_dc), the values the landing page and the citation files give
 * (citations/citation.ts), as plain text. Every value is XML-escaped (feed.ts, xmlText); the
 * content validation already refuses the control characters XML 1.0 cannot hold.
 */
import type { ManuscriptRecord } from '../../model/records.ts';
import type { Site } from '../../model/site.ts';
import { mediaUrl } from '../api.ts';
import { plainAbstractOf } from '../citations/citation.ts';
import { doiUrl, keywordList, languageCode, pageUrl, standardIssn } from '../citation-values.ts';
import { xmlText } from '../feed.ts';
import { volumeNumber } from '../page-paths.ts';
import { titleToPlain } from '../title-text.ts';
import { datestampOf, identifierPrefix, setsOf } from './oai-values.ts';

/** The oai_dc root's namespaces and schema location, as the oai_dc schema's own example writes them. */
const DC_OPEN =
  '<oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.openarchives.org/OAI/2.0/oai_dc/ http://www.openarchives.org/OAI/2.0/oai_dc.xsd">';

/**
 * The record. `sections` maps a section's name to its set (oai-values.ts, sectionSets); undefined
 * for a header without sets, as a static repository's must be. `metadata` gives the oai_dc element
 * (dublinCore, or the one made for the same record before).
 */
export function oaiRecord(
  site: Site,
  m: ManuscriptRecord,
  sections: ReadonlyMap<string, string> | undefined,
  metadata: (site: Site, m: ManuscriptRecord) => string = dublinCore,
): string {
  const header = [
    `<identifier>${xmlText(identifierPrefix(site.journal) + m.id)}</identifier>`,
    `<datestamp>${datestampOf(site, m)}</datestamp>`,
    ...(sections ? setsOf(site, m, sections).map((set) => `<setSpec>${xmlText(set)}</setSpec>`) : []),
  ];
  return `<record><header>${header.join('')}</header><metadata>${metadata(site, m)}</metadata></record>`;
}

/** The manuscript's oai_dc element. */
export function dublinCore(site: Site, m: ManuscriptRecord): string {
  const { journal } = site;
  const lines = [DC_OPEN];
  const element = (name: string, value: string) => lines.push(`<dc:${name}>${xmlText(value)}</dc:${name}>`);
  element('title', titleToPlain(m.citation_title));
  const found = site.authorsOf(m);
  m.authors.forEach((ref, k) => {
    if (typeof ref !== 'string') element('creator', ref.as_published);
    else {
      const author = found[k];
      // A key no author has is reported by the reference checks, and nothing is published.
      if (author) element('creator', `${author.surname}, ${author.name}`);
    }
  });
  for (const keyword of keywordList(m.keywords)) element('subject', keyword);
  const abstract = plainAbstractOf(m);
  if (abstract !== '') element('description', abstract);
  if (journal.publisher) element('publisher', journal.publisher);
  element('date', m.citation_date);
  element('type', 'Text');
  element('type', 'info:eu-repo/semantics/article');
  // Every manuscript names its PDF (schema.ts, document).
  element('format', 'application/pdf');
  element('identifier', pageUrl(journal, m));
  if (m.doi) element('identifier', doiUrl(m.doi));
  element('relation', mediaUrl(m.document, journal));
  element('source', sourceOf(site, m));
  const issn = m.citation_issn || journal.citation_issn;
  element('source', `ISSN ${standardIssn(issn)}`);
  const language = m.citation_language ?? journal.citation_language;
  // A language the project knows no code for is left out: dc:language asks for a code (ISO 639).
  const code = language ? languageCode(language) : '';
  if (/^[a-z]{2,3}$/.test(code)) element('language', code);
  const license = m.license ?? journal.license;
  if (license) element('rights', license);
  lines.push('</oai_dc:dc>');
  return lines.join('\n');
}

/** Where the manuscript appeared: `<journal>, Vol. 3 (2021), pp. 12-20`, with the pages it has. */
function sourceOf(site: Site, m: ManuscriptRecord): string {
  const volume = site.volume(m.citation_volume);
  const parts = [site.journal.title];
  if (volume) parts.push(`Vol. ${volumeNumber(volume)} (${volume.full_date.slice(0, 4)})`);
  if (m.first_page)
    parts.push(
      m.last_page && m.last_page !== m.first_page ? `pp. ${m.first_page}-${m.last_page}` : `p. ${m.first_page}`,
    );
  return parts.join(', ');
}
