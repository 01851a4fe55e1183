/**
 * Titles with the markup journals print in them (model/rich-text.ts, TITLE_ELEMENTS): a species
 * name in italics, a formula's subscript. A built journal's every output gives the title in its own
 * form: the JSON API the exact string, the page's heading as sanitized HTML, the meta tags, the
 * feed and RIS plain text, BibTeX LaTeX's commands, CSL-JSON CSL's rich text. Other markup is refused
 * where it is written.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { JSDOM } from 'jsdom';
import { Cite } from '@citation-js/core';
import '@citation-js/plugin-bibtex';
import '@citation-js/plugin-ris';
import '@citation-js/plugin-csl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, type Workspace } from './helpers/workspace.ts';
import { titleRuns, titleToPlain } from '../scripts/generator/render/title-text.ts';

const TITLE = 'Occurrence of <i>Salamandra salamandra</i> near H<sub>2</sub>S springs &amp; caves';
const PLAIN = 'Occurrence of Salamandra salamandra near H2S springs & caves';

const salamanders = (title: string) =>
  [
    'id: 7',
    'volume: Volume I',
    `citation_title: '${title}'`,
    'citation_date: 2021-03-04',
    "abstract: '<p>Newts.</p>'",
    'keywords: [newts]',
    'document: pdfs/salamanders.pdf',
    'authors: [ana-petrovska]',
    'section: Zoology',
    '',
  ].join('\n');

describe('a title with markup, in every output', () => {
  let workspace: Workspace;
  const read = (file: string) => readFile(path.join(workspace.paths.out, file), 'utf8');

  beforeAll(async () => {
    workspace = await createWorkspace({ 'manuscripts/salamanders.yaml': salamanders(TITLE) });
    const result = await workspace.build();
    expect(result.problems).toEqual([]);
    // Markup a title may hold is what the editor meant: nothing to warn about.
    expect(result.warnings ?? []).toEqual([]);
  });
  afterAll(() => workspace.dispose());

  it('keeps the exact string in the JSON API', async () => {
    const list = JSON.parse(await read('api/manuscripts/index.json').catch(() => read('api/manuscripts'))) as {
      id: number;
      citation_title: string;
    }[];
    expect(list.find((m) => m.id === 7)?.citation_title).toBe(TITLE);
  });

  it("shows the markup in the landing page's heading and the volume's list, and plain text in the head", async () => {
    const { document } = new JSDOM(await read('manuscripts/7.html')).window;
    const h1 = document.querySelector('h1')!;
    expect(h1.innerHTML).toBe('Occurrence of <i>Salamandra salamandra</i> near H<sub>2</sub>S springs &amp; caves');
    expect(document.title).toBe(`${PLAIN} | Bulletin of the Test Society`);
    const meta = (selector: string) => document.querySelector(`meta[${selector}]`)?.getAttribute('content');
    expect(meta('name="citation_title"')).toBe(PLAIN);
    expect(meta('name="DC.Title"')).toBe(PLAIN);
    expect(meta('property="og:title"')).toBe(PLAIN);
    const jsonLd = JSON.parse(document.querySelector('script[type="application/ld+json"]')!.textContent!) as Record<
      string,
      unknown
    >;
    expect([jsonLd['headline'], jsonLd['name']]).toEqual([PLAIN, PLAIN]);
    const volume = new JSDOM(await read('volumes/1.html')).window.document;
    expect(volume.querySelector('a[href="/manuscripts/7"]')?.innerHTML).toBe(
      'Occurrence of <i>Salamandra salamandra</i> near H<sub>2</sub>S springs &amp; caves',
    );
  });

  it("gives the feed's entry the plain title", async () => {
    const feed = await read('feed.xml');
    expect(feed).toContain(`<title type="text">${PLAIN.replace('&', '&amp;')}</title>`);
  });

  it('writes the markup in each citation format its own way', async () => {
    const bib = await read('citations/7.bib');
    expect(bib).toContain(
      'title = {Occurrence of \\textit{{Salamandra} salamandra} near {H}\\textsubscript{2}{S} springs \\& caves}',
    );
    expect((new Cite(bib).data as { title: string }[])[0]!.title).toBe(
      'Occurrence of <i>Salamandra salamandra</i> near H<sub>2</sub>S springs & caves',
    );
    const [csl] = JSON.parse(await read('citations/7.json')) as { title: string }[];
    expect(csl!.title).toBe('Occurrence of <i>Salamandra salamandra</i> near H<sub>2</sub>S springs & caves');
    const ris = await read('citations/7.ris');
    expect(ris).toContain(`\r\nTI  - ${PLAIN}\r\n`);
  });
});

describe('a title with other markup', () => {
  it.each([
    ['<span>Salamandra</span> salamandra', 'the <span> element is not allowed', 18],
    ['Newts <a href="https://example.org">here</a>', 'the <a> element is not allowed', 24],
    ['Newts<br>of Ohrid', 'the <br> element is not allowed', 23],
    ['<i class="x">Salamandra</i>', 'the class attribute of <i> is not allowed', 18],
    ['Newts <script>x()</script>', 'the <script> element is not allowed', 24],
  ])('%s is refused at its line and column', async (title, message, column) => {
    // The tag's own column: `citation_title: '` is 17 characters.
    expect(column).toBe(18 + title.indexOf('<'));
    const workspace = await createWorkspace({ 'manuscripts/salamanders.yaml': salamanders(title) });
    try {
      const result = await workspace.build();
      expect(result.problems.map((p) => [p.code, p.file, p.line, p.column, p.field, p.message])).toEqual([
        [
          'schema/markup',
          'content/manuscripts/salamanders.yaml',
          3,
          column,
          'citation_title',
          expect.stringContaining(message),
        ],
      ]);
      expect(result.problems[0]!.expected).toMatch(/em>?, <?i>?, <?strong>?, <?b>?, <?sup>? and <?sub/);
    } finally {
      await workspace.dispose();
    }
  });
});

describe("a title's runs and plain text (render/title-text.ts)", () => {
  it('gives a title without markup as it is, its white space folded only where it has to be', () => {
    expect(titleToPlain('Plain  double & <5 mm')).toBe('Plain  double & <5 mm');
    expect(titleToPlain(' A\tB ')).toBe('A B');
    expect(titleRuns(' A\tB ')).toEqual([{ text: 'A B', styles: [] }]);
  });

  it('reads nested styles, joins references and folds white space across runs', () => {
    expect(titleRuns('Of <i>Salamandra <b>x</b></i>  y<sub>2</sub>')).toEqual([
      { text: 'Of ', styles: [] },
      { text: 'Salamandra ', styles: ['italic'] },
      { text: 'x', styles: ['italic', 'bold'] },
      { text: ' y', styles: [] },
      { text: '2', styles: ['sub'] },
    ]);
    // An element inside another of the same style is one style.
    expect(titleRuns('<i><em>A</em></i>')).toEqual([{ text: 'A', styles: ['italic'] }]);
    expect(titleToPlain('<i>A</i> &amp; <em>B</em> ')).toBe('A & B');
  });
});
