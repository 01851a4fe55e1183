import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { citationTags, keywordList, languageCode, renderPages } from '../scripts/generator/render/pages.ts';
import { ABSTRACT_TEXTS, AbstractText, makeDeferredText, summary } from '../scripts/generator/render/abstract-text.ts';
import { createFileWriter } from '../scripts/generator/engine/write/file-writer.ts';
import { escapeHtml } from '../scripts/generator/model/html-references.ts';
import type { ManuscriptRecord } from '../scripts/generator/model/records.ts';
import { createUnpacker, packManuscript } from '../scripts/generator/engine/load/packed-manuscript.ts';
import { sanitizeAbstractHtml } from '../scripts/generator/render/sanitize-html.ts';
import { HEADER_SEARCH } from '../scripts/generator/render/search-box.ts';
import type { DeferredText } from '../scripts/shared/output-file.ts';
import { plainStart, richTextToPlain } from '../scripts/generator/model/rich-text.ts';
import { seededRandom } from '../scripts/synthetic/seeded-random.ts';
import { author, bodyText, JOURNAL, manuscript, site, volume } from './helpers/synthetic-site.ts';

const ana = author('ana-petrovska', 'Ана', 'Петровска', 'Институт за биологија, Архимедова 3, 1000 Скопје.');
const jane = author('jane-doe', 'Jane', 'Doe', 'Dept. of Zoology, "Oxford" <UK> & Co');
const volumeV = volume(1, 'Volume V', '2023-12-18');
const volumeI = volume(2, 'Volume I', '2019-06-01');
const salamanders = manuscript(7, {
  citation_volume: 1,
  citation_title: 'Fire salamanders of Jakupica',
  citation_date: '2021-03-04',
  citation_language: 'Macedonian',
  udc: '597.6',
  abstract: '<p>New localities of <em>Salamandra salamandra</em> (Linnaeus, 1758).</p>',
  keywords: 'Salamandra salamandra, distribution, Macedonia.',
  authors: ['ana-petrovska', 'jane-doe', { as_published: 'M. Nikolov' }],
  section: 'Zoology',
});
const journal = site({ authors: [ana, jane], volumes: [volumeV, volumeI], manuscripts: [salamanders] });
const pageOf = (path: string, s = journal) => bodyText(renderPages(s).find((o) => o.path === path));
/** The `<meta name content>` pairs of a page, in document order, entities decoded. */
const metaTags = (html: string) =>
  [...html.matchAll(/<meta name="([^"]+)" content="([^"]*)">/g)].map((m): [string, string] => [
    m[1]!,
    m[2]!
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&'),
  ]);

describe('landing page of a manuscript', () => {
  it('is one file, manuscripts/<id>.html, next to the home page and one page per volume', () => {
    expect(renderPages(journal).map((o) => o.path)).toEqual([
      'index.html',
      '404.html',
      'volumes/5.html',
      'volumes/1.html',
      'manuscripts/7.html',
    ]);
  });

  it('comes as parts that cut no character in two (file-writer.ts encodes each on its own)', () => {
    const astral = site({
      authors: [ana, jane],
      volumes: [volumeV, volumeI],
      manuscripts: [{ ...salamanders, citation_title: 'On 𝔘 and Ж', abstract: '<p>𝔘 at the start and the end 𝔘</p>𝔘' }],
    });
    for (const output of renderPages(astral)) {
      const parts = [...(output.body as () => Iterable<string>)()];
      expect(parts.length, output.path).toBeGreaterThan(3);
      for (const part of parts)
        expect(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/.test(part), `${output.path}: ${part.slice(-40)}`).toBe(false);
      expect(parts.join(''), output.path).toBe(Buffer.from(parts.join('')).toString('utf8'));
    }
  });

  it("of a packed manuscript, leaves the abstract's HTML and summary to the thread that writes it, which makes the same page", async () => {
    const abstract =
      '<p>“Пакошево” 𝔘 at 12&nbsp;°C &amp; \u2028 <em>Triturus</em> <a href="javascript:alert(1)">x</a> <script>y</script> & <b>unclosed' +
      ' word'.repeat(80);
    const plain = { ...salamanders, abstract };
    const unpack = createUnpacker(() => {
      throw new Error('a packed record is never read from its file');
    });
    const { slim, packed } = packManuscript(plain);
    const pageOfRecord = (m: ManuscriptRecord) =>
      renderPages(site({ authors: [ana, jane], volumes: [volumeV, volumeI], manuscripts: [m] })).find(
        (o) => o.path === 'manuscripts/7.html',
      )!;
    const expected = bodyText(pageOfRecord(plain));
    const output = pageOfRecord(unpack(slim, packed));
    const parts = [...(output.body as () => Iterable<string | DeferredText>)()];
    // The HTML, the summary (the description and Open Graph's) and the whole plain text
    // (citation_abstract), and the JSON-LD's two (its description and abstract).
    expect(parts.filter((part) => part instanceof AbstractText)).toHaveLength(6);
    // The summary is one part, in both places: made for the page once.
    const summaries = parts.filter(
      (part) => part instanceof AbstractText && part.maker === ABSTRACT_TEXTS.indexOf('summary'),
    );
    expect(summaries).toHaveLength(2);
    expect(summaries[0]).toBe(summaries[1]);
    expect(parts.join('')).toBe(expected);
    expect(expected).toContain(`<meta name="description" content="${escapeHtml(summary(abstract))}">`);
    expect(expected).toContain(`<div class="abstract">${sanitizeAbstractHtml(abstract)}</div>`);

    const dir = await mkdtemp(path.join(os.tmpdir(), 'pages-'));
    try {
      const writer = createFileWriter();
      await writer.writeText(path.join(dir, 'page.html'), parts);
      await writer.writeText(path.join(dir, 'twice.html'), [...parts, ...parts]);
      await writer.close();
      expect(await readFile(path.join(dir, 'page.html'), 'utf8')).toBe(expected);
      expect(await readFile(path.join(dir, 'twice.html'), 'utf8')).toBe(expected + expected);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('of packed manuscripts, is the same page when the thread that hands it over makes it (its writer behind) as when the writer does', async () => {
    // file-writer.ts makes the deferred parts where they are handed over when the writer's thread
    // is behind: every time with behindAt 0, never for a few pages with the default.
    const unpack = createUnpacker(() => {
      throw new Error('a packed record is never read from its file');
    });
    const abstracts = [
      '<p>Plain <em>markup</em> only.</p>',
      '<p>A <a href="https://example.org/x?a=1&amp;b=2">link</a>, 12&nbsp;°C, “Пакошево” 𝔘</p>',
      '<p>Tail & <b>unclosed' + ' word'.repeat(90),
    ];
    const pages = abstracts.map((abstract) => {
      const plain = { ...salamanders, abstract };
      const { slim, packed } = packManuscript(plain);
      const page = (m: ManuscriptRecord) =>
        renderPages(site({ authors: [ana, jane], volumes: [volumeV, volumeI], manuscripts: [m] })).find(
          (o) => o.path === 'manuscripts/7.html',
        )!;
      return {
        expected: bodyText(page(plain)),
        parts: [...(page(unpack(slim, packed)).body as () => Iterable<string | DeferredText>)()],
      };
    });
    let madeHere = 0;
    const counted = (parts: readonly (string | DeferredText)[]) =>
      parts.map((part) =>
        typeof part === 'string'
          ? part
          : Object.assign(Object.create(part) as DeferredText, { make: () => (madeHere++, part.make()) }),
      );
    const dir = await mkdtemp(path.join(os.tmpdir(), 'pages-'));
    try {
      for (const [behindAt, count, made] of [
        [0, 300, 1800],
        [undefined, 3, 0],
      ] as const) {
        madeHere = 0;
        const writer = createFileWriter(undefined, behindAt === undefined ? {} : { behindAt });
        for (let i = 0; i < count; i++)
          await writer.writeText(path.join(dir, `${i}.html`), counted(pages[i % pages.length]!.parts));
        await writer.close();
        for (let i = 0; i < count; i++)
          expect(await readFile(path.join(dir, `${i}.html`), 'utf8'), `page ${i}`).toBe(
            pages[i % pages.length]!.expected,
          );
        expect(madeHere, `behind at ${behindAt}`).toBe(made);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("carries Google Scholar's citation_* tags in order, each author followed by its institution", () => {
    const tags = metaTags(pageOf('manuscripts/7.html')).filter(([name]) => name.startsWith('citation_'));
    expect(tags).toEqual([
      ['citation_title', 'Fire salamanders of Jakupica'],
      ['citation_author', 'Петровска, Ана'],
      ['citation_author_institution', 'Институт за биологија, Архимедова 3, 1000 Скопје.'],
      ['citation_author', 'Doe, Jane'],
      ['citation_author_institution', 'Dept. of Zoology, "Oxford" <UK> & Co'],
      // Kept as published (no record): cited as written, without an institution.
      ['citation_author', 'M. Nikolov'],
      ['citation_publication_date', '2021/03/04'],
      ['citation_date', '2021/03/04'],
      ['citation_journal_title', 'Bulletin of the "Test" Society & <Friends>'],
      ['citation_issn', '1857-9639'],
      // The label's numeral (Volume V), not the volume's key (1).
      ['citation_volume', '5'],
      ['citation_pdf_url', 'https://media.example.org/media/pdfs/m-7.pdf'],
      ['citation_abstract_html_url', 'https://journal.example.org/manuscripts/7'],
      ['citation_keywords', 'Salamandra salamandra'],
      ['citation_keywords', 'distribution'],
      ['citation_keywords', 'Macedonia'],
      ['citation_language', 'mk'],
      ['citation_publisher', 'Test Society, Skopje'],
      ['citation_abstract', 'New localities of Salamandra salamandra (Linnaeus, 1758).'],
    ]);
  });

  it('leaves out what is not known: pages, an empty language, a publisher the journal does not name', () => {
    const m = manuscript(8, { citation_language: '', citation_issn: '' });
    const tags = citationTags({ ...journal.journal, publisher: undefined }, m, volumeV, []).map(([name]) => name);
    expect(tags).not.toContain('citation_firstpage');
    expect(tags).not.toContain('citation_lastpage');
    expect(tags).not.toContain('citation_language');
    expect(tags).not.toContain('citation_publisher');
    // An empty ISSN on the record: the journal's ISSN still identifies the journal.
    expect(citationTags(journal.journal, m, volumeV, [])).toContainEqual(['citation_issn', '1857-9639']);
  });

  it('has a canonical link, a title naming the manuscript, and the readable record', () => {
    const html = pageOf('manuscripts/7.html');
    expect(html).toContain('<link rel="canonical" href="https://journal.example.org/manuscripts/7">');
    expect(html).toContain(
      '<title>Fire salamanders of Jakupica | Bulletin of the &quot;Test&quot; Society &amp; &lt;Friends&gt;</title>',
    );
    expect(html).toContain('<h1>Fire salamanders of Jakupica</h1>');
    expect(html).toContain(
      '<li><span class="author">Ана Петровска</span><span class="institution">Институт за биологија, Архимедова 3, 1000 Скопје.</span></li>',
    );
    expect(html).toContain('<li><span class="author">M. Nikolov</span></li>');
    expect(html).toContain('<dt>Volume</dt><dd><a href="/volumes/5">Volume V</a> (2023)</dd>');
    expect(html).toContain('<dt>Section</dt><dd>Zoology</dd>');
    expect(html).toContain('<dt>Published</dt><dd><time datetime="2021-03-04">4 March 2021</time></dd>');
    expect(html).toContain('<dt>Keywords</dt><dd>Salamandra salamandra, distribution, Macedonia</dd>');
    expect(html).toContain(
      '<div class="abstract"><p>New localities of <em>Salamandra salamandra</em> (Linnaeus, 1758).</p></div>',
    );
    expect(html).toContain(
      '<a class="pdf" href="https://media.example.org/media/pdfs/m-7.pdf" type="application/pdf">Full text (PDF)</a>',
    );
    expect(html).toContain(
      '<meta name="description" content="New localities of Salamandra salamandra (Linnaeus, 1758).">',
    );
  });

  it('escapes every value in text and attribute contexts, and sanitizes the abstract', () => {
    const hostile = '"><script>window.__pwned=1</script><x a=\'';
    const evil = manuscript(9, {
      citation_title: hostile,
      section: hostile,
      keywords: `${hostile}.`,
      udc: hostile,
      citation_language: hostile,
      abstract: '<p onclick="x()">ok</p><script>window.__pwned=1</script><img src=x onerror="window.__pwned=1"',
      authors: ['jane-doe', { as_published: hostile }],
    });
    const html = pageOf('manuscripts/9.html', site({ authors: [jane], volumes: [volumeV], manuscripts: [evil] }));
    // The one script element is the renderer's own JSON-LD.
    expect(html.match(/<script/g)).toEqual(['<script']);
    expect(html).toContain('<script type="application/ld+json">{"@context":"https://schema.org"');
    expect(html).not.toContain('<x ');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('onclick');
    // The title holds tags, so it is sanitized as markup (the build refuses these): in text, the
    // sanitizer escapes what can start or end markup, and leaves quotes as they are.
    expect(html).toContain('<h1>"&gt;&lt;script&gt;window.__pwned=1&lt;/script&gt;&lt;x a=\'</h1>');
    expect(html).toContain(
      '<meta name="citation_title" content="&quot;&gt;&lt;script&gt;window.__pwned=1&lt;/script&gt;&lt;x a=&#39;">',
    );
    expect(html).toContain(
      '<div class="abstract"><p>ok</p>&lt;script&gt;window.__pwned=1&lt;/script&gt;&lt;img src=x onerror="window.__pwned=1"</div>',
    );
    // Every tag in the page is one the renderer writes itself.
    const tags = new Set([...html.matchAll(/<\/?([a-z0-9]+)/g)].map((m) => m[1]));
    expect([...tags].sort()).toEqual(
      [
        'a',
        'body',
        'button',
        'dd',
        'div',
        'dl',
        'dt',
        'footer',
        'form',
        'h1',
        'h2',
        'head',
        'header',
        'html',
        'input',
        'li',
        'link',
        'main',
        'meta',
        'p',
        'script',
        'span',
        'style',
        'time',
        'title',
        'ul',
        'article',
      ].sort(),
    );
  });
});

describe('volume and home pages', () => {
  it("lists a volume's manuscripts by section, each linking its landing page", () => {
    const botany = manuscript(3, {
      citation_volume: 1,
      section: 'Botany',
      citation_title: 'Orchids',
      authors: ['jane-doe'],
    });
    const html = pageOf(
      'volumes/5.html',
      site({ authors: [ana, jane], volumes: [volumeV], manuscripts: [botany, salamanders] }),
    );
    expect(html).toContain('<h1>Volume V (2023)</h1>');
    expect(html).toContain(
      '<a class="pdf" href="https://media.example.org/media/volumes/pdfs/2023/volume-1.pdf" type="application/pdf">The whole volume (PDF)</a>',
    );
    // Sections in the journal's order (Zoology, Botany), whatever order the manuscripts come in.
    expect(html.indexOf('<h2>Zoology</h2>')).toBeLessThan(html.indexOf('<h2>Botany</h2>'));
    expect(html).toContain(
      '<li><a href="/manuscripts/7">Fire salamanders of Jakupica</a><br><span class="meta">Ана Петровска, Jane Doe, M. Nikolov</span></li>',
    );
    expect(html).toContain('<li><a href="/manuscripts/3">Orchids</a><br><span class="meta">Jane Doe</span></li>');
  });

  it('links every volume from the home page, newest first, and the API lists', () => {
    const html = pageOf('index.html');
    expect(html).toContain('<link rel="canonical" href="https://journal.example.org/">');
    expect(html).toContain(
      '<ul><li><a href="/volumes/5">Volume V</a> (2023), 1 manuscript</li><li><a href="/volumes/1">Volume I</a> (2019), 0 manuscripts</li></ul>',
    );
    for (const list of ['authors', 'volumes', 'manuscripts']) expect(html).toContain(`<a href="/api/${list}/">`);
  });

  it('names the journal once on the home page, and keeps the API lists below the volumes, small', () => {
    const html = pageOf('index.html');
    const body = html.slice(html.indexOf('<body>'));
    const title = escapeHtml(JOURNAL.title);
    expect(body.split(title)).toHaveLength(2);
    expect(body).toContain(`<h1>${title}</h1>`);
    // The developers' note: one paragraph after the volumes, in the metadata's smaller type.
    expect(body).not.toContain('<h2>Data</h2>');
    const data = body.indexOf('<section class="data meta">');
    expect(data).toBeGreaterThan(body.indexOf('<h2>Volumes</h2>'));
    expect(body.slice(data, body.indexOf('</section>', data)).match(/<p>/g)).toHaveLength(1);
  });

  it('renders the 404 page from the journal settings, with the head, style, header and footer of every page', () => {
    const html = pageOf('404.html');
    const home = pageOf('index.html');
    const style = (page: string) => /<style>.*<\/style>/.exec(page)?.[0];
    expect(style(html)).toBe(style(home));
    expect(html).toContain(`<title>Page not found | ${escapeHtml(JOURNAL.title)}</title>`);
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(html).not.toContain('rel="canonical"');
    // With the search box (search-box.ts), which asks the home page.
    expect(html).toContain(`<header><a href="/">${escapeHtml(JOURNAL.title)}</a>${HEADER_SEARCH}</header>`);
    expect(html).toContain('<h1>Page not found</h1>');
    expect(html.slice(html.indexOf('<main>'))).toContain('<a href="/">');
    expect(html.slice(html.indexOf('<footer>'))).toBe(home.slice(home.indexOf('<footer>')));
  });

  it('renders the same bytes twice', () => {
    expect(renderPages(journal).map(bodyText)).toEqual(renderPages(journal).map(bodyText));
  });
});

describe('helpers', () => {
  it("splits the contract's keyword string", () => {
    expect(keywordList('Carabidae, urban ecology.')).toEqual(['Carabidae', 'urban ecology']);
  });
  it('maps language names to ISO 639-1 codes, and keeps what it does not know', () => {
    expect(['English', 'macedonian', 'Македонски', 'en', 'Klingon'].map(languageCode)).toEqual([
      'en',
      'mk',
      'mk',
      'en',
      'Klingon',
    ]);
  });
});

describe("a landing page's description", () => {
  /** The summary as it was made from the whole abstract's plain text, before only its opening was read. */
  const fromWhole = (abstract: string) => {
    const plain = richTextToPlain(abstract);
    if (plain.length <= 300) return plain;
    const cut = plain.slice(0, /[\uD800-\uDBFF]/.test(plain[299]!) ? 299 : 300);
    const space = cut.lastIndexOf(' ');
    return `${(space > 200 ? cut.slice(0, space) : cut).replace(/[\s,;:.]+$/, '')}…`;
  };
  // Tags, references, runs of white space and stray brackets, in abstracts long and short.
  const PIECES = [
    '<p>',
    '</p>',
    '<em>',
    '</em>',
    '<br>',
    '<br/>',
    '<sub>',
    '</sub>',
    '&amp;',
    '&#38;lt;',
    '&nbsp;',
    '&lt;',
    '&#x3a;',
    '&amp',
    ' ',
    '  \n ',
    '\u00a0',
    ',',
    '.',
    ';',
    '<',
    '>',
    'a < b',
    'x > y',
    'Salamandra',
    'Пакошево',
    '°C',
    '𝔘',
    'word',
    'longerword',
  ];

  it("is made again for every page's own abstract, never the page before's, from a writer's buffer filled again", () => {
    // The writer's thread makes a page's summary from a view on its batch's buffer, which is filled
    // again with the next pages' bytes: the same memory, new bytes, a new summary.
    const maker = ABSTRACT_TEXTS.indexOf('summary');
    const abstracts = ['<p>Newts of Ohrid.</p>', '<p>Newts of Prespa.</p>', '<p>Newts of Ohrid.</p>', '<p>Ж</p>'];
    const buffer = Buffer.alloc(64);
    for (const abstract of abstracts) {
      const length = buffer.write(JSON.stringify(abstract));
      const view = buffer.subarray(0, length);
      for (const time of ['first', 'second']) {
        expect(makeDeferredText(maker, view), `${abstract}, ${time}`).toBe(escapeHtml(summary(abstract)));
      }
    }
  });

  it('is the summary of the whole abstract, whatever the markup where the opening ends', () => {
    const next = seededRandom(2024);
    for (let n = 0; n < 20_000; n++) {
      const length = Math.floor(next() * 700);
      const abstract = Array.from({ length }, () => PIECES[Math.floor(next() * PIECES.length)]).join('');
      expect(summary(abstract), abstract).toBe(fromWhole(abstract));
    }
  });

  it('reads the first characters of the plain text in one pass, as the whole plain text has them', () => {
    // No references: the one pass declines them, and these pieces are what it reads.
    const pieces = PIECES.filter((piece) => !piece.includes('&'));
    const next = seededRandom(2026);
    let read = 0;
    for (let n = 0; n < 20_000; n++) {
      const length = Math.floor(next() * 400);
      const abstract = Array.from({ length }, () => pieces[Math.floor(next() * pieces.length)]).join('');
      expect(summary(abstract), abstract).toBe(fromWhole(abstract));
      const count = [1, 7, 301][n % 3]!;
      const start = plainStart(abstract, count);
      if (start === undefined) continue;
      read++;
      expect(start, abstract).toBe(richTextToPlain(abstract).slice(0, count));
    }
    expect(read).toBeGreaterThan(5_000);
    // Cut where no space allows, the summary never ends in half an astral character.
    const astral = `${'x'.repeat(299)}𝔘${'y'.repeat(50)}`;
    expect(summary(astral)).toBe(`${'x'.repeat(299)}…`);
    expect(summary(astral)).toBe(Buffer.from(summary(astral)).toString('utf8'));
    expect(plainStart('a &amp; b', 301)).toBeUndefined();
    expect(plainStart('<p>  Line<br />break\u00a0</p><p>and\n\nmore  ', 301)).toBe('Line break and more');
  });
});
