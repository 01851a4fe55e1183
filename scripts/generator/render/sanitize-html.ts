/**
 * The abstract on a landing page (docs/indexing.md, "The abstract"). Abstracts are rich text from
 * an HTML editor (SPEC-NOTES: `<p>`, `<em>` around Latin species names), and a page inserts them
 * as markup, so this is the one place that decides what markup survives: a strict allow-list.
 *
 * - Elements kept: p, em, i, strong, b, sup, sub, br, and a. Every attribute is dropped except
 *   `href` on `a`, kept only when it is an absolute http(s) URL (after character references are
 *   decoded, so `javascript&#58;` and `javascript&colon;` do not pass as something else).
 * - Everything else is escaped and shows as text: other tags, comments, a `<` that starts no
 *   complete tag (an unclosed `<img ... onerror=...` included), stray `>` and `&`. Nothing is
 *   dropped silently, so an editor sees what the page refused.
 * - The result is balanced: unclosed elements are closed at the end, a closing tag closes the
 *   elements opened inside it, a closing tag with nothing to close is dropped.
 *
 * It does not rely on the content validation (rich-text.ts) having run: the renderer must be safe
 * on its own, whatever a record holds.
 */
import { decodeNumeric, escapeHtml, REFERENCE_SOURCE } from '../model/html-references.ts';
import { ABSTRACT_ELEMENTS, TITLE_ELEMENTS, abstractLinkTarget, titleHasMarkup } from '../model/rich-text.ts';
import { bufferView } from '../../shared/movable-bytes.ts';

/** The content validation accepts exactly these (rich-text.ts): one list, so a page and the JSON agree. */
const ALLOWED = ABSTRACT_ELEMENTS;
const VOID = new Set(['br']);

/**
 * One complete tag at the current position: name, attributes (quoted or bare values), optional
 * `/`, then `>`. Sticky, so it only ever matches where the scanner stands. Attribute names may not
 * contain `<` (stricter than HTML, which allows it): a failed match then stops at the next `<`,
 * so a long run of unclosed tags costs linear time, not quadratic.
 */
const TAG =
  /<(\/?)([A-Za-z][A-Za-z0-9]*)((?:[\t\n\f\r ]+[^\t\n\f\r "'<>/=]+(?:[\t\n\f\r ]*=[\t\n\f\r ]*(?:"[^"]*"|'[^']*'|[^\t\n\f\r "'=<>`]+))?)*)[\t\n\f\r ]*\/?>/y;
const ATTRIBUTE = /([^\t\n\f\r "'<>/=]+)(?:[\t\n\f\r ]*=[\t\n\f\r ]*(?:"([^"]*)"|'([^']*)'|([^\t\n\f\r "'=<>`]+)))?/g;

/** The characters the scanner decides on; everything else is text copied as it is. */
const SPECIAL = /[<&>\0]/g;

/** A character reference at the scanner's position. */
const REFERENCE = new RegExp(REFERENCE_SOURCE, 'y');

interface OpenElement {
  name: string;
  /** False for an `a` whose href was refused: its tags are left out, its text stays. */
  emitted: boolean;
}

export function sanitizeAbstractHtml(input: string): string {
  return sanitize(input, ALLOWED);
}

/**
 * A title as a page shows it: with the elements a title may hold (rich-text.ts, TITLE_ELEMENTS),
 * sanitized as an abstract is. A title without markup is only escaped, as it always was.
 */
export function sanitizeTitleHtml(title: string): string {
  return titleHasMarkup(title) ? sanitize(title, TITLE_ELEMENTS) : escapeHtml(title);
}

function sanitize(input: string, allowed: ReadonlySet<string>): string {
  let out = '';
  const open: OpenElement[] = [];
  const closeThrough = (index: number) => {
    while (open.length > index) {
      const element = open.pop()!;
      if (element.emitted) out += `</${element.name}>`;
    }
  };
  const lastOpen = (name: string) => open.findLastIndex((e) => e.name === name);

  let i = 0;
  while (i < input.length) {
    const c = input[i]!;
    if (c === '<') {
      TAG.lastIndex = i;
      const tag = TAG.exec(input);
      const name = tag?.[2]?.toLowerCase();
      if (!tag || !name || !allowed.has(name)) {
        out += '&lt;';
        i++;
        continue;
      }
      i += tag[0].length;
      if (tag[1]) {
        // A closing tag: closes the element and anything opened inside it; otherwise it has nothing to close.
        const index = VOID.has(name) ? -1 : lastOpen(name);
        if (index >= 0) closeThrough(index);
        continue;
      }
      if (VOID.has(name)) {
        out += `<${name}>`;
        continue;
      }
      // As the HTML parser does: a new paragraph ends the open one, and links do not nest.
      if (name === 'p' || name === 'a') {
        const index = lastOpen(name);
        if (index >= 0) closeThrough(index);
      }
      if (name === 'a') {
        const href = safeHref(tag[3] ?? '');
        open.push({ name, emitted: href !== undefined });
        if (href !== undefined) out += `<a href="${escapeHtml(href)}">`;
        continue;
      }
      open.push({ name, emitted: true });
      out += `<${name}>`;
      continue;
    }
    if (c === '&') {
      REFERENCE.lastIndex = i;
      const reference = REFERENCE.exec(input);
      if (reference) {
        out += normalizeReference(reference[0]);
        i = REFERENCE.lastIndex;
      } else {
        out += '&amp;';
        i++;
      }
      continue;
    }
    if (c === '>') {
      out += '&gt;';
      i++;
    } else if (c === '\0') {
      out += '\ufffd';
      i++;
    } else {
      // A run of text up to the next character that needs a decision, copied whole: an abstract
      // is mostly text, and a character at a time cost 1 s of a cold build at 100,000 pages.
      SPECIAL.lastIndex = i;
      const next = SPECIAL.exec(input)?.index ?? input.length;
      out += input.slice(i, next);
      i = next;
    }
  }
  closeThrough(0);
  return out;
}

/**
 * A reference in text can only ever produce text, so named ones are kept as written (the browser
 * knows more names than this module). Numeric ones are checked: a code point the parser would
 * refuse (NUL, surrogates, out of range, C0/C1 controls) becomes U+FFFD.
 */
function normalizeReference(reference: string): string {
  if (reference[1] !== '#') return reference;
  const point = decodeNumeric(reference.slice(2, -1));
  return point === undefined ? '\ufffd' : escapeHtml(String.fromCodePoint(point));
}

/** The first `href` (the one a browser uses), decoded, when it is an absolute http(s) URL. */
function safeHref(attributes: string): string | undefined {
  for (const attribute of attributes.matchAll(ATTRIBUTE)) {
    if (attribute[1]!.toLowerCase() !== 'href') continue;
    return abstractLinkTarget(attribute[2] ?? attribute[3] ?? attribute[4] ?? '');
  }
  return undefined;
}

/**
 * The elements the clean-bytes check accepts (the allowed ones that never carry an attribute), by a
 * number made of their lower-case letters (nameCode): a tag's name is never made into a string.
 */
const nameCode = (bytes: ArrayLike<number>, start: number, end: number) => {
  let code = 0;
  for (let k = start; k < end; k++) code = code * 32 + (bytes[k]! - 0x60);
  return code;
};
const codeOf = (name: string) => nameCode(Buffer.from(name), 0, name.length);
const PLAIN_ELEMENTS = new Set([...ALLOWED].filter((name) => name !== 'a').map(codeOf));
const [P, BR] = [codeOf('p'), codeOf('br')];
/** Longer names are no element the check accepts (`strong` is the longest). */
const LONGEST_NAME = 6;
const [LT, GT, AMP, SLASH, BACKSLASH, QUOTE] = ['<', '>', '&', '/', '\\', '"'].map((c) => c.charCodeAt(0)) as [
  number,
  number,
  number,
  number,
  number,
  number,
];

/**
 * The sanitized abstract straight from the abstract's UTF-8 JSON (a JSON string), when
 * sanitizeAbstractHtml would return the abstract unchanged and the JSON escapes nothing: the bytes
 * between the quotes. Undefined otherwise: the caller then decodes and sanitizes.
 *
 * Nearly every abstract is plain markup (`<p>`, `<em>`, `<sub>`), and decoding, sanitizing
 * and encoding it again took 13 µs of the 20 µs a landing page's abstract costs. The check is
 * deliberately narrow, so that it can only accept what the sanitizer keeps as it is: no `\` (a JSON
 * escape), no `&` (a reference, which the sanitizer may rewrite), no `>` or NUL outside a tag, and
 * tags that are only the allowed elements without attributes, lower-case, never `a`, properly
 * nested, none closing a void element, no paragraph inside another, and nothing left open.
 * test/pages-sanitize.test.ts holds it to the sanitizer on every case there and on random markup.
 */
export function cleanAbstractBytes(source: Uint8Array): Uint8Array | undefined {
  // Searched with Buffer's indexOf (memchr) rather than byte by byte in a loop, or with a typed
  // array's own: 1.9 against 3.5 µs for a synthetic abstract. NUL and every control character are JSON escapes.
  const json = bufferView(source);
  const end = json.length - 1;
  if (end < 1 || json[0] !== QUOTE || json[end] !== QUOTE) return undefined;
  if (json.indexOf(BACKSLASH) >= 0 || json.indexOf(AMP) >= 0) return undefined;
  const open: number[] = [];
  let tags = 0;
  for (let i = json.indexOf(LT); i >= 0; i = json.indexOf(LT, i)) {
    const closing = json[i + 1] === SLASH;
    const start = closing ? i + 2 : i + 1;
    let j = start;
    while (j < end && json[j]! >= 0x61 && json[j]! <= 0x7a) j++;
    if (j === start || j - start > LONGEST_NAME || json[j] !== GT) return undefined;
    const name = nameCode(json, start, j);
    if (!PLAIN_ELEMENTS.has(name)) return undefined;
    if (closing) {
      if (name === BR || open.pop() !== name) return undefined;
    } else if (name !== BR) {
      if (name === P && open.includes(P)) return undefined;
      open.push(name);
    }
    tags++;
    i = j;
  }
  if (open.length > 0) return undefined;
  // Each tag taken ends with the one `>` it has: any other is a `>` in text, which the sanitizer escapes.
  for (let i = json.indexOf(GT); i >= 0; i = json.indexOf(GT, i + 1)) tags--;
  return tags === 0 ? json.subarray(1, end) : undefined;
}
