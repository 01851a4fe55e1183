/**
 * The one-line scalars of the plain YAML reader (plain-yaml.ts): plain, single- and double-quoted,
 * read exactly as the yaml package reads them, or NotPlain for anything past that subset.
 */

/** Thrown where the text leaves the subset: the caller lets the yaml package read the file. */
export class NotPlain extends Error {}

const SPACE = 0x20;
const HASH = 0x23;
const COLON = 0x3a;
const DASH = 0x2d;

/** A one-line plain scalar from `at` to `end` (its line's end), a trailing ` #` comment left out. */
export function plainScalar(text: string, at: number, end: number): string {
  const first = text.charCodeAt(at);
  // YAML indicators cannot start a plain scalar; `-x` can, but `- x` here is a nested sequence.
  if ('-?:,[]{}#&*!|>\'"%@`'.includes(text[at]!)) {
    if (first !== DASH || at + 1 === end || text.charCodeAt(at + 1) === SPACE) throw new NotPlain();
  }
  let stop = end;
  for (let i = at + 1; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === COLON && (i + 1 === end || text.charCodeAt(i + 1) === SPACE)) throw new NotPlain(); // `a: b: c`
    if (c === HASH && text.charCodeAt(i - 1) === SPACE) {
      stop = i;
      break;
    }
  }
  while (stop > at && text.charCodeAt(stop - 1) === SPACE) stop--;
  return text.slice(at, stop);
}

/** A one-line single-quoted scalar opening at `at`. */
export function singleQuotedScalar(text: string, at: number, end: number): string {
  let value = '';
  let from = at + 1;
  for (;;) {
    const quote = text.indexOf("'", from);
    if (quote === -1 || quote >= end) throw new NotPlain(); // runs onto another line
    value += text.slice(from, quote);
    if (text.charCodeAt(quote + 1) === 0x27 && quote + 1 < end) {
      value += "'";
      from = quote + 2;
      continue;
    }
    restOfQuotedLine(text, quote + 1, end);
    return value;
  }
}

/** A one-line double-quoted scalar opening at `at`; escapes past the plain subset are left to the yaml package. */
export function doubleQuotedScalar(text: string, at: number, end: number): string {
  let value = '';
  let from = at + 1;
  for (let i = from; ; i++) {
    if (i >= end) throw new NotPlain(); // runs onto another line
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      value += text.slice(from, i);
      restOfQuotedLine(text, i + 1, end);
      return value;
    }
    if (c !== 0x5c) continue;
    value += text.slice(from, i);
    const escape = text[i + 1];
    if (i + 1 >= end || escape === undefined) throw new NotPlain();
    const simple = ESCAPES.get(escape);
    if (simple !== undefined) {
      value += simple;
      i += 1;
    } else {
      const digits = escape === 'x' ? 2 : escape === 'u' ? 4 : 0; // `\U` is left to the yaml package
      const hex = text.slice(i + 2, i + 2 + digits);
      if (digits === 0 || i + 2 + digits > end || !/^[0-9a-fA-F]+$/.test(hex)) throw new NotPlain();
      const code = parseInt(hex, 16);
      if (code >= 0xd800 && code <= 0xdfff) throw new NotPlain(); // surrogate halves
      value += String.fromCharCode(code);
      i += 1 + digits;
    }
    from = i + 1;
  }
}

/** After a quoted scalar: only spaces, then maybe a ` #` comment. */
export function restOfQuotedLine(text: string, at: number, end: number): void {
  let i = at;
  while (i < end && text.charCodeAt(i) === SPACE) i++;
  if (i === end) return;
  if (text.charCodeAt(i) === HASH && i > at) return;
  throw new NotPlain();
}

/** YAML 1.2 double-quoted escapes with a fixed meaning (section 5.7). */
const ESCAPES: ReadonlyMap<string, string> = new Map([
  ['0', '\0'],
  ['a', '\x07'],
  ['b', '\b'],
  ['t', '\t'],
  ['n', '\n'],
  ['v', '\v'],
  ['f', '\f'],
  ['r', '\r'],
  ['e', '\x1b'],
  [' ', ' '],
  ['"', '"'],
  ['/', '/'],
  ['\\', '\\'],
  ['N', '\x85'],
  ['_', '\xa0'],
  ['L', '\u2028'],
  ['P', '\u2029'],
]);
