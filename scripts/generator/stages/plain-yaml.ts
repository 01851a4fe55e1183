/**
 * A fast, exact reader for the plain YAML that record files are written in: the yaml package's
 * CST parser and composer take about ten times as long over them (docs/performance.md).
 *
 * It understands only a subset: block mappings with plain keys, one-line plain and quoted
 * scalars, literal (`|`, `|-`) and simply folded (`>`, `>-`) block scalars, block sequences of
 * one-line scalars or of compact mappings (`- as_published: Ana # why`), comment and blank lines.
 * Anything else, including every syntax error and every duplicate key, returns `undefined`, and
 * the caller lets the yaml package decide. When it does return, the data and every position are
 * what `parseDocument(text, { schema: 'failsafe', ... }).toJS()` and the document's node ranges
 * give (test/plain-yaml.test.ts checks both on real files, tricky cases and a seeded fuzz).
 */
import type { Position } from '../model/records.ts';
import {
  doubleQuotedScalar,
  NotPlain,
  plainScalar,
  restOfQuotedLine,
  singleQuotedScalar,
} from './plain-yaml-scalars.ts';

export type { Position };

export interface PlainYaml {
  data: Record<string, unknown>;
  locate(path: readonly PropertyKey[]): Position;
  locateKey(path: readonly PropertyKey[], key: string): Position;
}

/** Where a node starts, and where its children are (as the yaml package's node ranges give them). */
interface Located {
  line: number;
  column: number;
  entries?: Map<string, { key: Position; value: Located }>;
  items?: Located[];
}

// NotPlain is thrown inside the reader to leave the subset; it never escapes `parsePlainYaml`.

/**
 * Characters the subset never reads: `\r` (line breaks differ), C0/C1 controls other than tab and
 * NEL, BOM and non-characters. (Not a `u` regex: that costs twice as much.)
 */
const OUTSIDE_SUBSET = /[\0-\x08\x0b-\x1f\x7f-\x84\x86-\x9f\ufeff\ufffe\uffff]/;

/**
 * The same, or any surrogate: one scan of the text for nearly every file, and a closer look at the
 * few with characters outside the BMP (a lone surrogate, which the yaml package path refuses, never
 * comes from parse.ts's strict decoding, but a caller's text may hold one).
 */
const OUTSIDE_SUBSET_OR_SURROGATE = /[\0-\x08\x0b-\x1f\x7f-\x84\x86-\x9f\ud800-\udfff\ufeff\ufffe\uffff]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Characters read only inside a literal block's text, where YAML keeps them as they are (pasted
 * abstracts hold tabs and Unicode line separators): tabs are YAML white space elsewhere, and NEL
 * and U+2028/U+2029 were line breaks in YAML 1.1.
 */
const BLOCK_TEXT_ONLY = /[\t\x85\u2028\u2029]/;

/**
 * How deep lists and mappings may nest in a content file. The content model's deepest is 3 (a
 * manuscript's mapping, its `authors` list, an author's mapping); a few levels more still reach the
 * schema, whose message about a wrongly shaped value is the clearer one. Thousands of levels
 * overflow the stack of any recursive reader (parse.ts refuses them first).
 */
export const MAX_NESTING = 8;

/** Implicit keys longer than this are a YAML error (1024 characters); stay well below it. */
const MAX_KEY_LENGTH = 1000;

const SPACE = 0x20;
const HASH = 0x23;
const COLON = 0x3a;
const DASH = 0x2d;

/** The record as data with its positions, or `undefined` when the text is outside the subset. */
export function parsePlainYaml(text: string): PlainYaml | undefined {
  if (OUTSIDE_SUBSET_OR_SURROGATE.test(text) && (OUTSIDE_SUBSET.test(text) || LONE_SURROGATE.test(text)))
    return undefined;
  let root: { data: Record<string, unknown>; node: Located };
  try {
    root = new Reader(text).document();
  } catch (error) {
    if (error instanceof NotPlain) return undefined;
    throw error;
  }
  const nodeAt = (path: readonly PropertyKey[]): Located => {
    // Mirrors parse.ts's walk over yaml nodes: the deepest node that exists along `path`.
    let node = root.node;
    for (const step of path) {
      let next: Located | undefined;
      if (node.entries) next = node.entries.get(String(step))?.value;
      else if (node.items && typeof step === 'number')
        next = Number.isInteger(step) && step >= 0 ? node.items[step] : undefined;
      if (!next) break;
      node = next;
    }
    return node;
  };
  return {
    data: root.data,
    locate: (path) => {
      const node = nodeAt(path);
      return { line: node.line, column: node.column };
    },
    locateKey: (path, key) => {
      const node = nodeAt(path);
      const entry = node.entries?.get(key);
      return entry ? { ...entry.key } : { line: node.line, column: node.column };
    },
  };
}

class Reader {
  private readonly text: string;
  /** Offsets of each line's first character and of its end (the `\n` or the end of text). */
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  /** Whether any BLOCK_TEXT_ONLY character is in the text (rare: lines are checked only then). */
  private readonly blockTextOnly: boolean;
  /** How many lists and mappings enclose the one being read: past MAX_NESTING, the yaml package path reports it. */
  private depth = 0;

  constructor(text: string) {
    this.text = text;
    this.blockTextOnly = BLOCK_TEXT_ONLY.test(text);
    let start = 0;
    for (;;) {
      const end = text.indexOf('\n', start);
      this.starts.push(start);
      this.ends.push(end === -1 ? text.length : end);
      if (end === -1) break;
      start = end + 1;
    }
  }

  document(): { data: Record<string, unknown>; node: Located } {
    const first = this.nextContent(0);
    // An empty document, a top-level scalar or list, or an indented top-level mapping: not here.
    if (first === this.starts.length || this.indent(first) !== 0) throw new NotPlain();
    const map = this.mapping(first, 0);
    if (map.next !== this.starts.length) throw new NotPlain();
    return { data: map.data, node: map.node };
  }

  /** A block mapping whose keys sit at column `indent`; the first key is on line `line`. */
  private mapping(line: number, indent: number): { data: Record<string, unknown>; node: Located; next: number } {
    if (++this.depth > MAX_NESTING) throw new NotPlain();
    const data: Record<string, unknown> = {};
    const entries = new Map<string, { key: Position; value: Located }>();
    const node: Located = { line: line + 1, column: indent + 1, entries };
    let at = line;
    for (;;) {
      const start = this.starts[at]!;
      const end = this.ends[at]!;
      this.outsideBlockText(at);
      const keyEnd = this.keyEnd(start + indent, end);
      if (keyEnd === -1) throw new NotPlain();
      const key = this.text.slice(start + indent, keyEnd);
      // Duplicates are a YAML error here (uniqueKeys); `__proto__` would need yaml's special case.
      if (entries.has(key) || key === '__proto__') throw new NotPlain();
      const value = this.value(at, keyEnd + 1 - start, indent, 'mapping');
      data[key] = value.data;
      entries.set(key, { key: { line: at + 1, column: indent + 1 }, value: value.node });
      at = this.nextContent(value.next);
      if (!this.continues(at, indent)) break;
    }
    this.depth--;
    return { data, node, next: at };
  }

  /** A block sequence whose `-` indicators sit at column `indent`. */
  private sequence(line: number, indent: number): { data: unknown[]; node: Located; next: number } {
    if (++this.depth > MAX_NESTING) throw new NotPlain();
    const data: unknown[] = [];
    const items: Located[] = [];
    const node: Located = { line: line + 1, column: indent + 1, items };
    let at = line;
    for (;;) {
      const start = this.starts[at]!;
      const end = this.ends[at]!;
      if (!this.isSequenceEntry(start + indent, end)) break;
      this.outsideBlockText(at);
      let column = indent + 1;
      while (start + column < end && this.text.charCodeAt(start + column) === SPACE) column++;
      let item: { data: unknown; node: Located; next: number };
      if (this.keyEnd(start + column, end) !== -1) {
        // A compact mapping (`- as_published: Ana`): its keys align with the first one.
        item = this.mapping(at, column);
      } else {
        item = this.value(at, column, indent, 'sequence');
      }
      data.push(item.data);
      items.push(item.node);
      at = this.nextContent(item.next);
      if (!this.continues(at, indent)) break;
    }
    this.depth--;
    return { data, node, next: at };
  }

  /** Whether the collection whose entries sit at column `indent` goes on at line `at`. */
  private continues(at: number, indent: number): boolean {
    if (at === this.starts.length) return false;
    const next = this.indent(at);
    // A more-indented line continues a plain scalar or is an error: the yaml package decides.
    if (next > indent) throw new NotPlain();
    return next === indent;
  }

  /**
   * The value that starts at `column` of `line` (just after a key's colon, or after a `- `), inside
   * a collection whose entries sit at column `indent`.
   */
  private value(
    line: number,
    column: number,
    indent: number,
    within: 'mapping' | 'sequence',
  ): { data: unknown; node: Located; next: number } {
    const text = this.text;
    const start = this.starts[line]!;
    const end = this.ends[line]!;
    let at = start + column;
    while (at < end && text.charCodeAt(at) === SPACE) at++;
    const node: Located = { line: line + 1, column: at - start + 1 };
    if (at === end || (text.charCodeAt(at) === HASH && at > start + column)) {
      if (within === 'sequence') throw new NotPlain(); // `-` alone, or its item on later lines
      return this.nested(line + 1, indent);
    }
    const first = text[at]!;
    if (first === "'") return { data: singleQuotedScalar(this.text, at, end), node, next: line + 1 };
    if (first === '"') return { data: doubleQuotedScalar(this.text, at, end), node, next: line + 1 };
    if (first === '|' || first === '>') {
      if (within === 'sequence') throw new NotPlain();
      const block = this.blockScalar(line, at, end, indent);
      return { data: block.data, node, next: block.next };
    }
    return { data: plainScalar(this.text, at, end), node, next: line + 1 };
  }

  /** A mapping value written on the following lines: a block sequence or mapping. */
  private nested(line: number, indent: number): { data: unknown; node: Located; next: number } {
    const at = this.nextContent(line);
    if (at === this.starts.length) throw new NotPlain(); // an empty value: not in the subset
    const column = this.indent(at);
    const start = this.starts[at]!;
    const end = this.ends[at]!;
    // YAML lets a mapping's sequence value sit at the key's own indentation.
    if (column >= indent && this.isSequenceEntry(start + column, end)) return this.sequence(at, column);
    if (column > indent && this.keyEnd(start + column, end) !== -1) return this.mapping(at, column);
    throw new NotPlain();
  }

  /** True when a `- ` entry indicator starts at `at` (a `-` alone is an empty item: declined later). */
  private isSequenceEntry(at: number, end: number): boolean {
    return this.text.charCodeAt(at) === DASH && (at + 1 === end || this.text.charCodeAt(at + 1) === SPACE);
  }

  /**
   * The offset of the colon when a plain key starts at `at` (`key:` then a space or the line's end),
   * or -1. Keys are kept simple: letters, digits and `_` first, then also `-` and `.`.
   */
  private keyEnd(at: number, end: number): number {
    const text = this.text;
    const first = text.charCodeAt(at);
    if (!(isWord(first) || first >= 0xa0)) return -1;
    let i = at + 1;
    for (; i < end; i++) {
      const c = text.charCodeAt(i);
      if (isWord(c) || c === DASH || c === 0x2e || c >= 0xa0) continue;
      break;
    }
    if (i === end || text.charCodeAt(i) !== COLON) return -1;
    if (i + 1 < end && text.charCodeAt(i + 1) !== SPACE) return -1;
    if (i - at > MAX_KEY_LENGTH) return -1;
    return i;
  }

  /** A one-line plain scalar from `at`, ending at ` #` or the line's end, trailing spaces dropped. */

  /**
   * A literal or folded block scalar whose header (`|`, `|-`, `>`, `>-`) is at `at`, inside a
   * mapping whose keys sit at column `indent`. Keep chomping (`+`), indentation indicators,
   * lines of only spaces deeper than the content, and folded text with more-indented lines are
   * left to the yaml package.
   */
  private blockScalar(line: number, at: number, end: number, indent: number): { data: string; next: number } {
    const text = this.text;
    const folded = text[at] === '>';
    let i = at + 1;
    const strip = text.charCodeAt(i) === DASH;
    if (strip) i++;
    if (i < end && text.charCodeAt(i) !== SPACE) throw new NotPlain();
    restOfQuotedLine(this.text, i, end);

    const lines: string[] = [];
    let contentIndent = -1;
    let leadingBlank = 0;
    let trailingBlank = 0;
    let after = line + 1;
    for (; after < this.starts.length; after++) {
      const start = this.starts[after]!;
      const stop = this.ends[after]!;
      let spaces = 0;
      while (start + spaces < stop && text.charCodeAt(start + spaces) === SPACE) spaces++;
      const blank = start + spaces === stop;
      if (contentIndent === -1) {
        if (blank) {
          leadingBlank = Math.max(leadingBlank, spaces);
          lines.push('');
          continue;
        }
        if (spaces <= indent || leadingBlank > spaces) throw new NotPlain(); // empty, or a YAML error
        contentIndent = spaces;
      }
      if (blank) {
        if (spaces > contentIndent) throw new NotPlain();
        lines.push('');
        trailingBlank++;
        continue;
      }
      if (spaces < contentIndent) break;
      const content = text.slice(start + contentIndent, stop);
      if (folded && content.charCodeAt(0) === SPACE) throw new NotPlain();
      // Tabs and the like: only in literal text, and never leading (where they would be indentation).
      if (this.blockTextOnly && BLOCK_TEXT_ONLY.test(content) && (folded || BLOCK_TEXT_ONLY.test(content[0]!)))
        throw new NotPlain();
      lines.push(content);
      trailingBlank = 0;
    }
    if (contentIndent === -1) throw new NotPlain();
    lines.length -= trailingBlank;
    let value: string;
    if (folded) {
      if (lines[0] === '') throw new NotPlain(); // leading blank lines of folded text: not here
      value = lines[0]!;
      let blanks = 0;
      for (let k = 1; k < lines.length; k++) {
        const current = lines[k]!;
        if (current === '') {
          blanks++;
          continue;
        }
        value += blanks === 0 ? ' ' : '\n'.repeat(blanks);
        value += current;
        blanks = 0;
      }
    } else {
      value = lines.join('\n');
    }
    return { data: strip ? value : `${value}\n`, next: after };
  }

  /** The first line at or after `line` that is neither blank nor only a comment. */
  private nextContent(line: number): number {
    const text = this.text;
    for (let at = line; at < this.starts.length; at++) {
      let i = this.starts[at]!;
      const end = this.ends[at]!;
      while (i < end && text.charCodeAt(i) === SPACE) i++;
      if (i < end && text.charCodeAt(i) !== HASH) return at;
      this.outsideBlockText(at); // a comment line
    }
    return this.starts.length;
  }

  /** Lines outside a literal block's text must not hold BLOCK_TEXT_ONLY characters. */
  private outsideBlockText(line: number): void {
    if (this.blockTextOnly && BLOCK_TEXT_ONLY.test(this.text.slice(this.starts[line], this.ends[line])))
      throw new NotPlain();
  }

  private indent(line: number): number {
    const start = this.starts[line]!;
    let i = start;
    while (this.text.charCodeAt(i) === SPACE) i++;
    return i - start;
  }
}

/** ASCII letters, digits and `_`. */
function isWord(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
}
