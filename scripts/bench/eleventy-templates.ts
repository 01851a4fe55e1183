/**
 * The Eleventy site's JavaScript (eleventy-site.ts): `lib.js`, the values every file of a record
 * reads, made once per record and kept for the run, and the templates, one per output kind. Plain
 * JavaScript as Eleventy loads it, kept here as text.
 */
import { PAGE_STYLE } from '../generator/render/pages.ts';

export const ELEVENTY_LIB = String.raw`const ROMAN = { I: 1, V: 5, X: 10, L: 50, C: 100, D: 500, M: 1000 };
const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', deg: '°', micro: 'µ', ndash: '–', mdash: '—', hellip: '…' };
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

export const esc = (text) => String(text ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c]);
export const longDate = (date) => Number(date.slice(8, 10)) + ' ' + MONTHS[Number(date.slice(5, 7)) - 1] + ' ' + date.slice(0, 4);
export const issn = (text) => String(text).replace(/ /g, '');

/** The Roman numeral that ends a volume's label, as a number ("Volume V" → 5). */
export function numeral(label) {
  const letters = /([IVXLCDM]+)\s*$/.exec(String(label))?.[1] ?? '';
  let value = 0;
  for (let i = 0; i < letters.length; i++) {
    const here = ROMAN[letters[i]];
    value += here < (ROMAN[letters[i + 1]] ?? 0) ? -here : here;
  }
  return value;
}

export function plain(html) {
  return String(html)
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x?[0-9a-f]+|\w+);/gi, (all, name) =>
      name[0] === '#'
        ? String.fromCodePoint(name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1)))
        : (ENTITIES[name] ?? all),
    )
    .replace(/\s+/g, ' ')
    .trim();
}

const volumes = new Map();
/** A volume by its file name, label or id, with its file name (key), numeral and date. */
export function volumeOf(data, ref) {
  const wanted = String(ref);
  if (!volumes.has(wanted)) {
    for (const [key, volume] of Object.entries(data.volumes))
      if (key === wanted || String(volume.citation_journal_title) === wanted || String(volume.id) === wanted)
        volumes.set(wanted, { ...volume, key, numeral: numeral(volume.citation_journal_title), date: String(volume.full_date) });
  }
  return volumes.get(wanted);
}

export function volumeApi(data, key) {
  const v = data.volumes[key];
  const j = data.journal;
  return {
    citation_language: v.citation_language ?? j.citation_language,
    citation_journal_title: v.citation_journal_title,
    udc: String(v.udc),
    citation_issn: v.citation_issn ?? j.citation_issn,
    first_page: v.first_page,
    last_page: v.last_page,
    pdf: j.media_url + '/media/' + v.pdf,
    full_date: String(v.full_date),
  };
}

const manuscripts = new Map();
/** A manuscript's values, by its file name: the API's record, its authors, volume, plain abstract. */
export function manuscript(data, key) {
  let made = manuscripts.get(key);
  if (made) return made;
  const m = data.manuscripts[key];
  const j = data.journal;
  const volume = volumeOf(data, m.volume ?? m.citation_volume);
  // An author kept as published has no record: a name, nothing else.
  const people = [];
  const names = [];
  for (const author of m.authors) {
    const person = typeof author === 'string' ? data.authors[author] : undefined;
    if (person) people.push(person);
    names.push(person ? person.name + ' ' + person.surname : author.as_published);
  }
  const keywordList = Array.isArray(m.keywords) ? m.keywords : String(m.keywords).replace(/\.$/, '').split(',').map((k) => k.trim());
  const date = String(m.citation_date);
  const api = {
    id: m.id,
    citation_language: m.citation_language ?? j.citation_language,
    udc: m.udc ?? '',
    abstract: m.abstract,
    citation_issn: m.citation_issn ?? j.citation_issn,
    citation_title: m.citation_title,
    citation_date: date,
    citation_volume: volume.id,
    keywords: Array.isArray(m.keywords) ? m.keywords.join(', ') + '.' : m.keywords,
    document: j.media_url + '/media/' + m.document,
    authors: names,
    section: m.section,
  };
  made = { api, people, volume, keywordList, date, year: date.slice(0, 4), plain: plain(m.abstract), url: j.base_url + '/manuscripts/' + m.id };
  manuscripts.set(key, made);
  return made;
}

let byVolume;
/** The file names of a volume's manuscripts. */
export function manuscriptsOf(data, volumeKey) {
  if (!byVolume) {
    byVolume = new Map();
    for (const [key, m] of Object.entries(data.manuscripts)) {
      const volume = volumeOf(data, m.volume ?? m.citation_volume).key;
      if (!byVolume.has(volume)) byVolume.set(volume, []);
      byVolume.get(volume).push(key);
    }
  }
  return byVolume.get(volumeKey) ?? [];
}

const STYLE = ${JSON.stringify(`<style>${PAGE_STYLE}</style>\n`)};

/** A page's start, to the end of its head (given its own lines) and the header. */
export function pageStart(data, title, canonical, description, headLines, header = true) {
  const j = data.journal;
  return '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n' +
    '<title>' + esc(title) + '</title>\n<link rel="canonical" href="' + esc(canonical) + '">\n' +
    '<meta name="description" content="' + esc(description) + '">\n' + headLines +
    '<link rel="alternate" type="application/atom+xml" title="' + esc(j.title) + '" href="' + esc(j.base_url) + '/feed.xml">\n' +
    STYLE + '</head>\n<body>\n' + (header ? '<header><a href="/">' + esc(j.title) + '</a></header>\n' : '');
}

export function pageEnd(data) {
  const j = data.journal;
  return '<footer>ISSN ' + esc(issn(j.citation_issn)) + ' · ' + esc(j.publisher) + ' · Data: <a href="/api/manuscripts/">JSON API</a></footer>\n</body>\n</html>\n';
}
`;

/** The front matter of a template made once per record of `list`, written to `permalink`. */
const perRecord = (list: string, permalink: string) =>
  `export const data = {
  pagination: { data: '${list}', size: 1, alias: 'key' },
  eleventyExcludeFromCollections: true,
  permalink: (data) => ${permalink},
};
`;

const single = (permalink: string) =>
  `export const data = { eleventyExcludeFromCollections: true, permalink: '${permalink}' };\n`;

const MANUSCRIPT_PAGE = String.raw`import { esc, issn, longDate, manuscript, pageEnd, pageStart } from '../lib.js';
${perRecord('manuscripts', "'manuscripts/' + data.manuscripts[data.key].id + '.html'")}
export function render(data) {
  const d = manuscript(data, data.key);
  const m = d.api;
  const j = data.journal;
  const description = d.plain.length > 300 ? d.plain.slice(0, 300) + '…' : d.plain;
  const meta = (name, content) => '<meta name="' + name + '" content="' + esc(content) + '">\n';
  const property = (name, content) => '<meta property="' + name + '" content="' + esc(content) + '">\n';
  const date = d.date.replace(/-/g, '/');
  let head = meta('citation_title', m.citation_title);
  for (const p of d.people) head += meta('citation_author', p.surname + ', ' + p.name) + meta('citation_author_institution', p.institution);
  head += meta('citation_publication_date', date) + meta('citation_date', date) + meta('citation_journal_title', j.title) +
    meta('citation_issn', issn(m.citation_issn)) + meta('citation_volume', d.volume.numeral) + meta('citation_pdf_url', m.document) +
    meta('citation_abstract_html_url', d.url) + d.keywordList.map((k) => meta('citation_keywords', k)).join('') +
    meta('citation_language', 'en') + meta('citation_publisher', j.publisher) + meta('citation_abstract', d.plain) +
    '<link rel="schema.DC" href="http://purl.org/dc/elements/1.1/">\n' + meta('DC.Title', m.citation_title) +
    m.authors.map((a) => meta('DC.Creator.PersonalName', a)).join('') + meta('DC.Date.issued', d.date) +
    meta('DC.Identifier.URI', d.url) + meta('DC.Language', 'en') + meta('DC.Publisher', j.publisher) + meta('DC.Source', j.title) +
    meta('DC.Source.ISSN', issn(m.citation_issn)) + meta('DC.Source.Volume', d.volume.numeral) +
    d.keywordList.map((k) => meta('DC.Subject', k)).join('') + meta('DC.Type', 'Text.Serial.Journal') + meta('DC.Type.articleType', m.section) +
    property('og:type', 'article') + property('og:title', m.citation_title) + property('og:url', d.url) + property('og:site_name', j.title) +
    property('og:description', description) + property('article:published_time', d.date) + property('article:section', m.section) +
    d.keywordList.map((k) => property('article:tag', k)).join('');
  const ld = {
    '@context': 'https://schema.org', '@type': 'ScholarlyArticle', '@id': d.url, url: d.url, headline: m.citation_title, name: m.citation_title,
    description: d.plain, datePublished: d.date, inLanguage: 'en', keywords: d.keywordList,
    author: d.people.map((p) => ({ '@type': 'Person', givenName: p.name, familyName: p.surname, affiliation: { '@type': 'Organization', name: p.institution } })),
    isPartOf: { '@type': 'PublicationVolume', volumeNumber: d.volume.numeral, isPartOf: { '@type': 'Periodical', name: j.title, issn: issn(m.citation_issn) } },
    encoding: { '@type': 'MediaObject', contentUrl: m.document, encodingFormat: 'application/pdf' },
  };
  head += '<script type="application/ld+json">' + JSON.stringify(ld).replace(/</g, '\\u003c') + '</script>\n';
  return pageStart(data, m.citation_title + ' | ' + j.title, d.url, description, head) +
    '<main>\n<article>\n<h1>' + esc(m.citation_title) + '</h1>\n<ul class="authors">' +
    d.people.map((p) => '<li><span class="author">' + esc(p.name + ' ' + p.surname) + '</span><span class="institution">' + esc(p.institution) + '</span></li>').join('') +
    '</ul>\n<h2>Abstract</h2>\n<div class="abstract">' + m.abstract + '</div>\n' +
    '<p><a class="pdf" href="' + esc(m.document) + '" type="application/pdf">Full text (PDF)</a></p>\n<dl class="meta">\n' +
    '<dt>Volume</dt><dd><a href="/volumes/' + d.volume.numeral + '">' + esc(d.volume.citation_journal_title) + '</a> (' + d.volume.date.slice(0, 4) + ')</dd>\n' +
    '<dt>Section</dt><dd>' + esc(m.section) + '</dd>\n<dt>Published</dt><dd><time datetime="' + d.date + '">' + longDate(d.date) + '</time></dd>\n' +
    '<dt>Language</dt><dd>' + esc(m.citation_language) + '</dd>\n<dt>Keywords</dt><dd>' + esc(d.keywordList.join(', ')) + '</dd>\n</dl>\n' +
    '<p class="cite">Cite: <a href="/citations/' + m.id + '.bib" download type="application/x-bibtex">BibTeX</a> · <a href="/citations/' + m.id +
    '.ris" download type="application/x-research-info-systems">RIS</a> · <a href="/citations/' + m.id +
    '.json" download type="application/vnd.citationstyles.csl+json">CSL-JSON</a></p>\n</article>\n</main>\n' + pageEnd(data);
}
`;

const VOLUME_PAGE = String.raw`import { esc, longDate, manuscript, manuscriptsOf, pageEnd, pageStart, volumeOf } from '../lib.js';
${perRecord('volumes', "'volumes/' + volumeOf(data, data.key).numeral + '.html'")}
export function render(data) {
  const j = data.journal;
  const v = volumeOf(data, data.key);
  const mine = manuscriptsOf(data, v.key).map((key) => manuscript(data, key).api);
  const year = v.date.slice(0, 4);
  let html = pageStart(data, v.citation_journal_title + ' (' + year + ') | ' + j.title, j.base_url + '/volumes/' + v.numeral,
    v.citation_journal_title + ' of ' + j.title + ', ' + year + ': ' + mine.length + ' articles.', '') +
    '<main>\n<h1>' + esc(v.citation_journal_title) + ' (' + year + ')</h1>\n<dl class="meta">\n' +
    '<dt>Published</dt><dd><time datetime="' + v.date + '">' + longDate(v.date) + '</time></dd>\n' +
    '<dt>Pages</dt><dd>' + esc(v.first_page) + '–' + esc(v.last_page) + '</dd>\n<dt>UDC</dt><dd>' + esc(v.udc) + '</dd>\n</dl>\n' +
    '<p><a class="pdf" href="' + esc(j.media_url + '/media/' + v.pdf) + '" type="application/pdf">The whole volume (PDF)</a></p>\n';
  for (const section of j.sections) {
    const inSection = mine.filter((m) => m.section === section);
    if (!inSection.length) continue;
    html += '<h2>' + esc(section) + '</h2>\n<ul>\n' + inSection.map((m) => '<li><a href="/manuscripts/' + m.id + '">' + esc(m.citation_title) +
      '</a><br><span class="meta">' + esc(m.authors.join(', ')) + '</span></li>\n').join('') + '</ul>\n';
  }
  return html + '</main>\n' + pageEnd(data);
}
`;

const HOME_PAGE = String.raw`import { esc, issn, pageEnd, pageStart, volumeOf } from '../lib.js';
${single('index.html')}
export function render(data) {
  const j = data.journal;
  return pageStart(data, j.title, j.base_url + '/', j.title + ', published by ' + j.publisher + ': every volume and article.', '', false) +
    '<main>\n<h1>' + esc(j.title) + '</h1>\n<p class="meta">ISSN ' + esc(issn(j.citation_issn)) + '</p>\n<h2>Volumes</h2>\n<ul>\n' +
    Object.keys(data.volumes).map((key) => volumeOf(data, key)).map((v) => '<li><a href="/volumes/' + v.numeral + '">' + esc(v.citation_journal_title) +
      '</a> (' + v.date.slice(0, 4) + '), pages ' + esc(v.first_page) + '–' + esc(v.last_page) + '</li>\n').join('') +
    '</ul>\n</main>\n' + pageEnd(data);
}
`;

const RIS = String.raw`import { issn, manuscript } from '../lib.js';
${perRecord('manuscripts', "'citations/' + data.manuscripts[data.key].id + '.ris'")}
export function render(data) {
  const d = manuscript(data, data.key);
  const m = d.api;
  const j = data.journal;
  return ['TY  - JOUR', 'TI  - ' + m.citation_title, ...d.people.map((p) => 'AU  - ' + p.surname + ', ' + p.name), 'PY  - ' + d.year,
    'DA  - ' + d.date.replace(/-/g, '/') + '/', 'T2  - ' + j.title, 'VL  - ' + d.volume.numeral, 'SN  - ' + issn(m.citation_issn),
    'PB  - ' + j.publisher, 'UR  - ' + d.url, 'L1  - ' + m.document, 'AB  - ' + d.plain, ...d.keywordList.map((k) => 'KW  - ' + k),
    'LA  - en', 'ER  - ', ''].join('\n');
}
`;

const BIBTEX = String.raw`import { issn, manuscript } from '../lib.js';
${perRecord('manuscripts', "'citations/' + data.manuscripts[data.key].id + '.bib'")}
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
export function render(data) {
  const d = manuscript(data, data.key);
  const m = d.api;
  const field = (name, value) => '  ' + name + ' = {' + value + '},\n';
  const key = String(d.people[0]?.surname ?? 'anonymous').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '-') + d.year + '-' + m.id;
  return '@article{' + key + ',\n' + field('author', d.people.map((p) => p.surname + ', ' + p.name).join(' and ')) +
    field('title', m.citation_title) + field('journal', data.journal.title) + field('year', d.year) +
    '  month = ' + MONTHS[Number(d.date.slice(5, 7)) - 1] + ',\n' + field('date', d.date) + field('volume', d.volume.numeral) +
    field('issn', issn(m.citation_issn)) + field('url', d.url) + field('pdf', m.document) + field('abstract', d.plain) +
    field('keywords', d.keywordList.join(', ')) + '  language = {' + m.citation_language + '}\n}\n';
}
`;

const CSL_JSON = String.raw`import { issn, manuscript } from '../lib.js';
${perRecord('manuscripts', "'citations/' + data.manuscripts[data.key].id + '.json'")}
export function render(data) {
  const d = manuscript(data, data.key);
  const m = d.api;
  const key = String(d.people[0]?.surname ?? 'anonymous').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '-') + d.year + '-' + m.id;
  return JSON.stringify([{
    id: key, type: 'article-journal', title: m.citation_title, author: d.people.map((p) => ({ family: p.surname, given: p.name })),
    issued: { 'date-parts': [d.date.split('-').map(Number)] }, 'container-title': data.journal.title, volume: String(d.volume.numeral),
    ISSN: issn(m.citation_issn), publisher: data.journal.publisher, URL: d.url, abstract: d.plain, keyword: d.keywordList.join(', '),
    language: 'en', custom: { pdf: m.document },
  }], null, 2);
}
`;

const FEED = String.raw`import { esc, manuscript } from '../lib.js';
${single('feed.xml')}
export function render(data) {
  const j = data.journal;
  const latest = Object.keys(data.manuscripts).map((key) => manuscript(data, key))
    .sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0)).slice(0, 50);
  return '<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">\n<id>' + j.base_url + '/feed.xml</id>\n' +
    '<title>' + esc(j.title) + '</title>\n<link rel="self" type="application/atom+xml" href="' + j.base_url + '/feed.xml"/>\n' +
    '<link rel="alternate" type="text/html" href="' + j.base_url + '/"/>\n<updated>' + latest[0].date + 'T00:00:00Z</updated>\n' +
    '<author><name>' + esc(j.publisher) + '</name></author>\n' +
    latest.map((d) => '<entry>\n<id>' + d.url + '</id>\n<title type="text">' + esc(d.api.citation_title) + '</title>\n' +
      '<link rel="alternate" type="text/html" href="' + d.url + '"/>\n<link rel="related" type="application/pdf" href="' + esc(d.api.document) + '"/>\n' +
      '<published>' + d.date + 'T00:00:00Z</published>\n<updated>' + d.date + 'T00:00:00Z</updated>\n' +
      d.api.authors.map((a) => '<author><name>' + esc(a) + '</name></author>').join('') + '\n' +
      '<summary type="text">' + esc(d.plain) + '</summary>\n</entry>\n').join('') + '</feed>\n';
}
`;

const SITEMAP = String.raw`import { volumeOf } from '../lib.js';
${single('sitemap.xml')}
export function render(data) {
  const j = data.journal;
  return '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<url><loc>' + j.base_url + '/</loc></url>\n' +
    Object.keys(data.volumes).map((key) => volumeOf(data, key)).map((v) => '<url><loc>' + j.base_url + '/volumes/' + v.numeral + '</loc><lastmod>' + v.date + '</lastmod></url>\n').join('') +
    Object.values(data.manuscripts).map((m) => '<url><loc>' + j.base_url + '/manuscripts/' + m.id + '</loc><lastmod>' + m.citation_date + '</lastmod></url>\n').join('') +
    '</urlset>\n';
}
`;

const json = (imports: string, frontMatter: string, value: string) =>
  `import { ${imports} } from '../lib.js';\n${frontMatter}\nexport const render = (data) => JSON.stringify(${value});\n`;

const author = '(a) => ({ name: a.name, surname: a.surname, institution: a.institution })';

export const ELEVENTY_TEMPLATES: Readonly<Record<string, string>> = {
  'home.11ty.js': HOME_PAGE,
  'manuscript-page.11ty.js': MANUSCRIPT_PAGE,
  'volume-page.11ty.js': VOLUME_PAGE,
  'citation-ris.11ty.js': RIS,
  'citation-bibtex.11ty.js': BIBTEX,
  'citation-csl.11ty.js': CSL_JSON,
  'feed.11ty.js': FEED,
  'sitemap.11ty.js': SITEMAP,
  'manuscript-api.11ty.js': json(
    'manuscript',
    perRecord('manuscripts', "'api/manuscripts/' + data.manuscripts[data.key].id + '.json'"),
    'manuscript(data, data.key).api',
  ),
  'volume-api.11ty.js': json(
    'volumeApi',
    perRecord('volumes', "'api/volumes/' + data.volumes[data.key].id + '.json'"),
    'volumeApi(data, data.key)',
  ),
  'author-api.11ty.js': json(
    'esc',
    perRecord('authors', "'api/authors/' + data.key + '.json'"),
    `(${author})(data.authors[data.key])`,
  ),
  'list-authors.11ty.js': json('esc', single('api/authors/index.json'), `Object.values(data.authors).map(${author})`),
  'list-volumes.11ty.js': json(
    'volumeApi',
    single('api/volumes/index.json'),
    'Object.keys(data.volumes).map((key) => volumeApi(data, key))',
  ),
  'list-manuscripts.11ty.js': json(
    'manuscript',
    single('api/manuscripts/index.json'),
    'Object.keys(data.manuscripts).map((key) => manuscript(data, key).api)',
  ),
  'list-sections.11ty.js': json(
    'esc',
    single('api/sections/index.json'),
    'data.journal.sections.map((title) => ({ title }))',
  ),
  'api-root.11ty.js': json(
    'esc',
    single('api/index.json'),
    "Object.fromEntries(['authors', 'volumes', 'manuscripts', 'sections'].map((list) => [list, data.journal.base_url + '/api/' + list + '/']))",
  ),
};
