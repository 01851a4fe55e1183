/**
 * The metadata in a landing page's head, for indexers and citation tools (docs/indexing.md): Google
 * Scholar's `citation_*` tags as OJS's Google Scholar plugin writes them, Dublin Core, Open Graph,
 * and a schema.org ScholarlyArticle in JSON-LD (json-ld.ts). Pure: records in, head lines out;
 * render/pages.ts writes them. Every value is escaped for where it goes: an attribute, or JSON in
 * a script element; the abstract's texts are plain text (model/rich-text.ts), never markup.
 */
import type { FoundAuthors, ManuscriptRecord, VolumeRecord } from '../model/records.ts';
import type { JournalInput } from '../model/schema.ts';
import { mediaUrl } from './api.ts';
import type { DeferredText } from '../../shared/output-file.ts';
import { escapeHtml as e } from '../model/html-references.ts';
import { foldWhitespace } from '../model/plain-text.ts';
import type { AbstractTextKind } from './abstract-text.ts';
import { scholarlyArticleScript } from './json-ld.ts';
import { titleToPlain } from './title-text.ts';
import {
  keywordList,
  languageCode,
  orcidUrl,
  pageAuthors,
  pageUrl,
  standardIssn,
  type PageAuthor,
} from './citation-values.ts';

export { keywordList, languageCode, pageAuthors, standardIssn, type PageAuthor } from './citation-values.ts';
import { volumeNumber } from './page-paths.ts';

/** Google Scholar's tags, in the order OJS's Google Scholar plugin writes them; `undefined` values are left out. */
export function citationTags(
  journal: JournalInput,
  m: ManuscriptRecord,
  volume: VolumeRecord,
  authors: FoundAuthors,
): [string, string][] {
  return tagsOf(journal, m, volume, pageAuthors(m, authors));
}

/**
 * citationTags with the manuscript's authors found already (the page lists them too). The one tag
 * made from the abstract, `citation_abstract`, follows them on the page (manuscriptHead).
 */
export function tagsOf(
  journal: JournalInput,
  m: ManuscriptRecord,
  volume: VolumeRecord,
  authors: readonly PageAuthor[],
): [string, string][] {
  // Meta tags hold text: a title's markup is left out (title-text.ts, titleToPlain).
  const tags: [string, string | undefined][] = [['citation_title', titleToPlain(m.citation_title)]];
  for (const author of authors) {
    tags.push(['citation_author', author.citation]);
    // Scholar reads an institution (and an ORCID iD) as belonging to the author tag just before it.
    tags.push(['citation_author_institution', author.institution]);
    tags.push(['citation_author_orcid', author.orcid && orcidUrl(author.orcid)]);
  }
  const language = m.citation_language ?? journal.citation_language;
  // Scholar's guidelines write full dates as YYYY/MM/DD (their example: 1996/05/17); OJS writes
  // citation_date the same way, for the indexers that read that name.
  const date = m.citation_date.replaceAll('-', '/');
  tags.push(
    ['citation_publication_date', date],
    ['citation_date', date],
    ['citation_journal_title', journal.title],
    ['citation_journal_abbrev', journal.abbreviation],
    // The standard ISSN form (NNNN-NNNN), not the contract's spaced one; the journal's when the record has none.
    ['citation_issn', standardIssn(m.citation_issn || journal.citation_issn)],
    ['citation_issn', journal.online_issn && standardIssn(journal.online_issn)],
    ['citation_volume', String(volumeNumber(volume))],
    ['citation_firstpage', m.first_page],
    ['citation_lastpage', m.last_page],
    ['citation_doi', m.doi],
    ['citation_pdf_url', mediaUrl(m.document, journal)],
    ['citation_abstract_html_url', pageUrl(journal, m)],
  );
  // One push each: a spread of every keyword as arguments runs out of stack past about 120,000.
  for (const keyword of keywordList(m.keywords)) tags.push(['citation_keywords', keyword]);
  tags.push(
    ['citation_language', language === '' ? undefined : languageCode(language)],
    ['citation_publisher', journal.publisher],
  );
  return tags.filter((t): t is [string, string] => t[1] !== undefined);
}

/** A part of a page: text, or a text of its abstract made where the page is written (abstract-text.ts). */
export type PagePart = string | DeferredText;

/**
 * The head lines of a landing page after its title and canonical link: the description, Scholar's
 * tags, Dublin Core, Open Graph and JSON-LD, each ended by `\n`. `abstract` gives the texts of
 * the abstract, made where the page is written when the record is packed.
 */
export function manuscriptHead(
  journal: JournalInput,
  m: ManuscriptRecord,
  volume: VolumeRecord,
  authors: readonly PageAuthor[],
  abstract: (kind: AbstractTextKind) => PagePart,
): PagePart[] {
  // The lines between two texts of the abstract are one string: a part each cost a tenth of the
  // pages' time at 10,000 manuscripts (the writer handles every part on its own).
  let text = '';
  const meta = (attribute: 'name' | 'property', name: string, content: string | undefined) => {
    // A plain text may hold a line break, a tab or surrounding spaces as published (plain-text.ts): folded here.
    if (content !== undefined) text += `<meta ${attribute}="${name}" content="${e(foldWhitespace(content))}">\n`;
  };
  const license = m.license ?? journal.license;
  if (license) text += `<link rel="license" href="${e(license)}">\n`;
  for (const [name, content] of tagsOf(journal, m, volume, authors)) meta('name', name, content);
  // The whole abstract as plain text, as OJS writes it; the description is its first 300 characters.
  text += '<meta name="citation_abstract" content="';
  // One summary for the description and Open Graph's: one part, in both places (abstract-text.ts).
  const summary = abstract('summary');
  const head: PagePart[] = ['<meta name="description" content="', summary, `">\n${text}`, abstract('plain')];
  text = '">\n';

  const url = pageUrl(journal, m);
  const language = m.citation_language ?? journal.citation_language;
  const keywords = keywordList(m.keywords);
  text += '<link rel="schema.DC" href="http://purl.org/dc/elements/1.1/">\n';
  const title = titleToPlain(m.citation_title);
  meta('name', 'DC.Title', title);
  for (const author of authors) meta('name', 'DC.Creator.PersonalName', author.display);
  meta('name', 'DC.Date.issued', m.citation_date);
  meta('name', 'DC.Identifier.URI', url);
  meta('name', 'DC.Identifier.DOI', m.doi);
  meta('name', 'DC.Language', language === '' ? undefined : languageCode(language));
  meta('name', 'DC.Publisher', journal.publisher);
  meta('name', 'DC.Rights', license);
  meta('name', 'DC.Source', journal.title);
  meta('name', 'DC.Source.ISSN', standardIssn(m.citation_issn || journal.citation_issn));
  meta('name', 'DC.Source.Volume', String(volumeNumber(volume)));
  for (const keyword of keywords) meta('name', 'DC.Subject', keyword);
  meta('name', 'DC.Type', 'Text.Serial.Journal');
  meta('name', 'DC.Type.articleType', m.section);

  // Open Graph: what a link preview shows; `article:` properties follow og:type.
  meta('property', 'og:type', 'article');
  meta('property', 'og:title', title);
  meta('property', 'og:url', url);
  meta('property', 'og:site_name', journal.title);
  text += '<meta property="og:description" content="';
  head.push(text, summary);
  text = '">\n';
  meta('property', 'article:published_time', m.citation_date);
  meta('property', 'article:section', m.section);
  for (const keyword of keywords) meta('property', 'article:tag', keyword);

  const [script, ...rest] = scholarlyArticleScript(journal, m, volume, authors, abstract);
  head.push(text + String(script), ...rest);
  return head;
}
