/** Unit tests of the pipeline's small pure pieces: formats, rich text, parsing, the report. */
import { describe, expect, it } from 'vitest';
import {
  isCalendarDate,
  isCanonicalRoman,
  romanToNumber,
  absoluteMediaPath,
} from '../scripts/generator/model/formats.ts';
import { parseFile } from '../scripts/generator/stages/parse.ts';
import { formatProblem, formatReport, nearest, type Problem } from '../scripts/generator/model/problems.ts';
import { toJson } from '../scripts/generator/render/json-text.ts';
import { findUnsafeMarkup, richTextToPlain } from '../scripts/generator/model/rich-text.ts';
import { fieldName } from '../scripts/generator/stages/validate.ts';
import { orderJournal } from '../scripts/generator/stages/resolve.ts';
import type { AuthorRecord } from '../scripts/generator/model/records.ts';
import type { JournalInput } from '../scripts/generator/model/schema.ts';

describe('formats', () => {
  it('accepts only canonical Roman numerals', () => {
    for (const ok of ['I', 'IV', 'IX', 'XIV', 'XL', 'XC', 'CD', 'MMXXIV', 'MMMCMXCIX'])
      expect(isCanonicalRoman(ok), ok).toBe(true);
    for (const bad of ['', 'IIII', 'VX', 'IL', 'IC', 'VV', 'MMMM', 'iv', 'XIIII'])
      expect(isCanonicalRoman(bad), bad).toBe(false);
    expect(romanToNumber('MCMXCIV')).toBe(1994);
  });

  it('accepts only real calendar dates', () => {
    expect(isCalendarDate('2024-02-29')).toBe(true);
    expect(isCalendarDate('2023-02-29')).toBe(false);
    expect(isCalendarDate('2021-02-30')).toBe(false);
    expect(isCalendarDate('2021-04-31')).toBe(false);
    expect(isCalendarDate('2021-13-01')).toBe(false);
    expect(isCalendarDate('2021-1-01')).toBe(false);
    expect(isCalendarDate('1900-02-29')).toBe(false);
    expect(isCalendarDate('2000-02-29')).toBe(true);
  });

  it('reads the media path of an absolute URL, and refuses what is not one', () => {
    expect(absoluteMediaPath('https://old.example.org/media/pdfs/a.pdf')).toBe('pdfs/a.pdf');
    expect(absoluteMediaPath('https://old.example.org/media/pdfs/a%20b.pdf')).toBe('pdfs/a b.pdf');
    expect(absoluteMediaPath('https://old.example.org/files/a.pdf')).toBeUndefined();
    expect(absoluteMediaPath('pdfs/a.pdf')).toBeUndefined();
    expect(absoluteMediaPath('https://old.example.org/media/../etc/a.pdf')).toBeUndefined();
  });
});

describe('rich text', () => {
  it('lets editor formatting through', () => {
    expect(
      findUnsafeMarkup(
        '<p>The <em>Salamandra</em> &amp; <strong>x</strong><sup>2</sup><br/><a href="https://doi.org/10.1/x">doi</a></p>',
      ),
    ).toBeUndefined();
    expect(findUnsafeMarkup('Temperatures < 5 °C and a > b')).toBeUndefined();
    expect(
      findUnsafeMarkup('<a href="https://example.org/a?b=1&amp;c=2">x</a> <A HREF=http://example.org/>y</A>'),
    ).toBeUndefined();
  });

  it.each([
    ['<script>alert(1)</script>', 'script'],
    ['<p onmouseover="x()">a</p>', 'onmouseover'],
    ['<a href="JaVaScRiPt:alert(1)">a</a>', 'link address'],
    ['<a href="java&#x09;script:alert(1)">a</a>', 'link address'],
    ['<a href="&#106;avascript:alert(1)">a</a>', 'link address'],
    ['<img src=x onerror=alert(1)>', 'img'],
    ['<iframe src="https://x"></iframe>', 'iframe'],
    ['<!-- hidden -->', 'comments'],
    ['<svg><script>1</script></svg>', 'svg'],
    ['<a href="javascript&colon;alert(1)">a</a>', 'link address'],
    ['<a href="java&Tab;script:alert(1)">a</a>', 'link address'],
    ['<a href="javascrip&#116:alert(1)">a</a>', 'link address'],
    ['<span title="x" data-x="javascript&colon;alert(1)">a</span>', '<span>'],
    ['<area href="vbscript:x">', '<area>'],
    ['<a href="ftp://x">a</a>', 'link address'],
    ['<p>a</p><img src=x onerror=alert(1)', 'not closed'],
    ['<p title="x">a</p><b', 'not closed'],
  ])('refuses %s', (html, word) => {
    expect(findUnsafeMarkup(html)?.message).toContain(word);
  });

  it('reports a tag left open before an earlier refused tag, and reads a quoted attribute as text', () => {
    expect(findUnsafeMarkup('<script>x</script><p>a</p><b')).toMatchObject({
      offset: 26,
      message: 'a tag is not closed with ">"',
    });
    expect(findUnsafeMarkup('<p>a</p><iframe src="https://x"></iframe> <img src=x>')).toMatchObject({
      offset: 8,
      message: 'the <iframe> element is not allowed',
    });
    // The <script> and <b inside the quotes are part of the link's address, not tags of their own.
    expect(findUnsafeMarkup('<a href="https://x.org/<script>">t</a>')).toBeUndefined();
    expect(findUnsafeMarkup('<a href="https://x.org/<b">t</a>')).toBeUndefined();
  });

  it('turns rich text into plain text for meta tags', () => {
    expect(richTextToPlain('<p>The <em>Salamandra</em> &amp; co.</p>\n<p>Second&nbsp;one &#8211; done</p>')).toBe(
      'The Salamandra & co. Second one – done',
    );
    // Each reference is decoded once: an escaped reference stays a reference in the text.
    expect(richTextToPlain('<p>&amp;lt; and &#38;lt; and &#0; end</p>')).toBe('&lt; and &lt; and \ufffd end');
  });
});

describe('JSON as the original wrote it', () => {
  it('compact, raw UTF-8 including non-BMP characters, U+2028 and U+2029 escaped', () => {
    expect(toJson({ a: 'Ана 𝔘 "q" \\ \n \u2028 \u2029 \u0001' })).toBe(
      '{"a":"Ана 𝔘 \\"q\\" \\\\ \\n \\u2028 \\u2029 \\u0001"}',
    );
  });
});

describe('parse', () => {
  const bytes = (text: string) => new TextEncoder().encode(text);

  it('keeps every YAML scalar as the text typed', () => {
    const { parsed } = parseFile('a.yaml', bytes('d: 2024-01-02\nv: 1.10\nz: 007\nb: yes\nn: null\ne:\n'));
    expect(parsed?.data).toEqual({ d: '2024-01-02', v: '1.10', z: '007', b: 'yes', n: 'null', e: '' });
  });

  it('locates values, list items, and keys', () => {
    const { parsed } = parseFile('a.yaml', bytes('id: 1\nauthors:\n  - a\n  - b\n'));
    expect(parsed?.locate(['authors', 1])).toEqual({ line: 4, column: 5 });
    expect(parsed?.locate(['missing'])).toEqual({ line: 1, column: 1 });
    expect(parsed?.locateKey([], 'authors')).toEqual({ line: 2, column: 1 });
  });

  it('reads JSON with JSON types and positions', () => {
    const { parsed } = parseFile('a.json', bytes('{\n  "id": 5,\n  "t": "x"\n}'));
    expect(parsed?.data).toEqual({ id: 5, t: 'x' });
    expect(parsed?.locate(['t'])).toEqual({ line: 3, column: 8 });
  });

  it('strips a byte order mark', () => {
    expect(parseFile('a.yaml', bytes('\uFEFFa: b\n')).parsed?.data).toEqual({ a: 'b' });
  });

  it('refuses several documents in one file', () => {
    expect(parseFile('a.yaml', bytes('a: 1\n---\nb: 2\n')).problems[0]?.code).toBe('parse/syntax');
  });
});

describe('the report', () => {
  const problem = (file: string, line: number, field = 'f'): Problem => ({
    code: 'schema/format',
    file,
    line,
    column: 3,
    field,
    message: 'is wrong',
    expected: 'right',
  });

  it('formats one problem as file:line:column field: message (expected)', () => {
    expect(formatProblem(problem('content/a.yaml', 4, 'authors[1]'))).toBe(
      'content/a.yaml:4:3 authors[1]: is wrong (right)',
    );
    expect(formatProblem({ ...problem('content/a.yaml', 0, ''), expected: undefined })).toBe(
      'content/a.yaml: is wrong',
    );
    expect(fieldName(['authors', 1])).toBe('authors[1]');
    expect(fieldName(['a', 'b', 0, 'c'])).toBe('a.b[0].c');
  });

  it('groups by file, sorts by position, and caps a huge report with a count of the rest', () => {
    const problems = [problem('b.yaml', 2), problem('a.yaml', 9), problem('a.yaml', 1)];
    expect(formatReport(problems).split('\n')).toEqual([
      'a.yaml:1:3 f: is wrong (right)',
      'a.yaml:9:3 f: is wrong (right)',
      '',
      'b.yaml:2:3 f: is wrong (right)',
      '',
      '3 problems in 2 files.',
    ]);
    const many = Array.from({ length: 10_000 }, (_, i) => problem(`f${String(i).padStart(5, '0')}.yaml`, 1));
    const report = formatReport(many, 200).split('\n');
    expect(report.filter((line) => line.includes('is wrong'))).toHaveLength(200);
    expect(report.at(-3)).toBe('... and 9800 more problems not shown.');
    expect(report.at(-1)).toBe('10000 problems in 10000 files.');
  });

  it('suggests the nearest name only for small typos', () => {
    expect(nearest('jane-do', ['jane-doe', 'john-doe', 'ana'])).toBe('jane-doe');
    expect(nearest('zzzzzz', ['jane-doe', 'ana'])).toBeUndefined();
  });
});

describe('the published order', () => {
  it('lists authors with an order first, by it, then the rest by institution and key, in code units', () => {
    // Keys whose order differs from their files' (`a-b.yaml` sorts before `a.yaml`, `a` before `a-b`),
    // institutions shared and not, texts beyond the ASCII range, and orders shared by several authors.
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return Math.floor(seed / 65536) % n; // the high bits: the low ones of this generator repeat quickly
    };
    const stems = ['a', 'a-b', 'a.b', 'a_b', 'A', 'ab', 'é', 'z', 'Ω', '\u{1F600}'];
    const institutions = ['Institute 1', 'Institute 10', 'institute 2', 'Ústav', 'Z', '\u{1F600} Lab'];
    const keys = new Set<string>();
    for (let tries = 0; tries < 2000 && keys.size < 300; tries++)
      keys.add(`${stems[next(stems.length)]}${next(3) === 0 ? '' : `-${next(50)}`}`);
    const files = [...keys].map((key) => `${key}.yaml`).sort();
    const authors: AuthorRecord[] = files.map((file, i) => ({
      name: 'N',
      surname: 'S',
      institution: institutions[next(institutions.length)]!,
      ...(i % 9 === 0 ? { order: next(5) } : {}),
      origin: { file: `content/authors/${file}`, key: file.slice(0, -'.yaml'.length), at: {} },
    }));
    const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    const expected = [...authors].sort((a, b) => {
      if (a.order !== undefined || b.order !== undefined) {
        if (a.order === undefined) return 1;
        if (b.order === undefined) return -1;
        if (a.order !== b.order) return a.order - b.order;
      }
      return text(a.institution, b.institution) || text(a.origin.key, b.origin.key);
    });
    const journal = {} as JournalInput;
    const keysOf = (list: readonly AuthorRecord[]) => list.map((author) => author.origin.key);
    expect(keysOf(orderJournal(journal, { authors, volumes: [], manuscripts: [], invalid: [] }).authors)).toEqual(
      keysOf(expected),
    );
    const unordered = authors.map(({ order, ...author }) => author);
    expect(
      keysOf(orderJournal(journal, { authors: unordered, volumes: [], manuscripts: [], invalid: [] }).authors),
    ).toEqual(
      keysOf([...unordered].sort((a, b) => text(a.institution, b.institution) || text(a.origin.key, b.origin.key))),
    );
  });
});
