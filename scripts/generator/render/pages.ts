/**
 * Renderer: the HTML pages that readers and indexers see (docs/indexing.md). SPEC-NOTES: the
 * original site had a landing page per manuscript carrying Google Scholar's `citation_*` meta tags.
 *
 *   /                          index.html: the journal, its volumes newest first, and the API lists
 *   (any missing page)         404.html: the journal's name and a link home, as hosts answer a missing page
 *   /volumes/<number>          volumes/<number>.html: one volume, its manuscripts by section
 *                              (<number>: the label's numeral)
 *   /manuscripts/<id>          manuscripts/<id>.html: one manuscript, the landing page with the meta tags
 *
 * One file per page, not a folder with an index.html each (at 100,000 manuscripts the
 * folders alone cost about 10 s of a cold build). The URLs have no extension; every host config
 * answers them with the `.html` file (scripts/hosts/rules.ts, docs/indexing.md).
 * Pure: records in, files out; each page is rendered when it is written.
 */
import type { ManuscriptRecord, VolumeRecord } from '../model/records.ts';
import { RecordFile, type OutputFile } from '../../shared/output-file.ts';
import { mediaUrl } from './api.ts';
import type { Site } from '../model/site.ts';
import { MONTHS } from '../model/formats.ts';
import { publishedJsonOf, type FoundAuthors } from '../model/records.ts';
import { escapeHtml as e } from '../model/html-references.ts';
import { AbstractText, abstractText, type AbstractTextKind } from './abstract-text.ts';
import { sanitizeTitleHtml } from './sanitize-html.ts';
import { titleToPlain } from './title-text.ts';
import { homePagePath, manuscriptPagePath, volumeNumber, volumePagePath } from './page-paths.ts';
import { keywordList, manuscriptHead, pageAuthors, standardIssn, type PagePart } from './page-metadata.ts';
import { authorDisplayNames } from './citation-values.ts';
import type { JournalInput } from '../model/schema.ts';
import { pageFile } from '../../shared/contract.ts';
import { CITATION_FORMATS, citationPath, FEED_PATH, FEED_TYPE } from './linked-files.ts';
import { HEADER_SEARCH, HOME_SEARCH, SEARCH_STYLE, searchIsOn } from './search-box.ts';

export { homePagePath, MANUSCRIPT_PAGES, manuscriptPagePath, volumeNumber, volumePagePath } from './page-paths.ts';

/** One page of the site, for the sitemap: its URL path and, when the content says, its date. */
export interface SitePage {
  path: string;
  lastmod?: string;
}

/**
 * Every page, in a stable order: home, volumes (newest first), manuscripts (published order); or
 * those from page `from` to before page `to`, reading only their own records, so that a sitemap's
 * part depends on the pages it lists alone.
 */
export function* sitePages(site: Site, from = 0, to = Infinity): Generator<SitePage> {
  if (from <= 0 && to > 0) yield { path: homePagePath };
  let at = 1;
  if (from < at + site.volumes.length && to > at)
    for (const volume of volumesNewestFirst(site.volumes)) {
      if (at >= from && at < to) yield { path: volumePagePath(volume), lastmod: volume.full_date };
      at++;
    }
  else at += site.volumes.length;
  const { manuscripts } = site;
  for (let i = Math.max(0, from - at); i < manuscripts.length && at + i < to; i++) {
    const manuscript = manuscripts[i]!;
    yield { path: manuscriptPagePath(manuscript), lastmod: manuscript.citation_date };
  }
}

/**
 * Each page's body finds its own records through the site (the volume, its manuscripts, their
 * authors): what a body reads is what its page depends on (model/site.ts).
 */
export function renderPages(site: Site): OutputFile[] {
  const frame = pageFrame(site.journal);
  const outputs: OutputFile[] = [
    { path: pageFile(homePagePath), body: () => homePage(site, frame) },
    // From the journal's settings, as every page: hosts answer a missing page with it (scripts/hosts/rules.ts).
    { path: NOT_FOUND_PAGE, body: () => notFoundPage(site.journal, frame) },
  ];
  const ofVolume = (volume: VolumeRecord) => volumePage(site, frame, volume);
  for (const volume of volumesNewestFirst(site.volumes)) {
    outputs.push(new RecordFile(pageFile(volumePagePath(volume)), volume, ofVolume));
  }
  const ofManuscript = (manuscript: ManuscriptRecord) =>
    manuscriptPage(
      site.journal,
      frame,
      manuscript,
      site.volume(manuscript.citation_volume)!,
      site.authorsOf(manuscript),
    );
  for (const manuscript of site.manuscripts) {
    outputs.push(new RecordFile(pageFile(manuscriptPagePath(manuscript)), manuscript, ofManuscript));
  }
  return outputs;
}

export { citationTags, keywordList, languageCode, standardIssn } from './page-metadata.ts';

function volumesNewestFirst(volumes: readonly VolumeRecord[]): VolumeRecord[] {
  return [...volumes].sort((a, b) => volumeNumber(b) - volumeNumber(a) || a.id - b.id);
}

/** `2021-03-04` → `4 March 2021`, without Intl, so the text is the same on every machine. */
function readableDate(iso: string): string {
  const [year, month, day] = iso.split('-');
  return `${Number(day)} ${MONTHS[Number(month) - 1]} ${year}`;
}

/**
 * Inline, about 600 bytes a page: a shared stylesheet would save some 60 MB at 100,000 pages, but
 * would need a CSS content type in every host configuration (Chromium refuses a stylesheet served
 * as anything else); hosts compress HTML on the fly, so the repeated bytes cost little in transfer.
 */
export const PAGE_STYLE =
  'body{font:17px/1.55 Georgia,serif;max-width:44rem;margin:2rem auto;padding:0 1rem;color:#1d1d1d}' +
  'header,nav,dl,.meta,footer{font-family:system-ui,sans-serif;font-size:15px}a{color:#0b4f8a}h1{font-size:1.6rem;line-height:1.25}' +
  'dt{font-weight:600;float:left;clear:left;width:7rem}dd{margin:0 0 .3rem 7.5rem}ul.authors{list-style:none;padding:0}' +
  '.institution{display:block;color:#555;font-size:.9em}.pdf{font-family:system-ui,sans-serif;font-weight:600}' +
  'footer{margin-top:3rem;border-top:1px solid #ddd;padding-top:.5rem;color:#555}';

/**
 * What every page has around its own lines, made once per build (renderPages): the start of its
 * head, the end of the head with the header, and the end with the footer. Each line ends with `\n`.
 */
interface PageFrame {
  start: string;
  middle: string;
  /** The header, naming the journal with a link home; the home page, whose heading is the journal's name, has none. */
  header: string;
  end: string;
}

function pageFrame(journal: JournalInput): PageFrame {
  const search = searchIsOn(journal);
  return {
    start:
      '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n',
    middle: `<link rel="alternate" type="${FEED_TYPE}" title="${e(journal.title)}" href="${e(`${journal.base_url}/${FEED_PATH}`)}">\n<style>${PAGE_STYLE}${search ? SEARCH_STYLE : ''}</style>\n</head>\n<body>\n`,
    header: `<header><a href="/">${e(journal.title)}</a>${search ? HEADER_SEARCH : ''}</header>\n`,
    end: `</main>\n<footer>ISSN ${e(standardIssn(journal.citation_issn))}${journal.publisher ? ` · ${e(journal.publisher)}` : ''} · Data: <a href="/api/manuscripts/">JSON API</a></footer>\n</body>\n</html>\n`,
  };
}

/**
 * A page as its parts, in order: written one after the other (file-writer.ts) rather than joined
 * first. A landing page is about 6 KB, held at two bytes per character as soon as one name
 * is in Cyrillic; joining each of 100,000 pages, then encoding it, cost more than encoding its parts.
 * `head` and `body` are lines, each ended by `\n` (a line may be several parts).
 */
function page(
  journal: JournalInput,
  frame: PageFrame,
  options: { title: string; path?: string; head?: PagePart[]; body: PagePart[]; header?: boolean },
): PagePart[] {
  // A page without a path (the 404 page) is at no address of its own: no canonical link.
  const canonical =
    options.path === undefined ? '' : `<link rel="canonical" href="${e(journal.base_url + options.path)}">\n`;
  return [
    frame.start,
    `<title>${e(options.title)}</title>\n${canonical}`,
    ...(options.head ?? []),
    frame.middle + (options.header === false ? '' : frame.header) + '<main>\n',
    ...options.body,
    frame.end,
  ];
}

/** Lines, each ended by `\n`, as page() takes them. */
function lines(texts: readonly string[]): string[] {
  return texts.map((text) => `${text}\n`);
}

/**
 * The texts of the manuscript's abstract (abstract-text.ts), by kind: made where the page is written
 * when the manuscript is packed, here otherwise (a record read from its file again after an edit).
 */
function abstractParts(m: ManuscriptRecord): (kind: AbstractTextKind) => PagePart {
  const json = publishedJsonOf(m)?.('abstract');
  return (kind) => (json ? new AbstractText(kind, json) : abstractText(kind, m.abstract));
}

function manuscriptPage(
  journal: JournalInput,
  frame: PageFrame,
  m: ManuscriptRecord,
  volume: VolumeRecord,
  authors: FoundAuthors,
): PagePart[] {
  const pdf = mediaUrl(m.document, journal);
  const keywords = keywordList(m.keywords);
  const language = m.citation_language ?? journal.citation_language;
  const named = pageAuthors(m, authors);
  const abstractPart = abstractParts(m);
  const head = manuscriptHead(journal, m, volume, named, abstractPart);
  let authorItems = '';
  for (const a of named) {
    authorItems += `<li><span class="author">${e(a.display)}</span>${a.institution ? `<span class="institution">${e(a.institution)}</span>` : ''}</li>`;
  }
  const body: PagePart[] = [
    '<article>\n',
    // The title's markup (italics, sub- and superscript) as the abstract's is: sanitized.
    `<h1>${sanitizeTitleHtml(m.citation_title)}</h1>\n`,
    `<ul class="authors">${authorItems}</ul>\n`,
    // Title, authors, abstract and the PDF first, the list of the rest after: Google Scholar asks
    // for the abstract on the page, and a phone's first screen shows its start (docs/indexing.md).
    '<h2>Abstract</h2>\n',
    '<div class="abstract">',
    abstractPart('html'),
    '</div>\n',
    `<p><a class="pdf" href="${e(pdf)}" type="application/pdf">Full text (PDF)</a></p>\n`,
    '<dl class="meta">\n',
    `<dt>Volume</dt><dd><a href="${e(volumePagePath(volume))}">${e(volume.citation_journal_title)}</a> (${e(volume.full_date.slice(0, 4))})</dd>\n`,
    `<dt>Section</dt><dd>${e(m.section)}</dd>\n`,
    `<dt>Published</dt><dd><time datetime="${e(m.citation_date)}">${e(readableDate(m.citation_date))}</time></dd>\n`,
  ];
  if (language) body.push(`<dt>Language</dt><dd>${e(language)}</dd>\n`);
  if (m.udc) body.push(`<dt>UDC</dt><dd>${e(m.udc)}</dd>\n`);
  body.push(
    `<dt>Keywords</dt><dd>${keywords.map(e).join(', ')}</dd>\n`,
    '</dl>\n',
    // The citation files (citations/citations.ts), downloaded rather than shown.
    `<p class="cite">Cite: ${CITATION_FORMATS.map((f) => `<a href="${e(citationPath(m.id, f.extension))}" download type="${f.type}">${f.name}</a>`).join(' · ')}</p>\n`,
    '</article>\n',
  );
  return page(journal, frame, {
    title: `${titleToPlain(m.citation_title)} | ${journal.title}`,
    path: manuscriptPagePath(m),
    head,
    body,
  });
}

function volumePage(site: Site, frame: PageFrame, volume: VolumeRecord): PagePart[] {
  const { journal } = site;
  const manuscripts = site.manuscriptsIn(volume);
  // Sections in the journal's listed order, then any others in the order they first appear.
  const order = new Map<string, number>((journal.sections ?? []).map((s, i) => [s, i]));
  const sections = new Map<string, ManuscriptRecord[]>();
  for (const m of manuscripts) {
    const { section } = m;
    if (!order.has(section)) order.set(section, order.size);
    const list = sections.get(section);
    if (list) list.push(m);
    else sections.set(section, [m]);
  }
  const sorted = [...sections].sort((a, b) => order.get(a[0])! - order.get(b[0])!);
  const body = [
    `<h1>${e(volume.citation_journal_title)} (${e(volume.full_date.slice(0, 4))})</h1>`,
    '<dl class="meta">',
    `<dt>Published</dt><dd><time datetime="${e(volume.full_date)}">${e(readableDate(volume.full_date))}</time></dd>`,
    `<dt>Pages</dt><dd>${e(volume.first_page)}–${e(volume.last_page)}</dd>`,
    `<dt>UDC</dt><dd>${e(volume.udc)}</dd>`,
    '</dl>',
    `<p><a class="pdf" href="${e(mediaUrl(volume.pdf, journal))}" type="application/pdf">The whole volume (PDF)</a></p>`,
  ];
  for (const [section, list] of sorted) {
    body.push(`<h2>${e(section)}</h2>`, '<ul>');
    for (const m of list) {
      const names = authorDisplayNames(m, site.authorsOf(m)).join(', ');
      body.push(
        `<li><a href="${e(manuscriptPagePath(m))}">${sanitizeTitleHtml(m.citation_title)}</a><br><span class="meta">${e(names)}</span></li>`,
      );
    }
    body.push('</ul>');
  }
  if (manuscripts.length === 0) body.push('<p>No manuscripts are listed for this volume.</p>');
  return page(journal, frame, {
    title: `${volume.citation_journal_title} | ${journal.title}`,
    path: volumePagePath(volume),
    body: lines(body),
  });
}

function homePage(site: Site, frame: PageFrame): PagePart[] {
  const { journal } = site;
  const items = volumesNewestFirst(site.volumes).map((v) => {
    const count = site.manuscriptsIn(v).length;
    return `<li><a href="${e(volumePagePath(v))}">${e(v.citation_journal_title)}</a> (${e(v.full_date.slice(0, 4))}), ${count} ${count === 1 ? 'manuscript' : 'manuscripts'}</li>`;
  });
  return page(journal, frame, {
    title: journal.title,
    path: homePagePath,
    // The heading names the journal: a header with its name above it would say it twice.
    header: false,
    body: lines([
      `<h1>${e(journal.title)}</h1>`,
      `<p class="meta">ISSN ${e(standardIssn(journal.citation_issn))}</p>`,
      ...(searchIsOn(journal) ? HOME_SEARCH : []),
      '<h2>Volumes</h2>',
      items.length ? `<ul>${items.join('')}</ul>` : '<p>No volumes yet.</p>',
      // For developers, below what readers come for, in the metadata's smaller type.
      '<section class="data meta">',
      '<h3>Data</h3>',
      "<p>The journal's records as read-only JSON, each list one GET from any origin: " +
        '<a href="/api/authors/"><code>/api/authors/</code></a>, ' +
        '<a href="/api/volumes/"><code>/api/volumes/</code></a>, ' +
        '<a href="/api/manuscripts/"><code>/api/manuscripts/</code></a>.</p>',
      '</section>',
    ]),
  });
}

/** Where hosts find the page they answer a missing page with (scripts/hosts/rules.ts, notFoundPage). */
const NOT_FOUND_PAGE = '404.html';

function notFoundPage(journal: JournalInput, frame: PageFrame): PagePart[] {
  return page(journal, frame, {
    title: `Page not found | ${journal.title}`,
    // Served at every missing address: no search engine should keep it as a page of its own.
    head: ['<meta name="robots" content="noindex">\n'],
    body: lines([
      '<h1>Page not found</h1>',
      '<p>There is nothing at this address. The volumes and their articles are listed on <a href="/">the home page</a>.</p>',
    ]),
  });
}
