/**
 * The one conversion of an abstract's rich text to plain text (model/rich-text.ts, richTextToPlain),
 * which every output that needs plain text uses: a `<` that opens no tag is text, as a browser
 * reads it ("p < 0.05"), character references are decoded once, tags are removed, and line breaks
 * and paragraphs are white space.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JSDOM } from 'jsdom';
import { plainStart, richTextToPlain } from '../scripts/generator/model/rich-text.ts';
import { summary } from '../scripts/generator/render/abstract-text.ts';
import { VALID_JOURNAL, createWorkspace, type Workspace } from './helpers/workspace.ts';

let ws: Workspace | undefined;
afterEach(async () => {
  await ws?.dispose();
  ws = undefined;
});

const STATISTICS = '<p>The difference was significant (p < 0.05) in spring, but not in autumn (p > 0.1).</p>';

describe('rich text to plain text', () => {
  it.each([
    [STATISTICS, 'The difference was significant (p < 0.05) in spring, but not in autumn (p > 0.1).'],
    ['<p>a < b and c <= d, 2<3, x<-y, e > f</p>', 'a < b and c <= d, 2<3, x<-y, e > f'],
    [
      '<p>A <em>Salamandra</em> at 12&nbsp;°C &amp; H<sub>2</sub>O &#8211; &lt;em&gt;</p>',
      'A Salamandra at 12 °C & H2O – <em>',
    ],
    ['&amp;lt; is decoded once', '&lt; is decoded once'],
    ['<p>One.</p><p>Two.</p>Three<br>four<br/>five<P >six', 'One. Two. Three four five six'],
    ['<a href="https://example.org/?a=1&amp;b=2">a link</a> and <strong>bold</strong>', 'a link and bold'],
    ['  <p>\n spaced \u00a0 out \n</p>  ', 'spaced out'],
  ])('%j', (rich, plain) => {
    expect(richTextToPlain(rich)).toBe(plain);
  });

  it('reads as a browser reads the same markup: the text content, white space folded', () => {
    const cases = [
      STATISTICS,
      '<p>a < b and c <= d, 2<3, x<-y, e > f</p>',
      '<p>A <em>Salamandra</em> at 12&nbsp;°C &amp; H<sub>2</sub>O &#8211; &lt;em&gt;</p>',
      '<p>x < y <em>z</em> > w</p>',
    ];
    for (const rich of cases) {
      const { document } = new JSDOM(`<!doctype html><div>${rich}</div>`).window;
      const browser = document.querySelector('div')!.textContent!.replace(/\s+/g, ' ').trim();
      expect(richTextToPlain(rich), rich).toBe(browser);
    }
  });

  it('the one-pass opening and the summary keep the same characters', () => {
    expect(plainStart(STATISTICS, 301)).toBe(richTextToPlain(STATISTICS));
    const long = `<p>${'Counts rose where p < 0.05 and fell where p > 0.1. '.repeat(12)}</p>`;
    expect(summary(long)).toMatch(/^Counts rose where p < 0\.05 and fell where p > 0\.1\. Counts/);
    expect(summary(long).length).toBeLessThanOrEqual(301);
  });
});

describe("a landing page's description", () => {
  it('keeps a "<" that opens no tag, escaped for the attribute', async () => {
    const salamanders = await readFile(path.join(VALID_JOURNAL, 'manuscripts/salamanders.yaml'), 'utf8');
    ws = await createWorkspace({
      'manuscripts/salamanders.yaml': salamanders.replace(/abstract: >-\n(?: {2}.*\n)+/, `abstract: '${STATISTICS}'\n`),
    });
    expect((await ws.build()).problems).toEqual([]);
    const page = await readFile(path.join(ws.paths.out, 'manuscripts/7.html'), 'utf8');
    expect(page).toContain(
      '<meta name="description" content="The difference was significant (p &lt; 0.05) in spring, but not in autumn (p &gt; 0.1).">',
    );
  });
});
