/**
 * HTML character references, read the one way both the content validation (rich-text.ts) and the
 * landing pages (sanitize-html.ts) need: so that what one judges safe, the other reads the same.
 */

/** A reference as the HTML parser reads one (with its semicolon): numeric, or a name. */
export const REFERENCE_SOURCE = '&(?:#[0-9]{1,8}|#[xX][0-9A-Fa-f]{1,7}|[A-Za-z][A-Za-z0-9]{0,31});';

/** Named references this project decodes; any other name stays literal (and, escaped, inert). */
const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  colon: ':',
  sol: '/',
  period: '.',
  comma: ',',
  quest: '?',
  num: '#',
  equals: '=',
  percnt: '%',
  lpar: '(',
  rpar: ')',
  semi: ';',
  excl: '!',
  Tab: '\t',
  NewLine: '\n',
};

/**
 * The code point of a numeric reference's digits (`#x3a` → `3a` with its `x`, or `58`), or
 * undefined for one the parser refuses: NUL, surrogates, beyond U+10FFFF, C0/C1 controls other
 * than tab, line feed, form feed and carriage return.
 */
export function decodeNumeric(digits: string): number | undefined {
  const point = digits[0] === 'x' || digits[0] === 'X' ? parseInt(digits.slice(1), 16) : parseInt(digits, 10);
  const allowedWhitespace = point === 0x09 || point === 0x0a || point === 0x0c || point === 0x0d;
  if (!Number.isFinite(point) || point > 0x10ffff || (point >= 0xd800 && point <= 0xdfff)) return undefined;
  if (!allowedWhitespace && (point < 0x20 || (point >= 0x7f && point <= 0x9f))) return undefined;
  return point;
}

/**
 * Decodes every reference in one pass (so `&#38;lt;` gives `&lt;`, never `<`). A numeric reference
 * the parser refuses becomes `invalid`: U+FFFD as a browser shows it, or NUL where a caller wants
 * the whole value refused.
 */
export function decodeReferences(value: string, invalid = '\ufffd'): string {
  return value.replace(new RegExp(REFERENCE_SOURCE, 'g'), (whole) => {
    if (whole[1] === '#') {
      const point = decodeNumeric(whole.slice(2, -1));
      return point === undefined ? invalid : String.fromCodePoint(point);
    }
    return NAMED[whole.slice(1, -1)] ?? whole;
  });
}

/** Text and double- or single-quoted attribute values: the five characters that can end either. */
export function escapeHtml(value: string): string {
  // Tested first: most values (names, titles, dates) have none, and a replace that finds none
  // still costs twice the test (40 values a page, 100,000 pages).
  return HTML_SPECIAL.test(value)
    ? value.replace(HTML_SPECIALS, (c) =>
        c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&#39;',
      )
    : value;
}

const HTML_SPECIALS = /[&<>"']/g;
/** The same characters, for a test (a global pattern's test would move its lastIndex). */
const HTML_SPECIAL = new RegExp(HTML_SPECIALS.source);
