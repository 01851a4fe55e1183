/**
 * Renderer: `feed.xml`, an Atom feed (RFC 4287) of the newest manuscripts, for feed readers and
 * harvesters (docs/indexing.md, "The feed"); every page names it in its head.
 *
 * - The newest FEED_ENTRIES manuscripts, newest first: by `citation_date`, then by id, the higher
 *   first (model/newest.ts). The body asks the site for them (`newestManuscripts`), so it is
 *   rendered again only when which they are, or one of them, changes (model/site.ts).
 * - Dates come from the content, never the clock: an entry's `published` and `updated` are its
 *   `citation_date` at midnight UTC, the feed's `updated` the newest entry's.
 * - An entry's id is its landing page's URL, the address it is known by for good.
 * - Text is XML-escaped (`&`, `<`, `>`, so `]]>` cannot appear either) and holds no control
 *   character: XML 1.0 forbids most of them, and a feed reader would refuse the whole feed.
 */
import type { OutputFile } from '../../shared/output-file.ts';
import type { ManuscriptRecord } from '../model/records.ts';
import type { Site, TypeRule } from '../model/site.ts';
import { CROSS_ORIGIN_HEADERS } from '../../hosts/path-rules.ts';
import { mediaUrl } from './api.ts';
import { plainAbstractOf } from './citations/citation.ts';
import { titleToPlain } from './title-text.ts';
import { keywordList, orcidUrl, pageUrl } from './citation-values.ts';
import { FEED_PATH, FEED_TYPE } from './linked-files.ts';

/** How many manuscripts the feed lists: a reader polls it for what is new, not for the archive. */
export const FEED_ENTRIES = 50;

/** How hosts serve the feed: Atom in UTF-8, readable from any origin, for a feed reader in the browser. */
export const FEED_TYPES: readonly TypeRule[] = [
  { path: `/${FEED_PATH}`, contentType: `${FEED_TYPE}; charset=utf-8`, headers: CROSS_ORIGIN_HEADERS },
];

export function renderFeed(site: Site): OutputFile[] {
  return [{ path: FEED_PATH, body: () => [feed(site)] }];
}

function feed(site: Site): string {
  const { journal } = site;
  const newest = site.newestManuscripts(FEED_ENTRIES);
  // The epoch, for a journal with no manuscript yet: Atom requires an `updated`, and no clock is read.
  const updated = newest[0] ? atomDate(newest[0].citation_date) : '1970-01-01T00:00:00Z';
  const lines = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `<id>${xmlText(`${journal.base_url}/${FEED_PATH}`)}</id>`,
    `<title>${xmlText(journal.title)}</title>`,
    `<link rel="self" type="${FEED_TYPE}" href="${xmlText(`${journal.base_url}/${FEED_PATH}`)}"/>`,
    `<link rel="alternate" type="text/html" href="${xmlText(`${journal.base_url}/`)}"/>`,
    `<updated>${updated}</updated>`,
    // The feed's author stands for every entry without one (RFC 4287, 4.1.1).
    `<author><name>${xmlText(journal.publisher ?? journal.title)}</name></author>`,
  ];
  // RFC 4946: a licence is a link of relation "license".
  if (journal.license) lines.push(`<link rel="license" href="${xmlText(journal.license)}"/>`);
  for (const m of newest) lines.push(entry(site, m));
  lines.push('</feed>', '');
  return lines.join('\n');
}

function entry(site: Site, m: ManuscriptRecord): string {
  const { journal } = site;
  const url = pageUrl(journal, m);
  const date = atomDate(m.citation_date);
  const found = site.authorsOf(m);
  let authors = '';
  m.authors.forEach((ref, k) => {
    if (typeof ref !== 'string') authors += `<author><name>${xmlText(ref.as_published)}</name></author>`;
    else {
      const a = found[k];
      if (a)
        authors += `<author><name>${xmlText(`${a.name} ${a.surname}`)}</name>${a.orcid ? `<uri>${xmlText(orcidUrl(a.orcid))}</uri>` : ''}</author>`;
    }
  });
  const categories = keywordList(m.keywords)
    .map((k) => `<category term="${xmlText(k)}"/>`)
    .join('');
  const license = m.license ?? journal.license;
  return [
    '<entry>',
    `<id>${xmlText(url)}</id>`,
    // Text, as every value of the feed: a title's markup is left out (title-text.ts, titleToPlain).
    `<title type="text">${xmlText(titleToPlain(m.citation_title))}</title>`,
    `<link rel="alternate" type="text/html" href="${xmlText(url)}"/>`,
    `<link rel="related" type="application/pdf" href="${xmlText(mediaUrl(m.document, journal))}"/>`,
    `<published>${date}</published>`,
    `<updated>${date}</updated>`,
    authors,
    categories,
    `<summary type="text">${xmlText(plainAbstractOf(m))}</summary>`,
    license ? `<link rel="license" href="${xmlText(license)}"/>` : '',
    '</entry>',
  ]
    .filter((line) => line !== '')
    .join('\n');
}

/** `YYYY-MM-DD` as an RFC 3339 date-time, the form Atom requires: midnight UTC. */
function atomDate(iso: string): string {
  return `${iso}T00:00:00Z`;
}

/** Characters XML 1.0 does not allow, and the C1 controls it discourages; lone surrogates too. */
const NOT_XML =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Text for an element or a double-quoted attribute: escaped, and without what XML cannot hold. */
export function xmlText(value: string): string {
  return value
    .replace(NOT_XML, '')
    .replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}
