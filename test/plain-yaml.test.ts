/**
 * The plain YAML reader against the yaml package: for every input it either declines
 * or gives the same data (key order included) and the same positions for every path, existing or
 * missing. Inputs: the sample journal, the fixtures, a synthetic journal, tricky cases, and a
 * seeded fuzz that mutates real files around YAML's indicators.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { Document, isMap, isScalar, isSeq } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSyntheticJournal } from '../scripts/bench/synthetic-journal.ts';
import { parseFile, parseWithYamlPackage, type Position } from '../scripts/generator/stages/parse.ts';
import { parsePlainYaml } from '../scripts/generator/stages/plain-yaml.ts';
import { seededRandom } from '../scripts/synthetic/seeded-random.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

async function yamlFiles(folder: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && /\.ya?ml$/.test(entry.name)) found.push(path.join(entry.parentPath, entry.name));
  }
  return found.sort();
}

/** Every path into `data`, plus missing ones next to them (a missing key, index, or step into a scalar). */
function probePaths(data: unknown, at: PropertyKey[] = [], out: PropertyKey[][] = []): PropertyKey[][] {
  out.push(at);
  if (Array.isArray(data)) {
    data.forEach((item, i) => probePaths(item, [...at, i], out));
    out.push([...at, data.length], [...at, -1], [...at, 0.5], [...at, '0']);
  } else if (data !== null && typeof data === 'object') {
    for (const [key, value] of Object.entries(data)) probePaths(value, [...at, key], out);
    out.push([...at, 'no-such-field'], [...at, 0], [...at, 'no-such-field', 'deeper']);
  } else {
    out.push([...at, 'inside-a-scalar'], [...at, 0]);
  }
  return out;
}

function keysOf(data: unknown): string[] {
  return data !== null && typeof data === 'object' && !Array.isArray(data) ? Object.keys(data) : [];
}

function valueAt(data: unknown, route: readonly PropertyKey[]): unknown {
  let value = data;
  for (const step of route)
    value = value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[step] : undefined;
  return value;
}

/** Same JSON text means same values and same key order (every scalar is a string or absent). */
function sameData(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(a, b) && JSON.stringify(a) === JSON.stringify(b);
}

type Verdict = 'declined' | 'taken';

/** Throws (through expect) when the plain reader answers differently from the yaml package. */
function checkAgainstYaml(text: string, label: string): Verdict {
  const plain = parsePlainYaml(text);
  if (!plain) return 'declined';
  const reference = parseWithYamlPackage('record.yaml', text);
  expect(reference.problems, `${label}: taken, but the yaml package reports problems\n${text}`).toEqual([]);
  const parsed = reference.parsed!;
  expect(sameData(plain.data, parsed.data), `${label}: data differs\n${text}`).toBe(true);
  for (const route of probePaths(parsed.data)) {
    const where = `${label}: ${JSON.stringify(route.map(String))}\n${text}`;
    expect(plain.locate(route), `locate ${where}`).toEqual(parsed.locate(route));
    const parent = valueAt(parsed.data, route);
    for (const key of [...keysOf(parent), 'no-such-field']) {
      expect(plain.locateKey(route, key), `locateKey ${key} ${where}`).toEqual(parsed.locateKey(route, key));
    }
  }
  return 'taken';
}

const TRICKY: readonly string[] = [
  // plain scalars and comments
  'key: a # c\n',
  'key: a#c\n',
  'key: a  \n',
  'key: a #\n',
  'key: a: b\n',
  'key: a:b\n',
  'key: a :b\n',
  'key: a:\n',
  'key: -x\n',
  'key: - x\n',
  'key: -\n',
  'key: --- x\n',
  'key: ?x\n',
  'key: :x\n',
  'key: ? x\n',
  'key: x?\n',
  'key: [a]\n',
  'key: {a: b}\n',
  'key: a, b, c.\n',
  'key: a [b] {c}\n',
  'key: &a x\n',
  'key: *a\n',
  'key: !tag x\n',
  'key: !!str x\n',
  'key: %x\n',
  'key: @x\n',
  'key: `x\n',
  'key: x\'y"z\n',
  'key: 2024-01-02\n',
  'key: 007\n',
  'key: 1.10\n',
  'key: null\n',
  'key: ~\n',
  'key: true\n',
  'key: .inf\n',
  'key: 0x1F\n',
  'key:x\n',
  'key :x\n',
  'key : x\n',
  'key:\n',
  'key:   \n',
  'key: # c\n',
  'key: a\n  b\n',
  'key: a\n\n  b\n',
  'key: a\n  # c\nnext: b\n',
  'key: a\n# c\n  b\n',
  'key: a\n b: c\n',
  // quoted scalars
  "key: 'it''s'\n",
  "key: ''\n",
  "key: ''''\n",
  "key: 'a' # c\n",
  "key: 'a'#c\n",
  "key: 'a' b\n",
  "key: 'a\n  b'\n",
  "key: 'a\\n'\n",
  'key: "a\\"b"\n',
  'key: ""\n',
  'key: "a\\\\b"\n',
  'key: "\\x41\\u00e9\\t\\n\\0\\e\\/\\ \\N\\_\\L\\P"\n',
  'key: "\\ud83d\\ude00"\n',
  'key: "\\U0001F600"\n',
  'key: "\\q"\n',
  'key: "\\x4"\n',
  'key: "\\u00zz"\n',
  'key: "a\n  b"\n',
  'key: "a\\\n  b"\n',
  'key: "a" # c\n',
  'key: "a"#c\n',
  'key: "a": b\n',
  'key: "a" b\n',
  'key: "# not a comment"\n',
  "key: '# not a comment'\n",
  'key: "a: b"\n',
  // literal and folded blocks
  'key: |\n  a\n  b\n',
  'key: |-\n  a\n  b\n',
  'key: |+\n  a\n\n',
  'key: |2\n   a\n',
  'key: |-2\n  a\n',
  'key: | # c\n  a\n',
  'key: |#c\n  a\n',
  'key: | x\n  a\n',
  'key: |\n  a\n\n  b\n\n\nnext: c\n',
  'key: |\n\n  a\n',
  'key: |\n    \n  a\n',
  'key: |\n  a\n    more\n  b\n',
  'key: |\n  a\n      \n  b\n',
  'key: |\n  a\n  \n  b\n',
  'key: |\n  a\n \n  b\n',
  'key: |\n  # inside\n  a\n',
  'key: |\n  a\n # trailing\nnext: b\n',
  'key: |\n  a\n# trailing\nnext: b\n',
  'key: |\n    a\n  b\n',
  'key: |\n  a',
  'key: |-\n  a',
  'key: |\nnext: b\n',
  'key: |\n',
  'key: |-\n\n',
  'key: |\n  a\n  b',
  'key: |-\n  a\n\n\n',
  'key: >\n  a\n  b\n\n  c\n',
  'key: >-\n  a\n  b\n\n\n  c\n',
  'key: >\n  a\n    more\n  b\n',
  'key: >\n\n  a\n',
  'key: >-\n  a  \n  b\n',
  'key: >2\n   a\n',
  'key: >+\n  a\n',
  'key: |-\n  a\tb\n  c\u2028d\u2029e\u0085f\n',
  'key: |\n  a\t\n',
  'key: |-\n  \ta\n',
  'key: |-\n  a\n  \t\n',
  'key: |-\n  a\n \t\nnext: b\n',
  'key: |-\n  a\n\t\n',
  'key: |-\n\ta\n',
  'key: >-\n  a\tb\n',
  'key: |-\n  \u2028a\n',
  'key: |-\n  a\n  # \t\n',
  'key: |-\n  a\n# \t\n',
  'key: a\tb\n',
  'key: a\t# c\n',
  'key: a # \t\n',
  'key: "a\tb"\n',
  'key:\t|\n  a\n',
  'key: |\t\n  a\n',
  '\tkey: a\n',
  'key:\n\t- a\n',
  // sequences
  'key:\n  - a\n  - b\n',
  'key:\n- a\n- b\nnext: c\n',
  'key:\n  - a\n  -  b # c\n',
  'key:\n  -\n  - b\n',
  'key:\n  - - x\n',
  'key:\n  - a\n   - b\n',
  'key:\n  - a\n - b\n',
  'key:\n  - a\n\n  # c\n  - b\n',
  'key:\n  - "a"\n  - \'b\'\n',
  'key:\n  - -x\n',
  'key:\n  - |\n    a\n',
  'key:\n  - a: b\n    c: d\n  - e: f # c\n',
  'key:\n  - a: b\n     c: d\n',
  'key:\n  - a:\n    - x\n',
  'key:\n  - a:\n      b: c\n',
  'key:\n  - a: |\n      x\n',
  'key:\n  - a: |\n    x\n',
  'key:\n  - a: b\n  - a: b\n    a: c\n',
  'key:\n  - a b: c\n',
  'key:\n  - #c\n',
  'key:\n  -x\n',
  'key: # c\n  - a\n',
  'key:\n  # c\n  - a\n',
  'key:\n  - a\nkey2:\n  - b\n',
  // nested mappings
  'key:\n  sub: a\n  other: b\n',
  'key:\n  sub:\n    deeper: a\nnext: b\n',
  'key:\n    sub: a\n  other: b\n',
  'key:\n  sub: a\n    other: b\n',
  // documents, keys, whitespace, characters
  'a: b\nc: d',
  'a: b\n\n\n',
  '\n\n# c\na: b\n',
  '  a: b\n',
  'a: b\na: c\n',
  'a: b\n---\nc: d\n',
  '---\na: b\n',
  'a: b\n...\n',
  '%YAML 1.2\n---\na: b\n',
  '\uFEFFa: b\n',
  'a: b\r\nc: d\r\n',
  'a:\tb\n',
  'a: b\t\n',
  '\ta: b\n',
  'a: b\u0085c\n',
  'a: b\u2028c\n',
  'ключ: вредност\n',
  '名前: 値\n',
  'a.b-c_d: x\n',
  '1: x\n2: y\n10: z\n',
  '2: y\n1: x\n',
  '__proto__: x\n',
  'constructor: x\n',
  '? a\n: b\n',
  'a b: c\n',
  '"a": b\n',
  "'a': b\n",
  '-a: b\n',
  '.a: b\n',
  'a: b\n- c\n',
  '- a\n- b\n',
  'just text\n',
  '- - x\n',
  '-\n',
  'a: \ud800x\n',
  'a: "\ud800"\n',
  'a\udc00: x\n',
  '',
  '# only a comment\n',
  'a\n',
  'a: b # c\n# end',
  `${'k'.repeat(1100)}: x\n`,
  'a: b\n  \nc: d\n',
  'a: b\n \n c: d\n',
];

describe('plain YAML reader', () => {
  let syntheticRoot: string;
  const realFiles = new Map<string, string>();

  beforeAll(async () => {
    for (const folder of ['content', 'test/fixtures']) {
      for (const file of await yamlFiles(path.join(ROOT, folder)))
        realFiles.set(path.relative(ROOT, file), await readFile(file, 'utf8'));
    }
    syntheticRoot = await mkdtemp(path.join(tmpdir(), 'plain-yaml-'));
    const journal = await generateSyntheticJournal(syntheticRoot, { manuscripts: 300 });
    for (const file of await yamlFiles(journal.content))
      realFiles.set(`synthetic/${path.relative(journal.content, file)}`, await readFile(file, 'utf8'));
  }, 60_000);
  afterAll(async () => {
    if (syntheticRoot) await rm(syntheticRoot, { recursive: true, force: true });
  });

  it('reads the real record files exactly as the yaml package does, and takes most of them', () => {
    const verdicts = { declined: [] as string[], taken: [] as string[] };
    for (const [file, text] of realFiles) verdicts[checkAgainstYaml(text, file)].push(file);
    // Every synthetic and sample record is plain; of the fixtures, the defect trees need not be.
    expect(verdicts.taken.filter((file) => file.startsWith('synthetic/')).length).toBeGreaterThan(750);
    expect(verdicts.declined.filter((file) => file.startsWith('synthetic/') || file.startsWith('content/'))).toEqual(
      [],
    );
    expect(verdicts.taken.length).toBeGreaterThan(realFiles.size * 0.9);
  });

  it('agrees with the yaml package on tricky cases, and takes the plain ones', () => {
    const taken = TRICKY.filter((text) => checkAgainstYaml(text, JSON.stringify(text)) === 'taken');
    for (const text of [
      'key: |-\n  a\tb\n  c\u2028d\u2029e\u0085f\n',
      'key: a # c\n',
      "key: 'it''s'\n",
      'key: "a\\"b"\n',
      'key: |\n  a\n\n  b\n\n\nnext: c\n',
      'key:\n- a\n- b\nnext: c\n',
      'key:\n  - a: b\n    c: d\n  - e: f # c\n',
      'ключ: вредност\n',
      'a: b\nc: d',
    ]) {
      expect(taken, JSON.stringify(text)).toContain(text);
    }
  });

  it('declines what it cannot read exactly', () => {
    for (const text of [
      'key: a: b\n',
      'key: - x\n',
      'a: b\na: c\n',
      'key:\n',
      'key: |+\n  a\n',
      'key: &a x\n',
      'a: b\r\n',
      '- a\n',
      'a: b\n---\nc: d\n',
      'key: a\n  b\n',
    ]) {
      expect(parsePlainYaml(text), JSON.stringify(text)).toBeUndefined();
    }
  });

  it('declines or agrees on thousands of seeded mutations of real files', () => {
    const random = seededRandom(4);
    const sources = [...realFiles.values()];
    const pieces = [
      ' ',
      ' ',
      '  ',
      '\n',
      '\n  ',
      ':',
      ': ',
      '-',
      '- ',
      '#',
      ' #',
      "'",
      '"',
      '|',
      '|-',
      '>',
      '\\',
      '[',
      ']',
      '{',
      '}',
      ',',
      '?',
      '&',
      '*',
      '!',
      '%',
      '@',
      '`',
      '\t',
      '\u2028',
      '\r',
      'x',
      '\uFEFF',
      '---',
      '\n- ',
      '\nkey: ',
    ];
    const counts = { declined: 0, taken: 0 };
    for (let round = 0; round < 8000; round++) {
      let text = sources[Math.floor(random() * sources.length)]!;
      if (text.length > 1500) text = text.slice(0, 1500) + text.slice(text.lastIndexOf('\n', text.length - 2)); // short abstracts: faster rounds
      for (let edits = 1 + Math.floor(random() * 3); edits > 0; edits--) {
        // Half the edits land at a line start or next to a colon, where YAML's structure is decided.
        let at = Math.floor(random() * (text.length + 1));
        if (random() < 0.5) {
          const anchors = [...text.matchAll(/\n|: /g)].map((match) => match.index + (match[0] === '\n' ? 1 : 0));
          at = anchors[Math.floor(random() * anchors.length)] ?? at;
        }
        const piece = pieces[Math.floor(random() * pieces.length)]!;
        const kind = random();
        if (kind < 0.4) text = text.slice(0, at) + piece + text.slice(at);
        else if (kind < 0.7) text = text.slice(0, at) + text.slice(at + 1 + Math.floor(random() * 3));
        else text = text.slice(0, at) + piece + text.slice(at + piece.length);
      }
      counts[checkAgainstYaml(text, `mutation ${round}`)]++;
    }
    // The fuzz means something only if many mutated files are still taken (and so compared).
    expect(counts.taken).toBeGreaterThan(2000);
    expect(counts.declined).toBeGreaterThan(2000);
  }, 120_000);

  it('declines or agrees on records written the way the import writes them', () => {
    // scripts/import/content-files.ts: the yaml package's own writer, no line folding, a comment
    // on some `as_published` authors. Its quoting and block styles are what imported files hold.
    const random = seededRandom(3);
    const pieces = [
      'Ana',
      ' ',
      ' ',
      'é',
      '𝔘',
      ':',
      ': ',
      '#',
      ' #',
      '-',
      '- ',
      "'",
      '"',
      '\\',
      '\n',
      '\n\n',
      '  ',
      '|',
      '>',
      '[',
      ']',
      '{',
      '}',
      ',',
      '&',
      '*',
      '!',
      '%',
      '@',
      '`',
      '?',
      'true',
      '0.5',
      '~',
      '<p>',
      '\t',
      '\u0085',
      '\u2028',
      '\u00a0',
    ];
    const text = () => {
      let value = '';
      for (let n = Math.floor(random() * 6); n > 0; n--) value += pieces[Math.floor(random() * pieces.length)];
      return value;
    };
    const counts = { declined: 0, taken: 0 };
    for (let round = 0; round < 3000; round++) {
      const authors = Array.from({ length: Math.floor(random() * 4) }, () =>
        random() < 0.4 ? { as_published: text() } : text(),
      );
      const data: Record<string, unknown> = {
        id: text(),
        citation_title: text(),
        abstract: text() + text(),
        keywords: random() < 0.5 ? text() : [text(), text()],
        authors,
      };
      if (random() < 0.3) data['nested'] = { inner: text(), list: [text()] };
      const document = new Document(data);
      const list = document.get('authors', true);
      if (isSeq(list)) {
        list.items.forEach((item) => {
          const value = isMap(item) ? item.get('as_published', true) : undefined;
          if (isScalar(value) && random() < 0.7) value.comment = ` ${text()}`;
        });
      }
      const written = document.toString({ lineWidth: 0, minContentWidth: 0 });
      counts[checkAgainstYaml(written, `written ${round}`)]++;
    }
    // Random strings often need styles outside the subset (`|+`, `|2-`, escapes); many still fit.
    expect(counts.taken).toBeGreaterThan(300);
  });

  it('gives parseFile the same result on both paths, BOM included', () => {
    for (const [file, text] of [...realFiles].slice(0, 50)) {
      const bytes = Buffer.from(`\uFEFF${text}`, 'utf8');
      const fast = parseFile(file, bytes);
      const slow = parseWithYamlPackage(file, text);
      expect(fast.problems).toEqual(slow.problems);
      expect(sameData(fast.parsed?.data, slow.parsed?.data)).toBe(true);
      const position: Position | undefined = fast.parsed?.locate([]);
      expect(position).toEqual(slow.parsed?.locate([]));
    }
  });
});
