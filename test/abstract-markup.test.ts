/**
 * The markup the JSON publishes: an abstract goes into the API as it is, and API clients render it
 * as HTML, so the build accepts only what the landing pages' allow-list keeps (sanitize-html.ts).
 * A well-kept sanitizer (DOMPurify on jsdom's spec-compliant HTML parser), configured with the same
 * allow-list, is the reference: whatever it would change, the build refuses.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import createDOMPurify from 'dompurify';
import fc from 'fast-check';
import { JSDOM } from 'jsdom';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ABSTRACT_ELEMENTS, findUnsafeMarkup } from '../scripts/generator/model/rich-text.ts';
import type { Problem } from '../scripts/generator/model/problems.ts';
import { sanitizeAbstractHtml } from '../scripts/generator/render/sanitize-html.ts';
import { snapshot } from './helpers/snapshot.ts';
import { createWorkspace, REPO_ROOT, VALID_JOURNAL, type Workspace } from './helpers/workspace.ts';
import { NEW_MANUSCRIPT } from './helpers/records.ts';

/** The pages' allow-list, written out here so that a change to it is a change to this test too. */
const ELEMENTS = ['p', 'em', 'i', 'strong', 'b', 'sup', 'sub', 'br', 'a'];

const { window } = new JSDOM('');
const purify = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]);
// `href` is the one attribute, and only on a link (DOMPurify's ALLOWED_ATTR holds for every element).
purify.addHook('uponSanitizeAttribute', (node, data) => {
  if (node.nodeName !== 'A') data.keepAttr = false;
});
const REFERENCE_CONFIG = {
  ALLOWED_TAGS: ELEMENTS,
  ALLOWED_ATTR: ['href'],
  ALLOWED_URI_REGEXP: /^https?:\/\//i,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  // Parsed in the body, as a client inserting the abstract into a page does: a leading <style> or
  // <meta> would otherwise be moved to the head and vanish without counting as a change.
  FORCE_BODY: true,
};

/** The abstract as the HTML parser reads it, serialized again: what "unchanged" is measured against. */
function parsedAsIs(html: string): string {
  const document = new window.DOMParser().parseFromString(`<remove></remove>${html}`, 'text/html');
  document.body.firstChild?.remove();
  return document.body.innerHTML;
}

/**
 * Whether the reference sanitizer takes anything away from the abstract. DOMPurify returns a text
 * without `<` as it is, unparsed: it is compared with the text itself then.
 */
const referenceChanges = (html: string) =>
  purify.sanitize(html, REFERENCE_CONFIG) !== (html.includes('<') ? parsedAsIs(html) : html);

/** Every abstract of the sample journal and of the fixture journal. */
function journalAbstracts(): string[] {
  const abstracts: string[] = [];
  for (const root of [path.join(REPO_ROOT, 'content'), VALID_JOURNAL]) {
    const folder = path.join(root, 'manuscripts');
    for (const name of readdirSync(folder).sort()) {
      const text = readFileSync(path.join(folder, name), 'utf8');
      const data = (name.endsWith('.json') ? JSON.parse(text) : parse(text, { schema: 'failsafe' })) as {
        abstract: string;
      };
      abstracts.push(data.abstract);
    }
  }
  return abstracts;
}

const ORDINARY = [
  '<p>We report <em>Salamandra salamandra</em> (Linnaeus, 1758) at 12&nbsp;°C &amp; more.</p>',
  '<P>Upper-case <EM>tags</EM><BR/>and <Strong>mixed</Strong> case.</P>',
  'No markup at all, with p < 0.05 and a > b, and a bare & ampersand.',
  '<p>H<sub>2</sub>O and 10<sup>3</sup>, <i>in vitro</i>, <b>bold</b>.</p><p>Second.<br>Line.<br />End.</p>',
  '<p>See <a href="https://doi.org/10.1000/182">the DOI</a> and <a href=\'http://example.org/a?b=1&amp;c=2\'>this</a>.</p>',
  '<p>An unquoted <a href=https://example.org/x/>link</a> and a spaced <a  href = "https://example.org" >one</a>.</p>',
  '<p>Text with &lt;script&gt; written as text, &#169; and &#x2013; references.</p>',
  '<p >Spaces</p ><em\n>inside</em\t> tags',
];

/** Accepted too, but a page repairs them (closes, drops) where a browser does its own repairs. */
const UNBALANCED = ['<p>Unclosed paragraph <em>and emphasis', 'Stray </em> closing and </p> end.'];

/** Known XSS vectors and the hostile editor's tricks: each must be refused. */
const HOSTILE = [
  '<script>alert(1)</script>',
  '<xmp><img src=x onerror=alert(1)></xmp>',
  '<noembed><img src=x onerror=alert(1)></noembed>',
  '<noframes><img src=x onerror=alert(1)></noframes>',
  '<title><img src=x onerror=alert(1)></title>',
  '<style><img src=x onerror=alert(1)></style>',
  '<textarea><img src=x onerror=alert(1)></textarea>',
  '<plaintext><img src=x onerror=alert(1)>',
  '<iframe srcdoc="&lt;script&gt;alert(1)&lt;/script&gt;"></iframe>',
  '<template><img src=x onerror=alert(1)></template>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
  '<svg><script>alert(1)</script></svg>',
  '<svg/onload=alert(1)>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>',
  '<p style="position:fixed;inset:0;z-index:9999;background:white">Click here</p>',
  '<a href="https://example.org" style="position:fixed;inset:0">cover</a>',
  '<p class="x">classed</p>',
  '<em title="x">titled</em>',
  '<p onclick="alert(1)">a</p>',
  '<p/onclick=alert(1)>a</p>',
  '<span>a span</span>',
  '<div>a div</div>',
  '<img src=x onerror=alert(1)>',
  '<a href="javascript:alert(1)">x</a>',
  '<a href="JaVaScRiPt:alert(1)">x</a>',
  '<a href="java&#x09;script:alert(1)">x</a>',
  '<a href="&#106;avascript:alert(1)">x</a>',
  '<a href="javascript&colon;alert(1)">x</a>',
  '<a href="data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;">x</a>',
  '<a href="/relative">relative</a>',
  '<a href="mailto:x@example.org">mail</a>',
  '<a href="https://example.org" target="_blank">new tab</a>',
  '<a href="https://example.org" onmouseover="alert(1)">x</a>',
  '<a>no href</a>',
  '<a name="anchor">anchor</a>',
  '<!-- a comment --><p>a</p>',
  '<!--><img src=x onerror=alert(1)>-->',
  '<![CDATA[x]]>',
  '<?xml version="1.0"?>',
  '</3 hidden text>',
  '</>',
  '<p>a</p></br>',
  '<object data="x"></object>',
  '<embed src="x">',
  '<form action="https://x"><button>go</button></form>',
  '<base href="https://evil.example">',
  '<link rel="stylesheet" href="https://evil.example/x.css">',
  '<meta http-equiv="refresh" content="0;url=https://evil.example">',
  '<marquee>old</marquee>',
  '<blink>old</blink>',
  '<p-x>custom</p-x>',
  '<em:x>namespaced</em:x>',
  '<p>a</p><img src=x onerror=alert(1)',
  '<p title="a>b">quoted</p>',
  '<p "a>b">odd</p>',
];

describe('abstract markup: the allow-list of the pages', () => {
  it('is the one this test configures the reference with', () => {
    expect([...ABSTRACT_ELEMENTS].sort()).toEqual([...ELEMENTS].sort());
  });

  it.each([...ORDINARY, ...UNBALANCED])('accepts the ordinary %s', (html) => {
    expect(findUnsafeMarkup(html)).toBeUndefined();
  });

  it.each(HOSTILE)('refuses %s', (html) => {
    expect(findUnsafeMarkup(html)).toBeDefined();
  });

  it.each([
    ['<xmp>x</xmp>', 0, 'the <xmp> element is not allowed'],
    ['<p>a</p><noembed>x</noembed>', 8, 'the <noembed> element is not allowed'],
    ['<p>a <TEMPLATE>x</TEMPLATE></p>', 5, 'the <template> element is not allowed'],
    ['<p style="position:fixed">a</p>', 0, 'the style attribute of <p> is not allowed'],
    ['<p>x <em class="sp">y</em></p>', 5, 'the class attribute of <em> is not allowed'],
    ['<a href="https://example.org" target="_blank">x</a>', 0, 'the target attribute of <a> is not allowed'],
    ['<a href="/relative">x</a>', 0, 'the link address "/relative" is not allowed'],
    ['<a>x</a>', 0, 'a link <a> without an href is not allowed'],
    ['<p>a</p></br>', 8, '</br> is not allowed'],
    ['x </3 y>', 2, 'a "</" that starts no closing tag is not allowed'],
  ])('names what it refuses in %s', (html, offset, message) => {
    expect(findUnsafeMarkup(html)).toMatchObject({ offset, message });
  });
});

describe('abstract markup: DOMPurify with the same allow-list is the reference', () => {
  it('flags every hostile vector and leaves every ordinary abstract alone (the reference is sound)', () => {
    expect(HOSTILE.filter((html) => !referenceChanges(html) && !/^<a[ >]|<\/|<p "/.test(html))).toEqual([]);
    expect([...ORDINARY, ...UNBALANCED].filter(referenceChanges)).toEqual([]);
  });

  it('every abstract the build accepts, the reference leaves unchanged', () => {
    const corpus = [...journalAbstracts(), ...ORDINARY, ...UNBALANCED, ...HOSTILE];
    const accepted = corpus.filter((html) => findUnsafeMarkup(html) === undefined);
    expect(accepted.length).toBeGreaterThan(40);
    expect(accepted.filter(referenceChanges)).toEqual([]);
    // And the other way round: whatever the reference would change is refused.
    expect(corpus.filter(referenceChanges).filter((html) => findUnsafeMarkup(html) === undefined)).toEqual([]);
  });

  it('every abstract the build accepts shows on a page as a client shows it', () => {
    const corpus = [...journalAbstracts(), ...ORDINARY];
    for (const html of corpus) {
      expect(findUnsafeMarkup(html)).toBeUndefined();
      expect(parsedAsIs(sanitizeAbstractHtml(html))).toBe(parsedAsIs(html));
    }
  });

  it('agrees on random markup made of allowed and refused pieces', () => {
    /** Pieces the build accepts wherever they stand (text, references, allowed tags)... */
    const allowed = fc.constantFrom(
      ...['<p>', '</p>', '<em>', '</em>', '<br>', '<br/>', '<sub>', '</sub>', '<B>', '</b>', '<i >', '</I>'],
      ...['<a href="https://x.org/a">', '<a href=https://x.org/>', '</a>', 'text', ' ', '\n', 'é', '&amp;'],
      ...['&lt;', '&#106;', '&colon;', '&', '>', '"', "'", '=', '< ', '-->', ']]>', '--!>'],
    );
    /** ...and pieces that are refused, or that change what the pieces around them mean. */
    const hostile = fc.constantFrom(
      ...['<', '</', '</3', '<!--', '<a href="java&#x09;script:x">', '<a href="/r">', '<a>', '<span>', '</span>'],
      ...['<xmp>', '</xmp>', '<style>', '<p style="x">', '<em title=x>', '<img src=x onerror=alert(1)>', '</br>'],
      ...['<title>', '<noembed>', '<plaintext>', '<svg>', '<math>', '<template>', '<p/onclick=x>', '<br onclick=x>'],
      ...['<a href="https://x.org/" title="', '<p title="', '<em ', '<a href="https://x.org/?q=<b>">'],
    );
    let accepted = 0;
    fc.assert(
      fc.property(
        fc.array(fc.oneof({ weight: 6, arbitrary: allowed }, { weight: 1, arbitrary: hostile }), { maxLength: 14 }),
        (pieces) => {
          const html = pieces.join('');
          if (findUnsafeMarkup(html) !== undefined) return;
          accepted++;
          expect(referenceChanges(html), html).toBe(false);
        },
      ),
      { numRuns: 800, seed: 20240611 },
    );
    // The property says something only if the build accepts a fair share of what it is given.
    expect(accepted).toBeGreaterThan(200);
  });
});

describe('abstract markup and plain author strings: the build refuses them in one report', () => {
  let workspace: Workspace | undefined;
  afterEach(async () => {
    await workspace?.dispose();
    workspace = undefined;
  });

  const MANUSCRIPT = NEW_MANUSCRIPT.replace('  - jane-doe', '  - as_published: Jane Doe');

  const where = (p: Problem) => `${p.code} ${p.file}:${p.line}:${p.column} ${p.field}`;

  it('refuses a raw-text element, a style attribute and markup in an as_published author, leaving dist/ as it was', async () => {
    workspace = await createWorkspace();
    expect((await workspace.build()).ok).toBe(true);
    const before = await snapshot(workspace.paths.out);
    await workspace.write(
      'manuscripts/xmp.yaml',
      MANUSCRIPT.replace('<p>Text.</p>', "'<p>Text.</p><xmp><img src=x onerror=alert(1)></xmp>'"),
    );
    await workspace.write(
      'manuscripts/overlay.yaml',
      MANUSCRIPT.replace('id: 40', 'id: 41').replace('<p>Text.</p>', '\'<p style="position:fixed;inset:0">Click</p>\''),
    );
    await workspace.write(
      'manuscripts/author.yaml',
      MANUSCRIPT.replace('id: 40', 'id: 42').replace(
        'as_published: Jane Doe',
        'as_published: <img src=x onerror=alert(1)>',
      ),
    );
    const result = await workspace.build();
    expect(result.ok).toBe(false);
    expect(result.problems.map(where)).toEqual([
      'schema/markup content/manuscripts/author.yaml:10:5 authors[1]',
      'schema/markup content/manuscripts/overlay.yaml:5:12 abstract',
      'schema/markup content/manuscripts/xmp.yaml:5:24 abstract',
    ]);
    const [author, overlay, xmp] = result.problems;
    expect(author!.message).toContain('as_published');
    expect(overlay!.message).toContain('the style attribute of <p> is not allowed');
    expect(xmp!.message).toContain('the <xmp> element is not allowed');
    expect(await snapshot(workspace.paths.out)).toEqual(before);
  });

  it('exits 1 on the command line and prints each problem at its place', async () => {
    workspace = await createWorkspace({
      'manuscripts/xmp.yaml': MANUSCRIPT.replace('<p>Text.</p>', "'<p>a</p><noframes>x</noframes>'"),
    });
    const { code, stderr, stdout } = await workspace.cli('build');
    expect(code).toBe(1);
    expect(`${stdout}${stderr}`).toContain(
      'content/manuscripts/xmp.yaml:5:20 abstract: the <noframes> element is not allowed',
    );
  });
});
