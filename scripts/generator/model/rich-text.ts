/**
 * Abstracts are rich text (SPEC-NOTES: the original used an HTML editor, so `<p>` and `<em>` around
 * Latin species names are normal). The JSON publishes the markup as it is, so the build refuses
 * what could run in a reader's browser: script-like elements, event handler attributes, and
 * `javascript:`-style URLs. Everything else passes unchanged.
 *
 * Landing pages do not rely on this check alone: they render abstracts through the strict allow-list
 * in sanitize-html.ts. This check protects API clients that insert the abstract as HTML.
 */
import { decodeReferences } from './html-references.ts';

const FORBIDDEN_ELEMENTS = new Set([
  'script',
  'style',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'form',
  'input',
  'button',
  'textarea',
  'select',
  'option',
  'link',
  'meta',
  'base',
  'svg',
  'math',
  'template',
  'noscript',
  'img',
  'video',
  'audio',
  'source',
  'picture',
  'canvas',
  'dialog',
]);

const TAG = /<(\/?)([A-Za-z][A-Za-z0-9-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g;
const ATTRIBUTE = /([^\s"'=<>/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

export interface MarkupIssue {
  /** Offset of the offending tag in the text. */
  offset: number;
  message: string;
}

/** Attributes whose value a browser follows or loads: only web and mail links may go there. */
const URL_ATTRIBUTES = new Set([
  'href',
  'src',
  'srcset',
  'action',
  'formaction',
  'data',
  'poster',
  'background',
  'cite',
  'longdesc',
  'xlink:href',
  'usemap',
  'codebase',
  'ping',
  'manifest',
  'lowsrc',
  'dynsrc',
  'icon',
]);
const SAFE_SCHEMES = new Set(['http', 'https', 'mailto']);

/** The tag at the scanner's position, as TAG matches it. */
const TAG_HERE = new RegExp(TAG.source, 'y');

/**
 * Returns the first unsafe construct found, or undefined when the text is acceptable. A tag left
 * open is reported first wherever it is; otherwise the first tag (in the order a scan from the
 * start meets them, a tag inside another's quoted attribute skipped) with a refused element or
 * attribute. One pass over the text: every abstract is checked when it is loaded.
 */
export function findUnsafeMarkup(text: string): MarkupIssue | undefined {
  const special = /<[!?]/.exec(text);
  if (special)
    return { offset: special.index, message: 'comments, doctype and processing instructions are not allowed' };
  let refused: MarkupIssue | undefined;
  /** Where the scan for refused tags goes on: after the last tag it read. */
  let scanned = 0;
  for (let at = text.indexOf('<'); at >= 0; at = text.indexOf('<', at + 1)) {
    if (!startsTag(text, at + 1)) continue;
    // A tag left open would swallow whatever markup a client puts after the abstract (its `>`
    // closes it), so every `<` that starts a tag must end one here.
    TAG_HERE.lastIndex = at;
    const tag = TAG_HERE.exec(text);
    if (!tag) return { offset: at, message: 'a tag is not closed with ">"' };
    if (refused || at < scanned) continue;
    scanned = TAG_HERE.lastIndex;
    refused = refusedTag(tag, at);
  }
  return refused;
}

/** Whether a tag starts at `i` (just after a `<`): a letter, or `/` and a letter. */
function startsTag(text: string, i: number): boolean {
  const letter = text[i] === '/' ? text.charCodeAt(i + 1) : text.charCodeAt(i);
  return (letter >= 0x41 && letter <= 0x5a) || (letter >= 0x61 && letter <= 0x7a); // A-Z, a-z
}

function refusedTag(tag: RegExpExecArray, offset: number): MarkupIssue | undefined {
  const name = tag[2]!.toLowerCase();
  if (FORBIDDEN_ELEMENTS.has(name)) return { offset, message: `the <${name}> element is not allowed` };
  if (!tag[3]) return undefined;
  for (const attribute of tag[3].matchAll(ATTRIBUTE)) {
    const attributeName = attribute[1]!.toLowerCase();
    const value = attribute[2] ?? attribute[3] ?? attribute[4] ?? '';
    if (attributeName.startsWith('on')) return { offset, message: `the ${attributeName} attribute is not allowed` };
    const problem = URL_ATTRIBUTES.has(attributeName) ? unsafeUrl(value) : unsafeValue(value);
    if (problem) return { offset, message: `a ${attributeName} ${problem} is not allowed` };
  }
  return undefined;
}

/**
 * A followed URL must be relative or use a web or mail scheme. Browsers decode character
 * references (`&colon;`, `&#58;`) and drop tabs and newlines before they read the scheme, so an
 * entity anywhere in the scheme part is refused rather than decoded with a table of our own.
 */
function unsafeUrl(raw: string): string | undefined {
  const value = decodeReferences(raw, '\u0000').replace(/[\u0000-\u0020\u007f]/g, '');
  const schemePart = value.split(/[/?#]/, 1)[0] ?? '';
  if (schemePart.includes('&')) return 'with a character reference in its scheme';
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(schemePart)?.[1]?.toLowerCase();
  return scheme !== undefined && !SAFE_SCHEMES.has(scheme) ? `with a ${scheme}: URL` : undefined;
}

/** Other attributes are never followed, but a script URL in one is still refused outright. */
function unsafeValue(raw: string): string | undefined {
  const value = decodeReferences(raw).replace(/[\u0000-\u0020]/g, '');
  return /^(?:javascript|vbscript|data):/i.test(value) ? 'with a script or data URL' : undefined;
}

/**
 * The abstract as plain text (for meta tags and feeds): tags removed, every reference decoded
 * once, white space (no-break spaces included) folded.
 */
export function richTextToPlain(text: string): string {
  return plainOf(withoutTags(text));
}

/**
 * The plain text of the opening of `text`, when it has more than `atLeast` characters: the start of
 * richTextToPlain(text), for a caller that needs no more (a landing page's description reads
 * 300 characters of abstracts of up to 2,500). Otherwise the whole plain text.
 *
 * The opening ends just before the first `<` from `from` on, and is used only where nothing can
 * read differently for the cut: every `<` in it is closed by a `>` in it once line breaks and
 * paragraph ends are spaces (so each tag is removed as in the whole text), and every `&` left once
 * the tags are removed has a `;` after it (so no reference runs on past the cut). A run of white
 * space at the cut is one space either way, and the trailing one is trimmed. test/pages.test.ts
 * compares the two on seeded random markup.
 */
export function richTextOpeningToPlain(text: string, from: number, atLeast: number): string {
  const cut = text.indexOf('<', from);
  if (cut > 0) {
    // Breaks first, as in the whole text: a `</p>` taken away closes nothing left open before it.
    const opening = breaksAsSpaces(text.slice(0, cut));
    const lastOpen = opening.lastIndexOf('<');
    if (lastOpen < 0 || lastOpen < opening.lastIndexOf('>')) {
      const stripped = tagsRemoved(opening);
      const amp = stripped.lastIndexOf('&');
      if (amp < 0 || stripped.indexOf(';', amp) >= 0) {
        const plain = plainOf(stripped);
        if (plain.length > atLeast) return plain;
      }
    }
  }
  return richTextToPlain(text);
}

/**
 * The first `count` characters of richTextToPlain(text) (all of it when shorter), read in one pass
 * that stops there: a landing page's summary needs 301, and one pass makes the summary and its
 * escaping about 40% faster than richTextOpeningToPlain's replaces (docs/performance.md). Undefined
 * for what it leaves to the others: a `&` (a reference is decoded after the tags are removed, and
 * may be cut by one), and a `<` with another `<` before its `>`, or none.
 */
export function plainStart(text: string, count: number): string | undefined {
  let plain = '';
  /** Where the run of text being read began (-1: none), and whether a space comes before the next one. */
  let run = -1;
  let space = false;
  const endRun = (end: number) => {
    if (run < 0) return;
    plain += text.slice(run, end);
    run = -1;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === AMPERSAND) return undefined;
    if (c === LESS_THAN) {
      const close = text.indexOf('>', i + 1);
      const inner = text.indexOf('<', i + 1);
      if (close < 0 || (inner >= 0 && inner < close)) return undefined;
      endRun(i);
      // A line break or a paragraph's end reads as white space; any other tag as nothing.
      if (BREAK_TAG.test(text.slice(i, close + 1))) space = plain.length > 0;
      i = close;
    } else if (isWhiteSpace(c)) {
      // A single space between two words stays in the run; anything else ends it.
      const next = text.charCodeAt(i + 1);
      if (
        c === SPACE &&
        run >= 0 &&
        i + 1 < text.length &&
        !isWhiteSpace(next) &&
        next !== LESS_THAN &&
        next !== AMPERSAND
      )
        continue;
      endRun(i);
      space = plain.length > 0;
    } else if (run < 0) {
      if (space) plain += ' ';
      space = false;
      run = i;
    }
    if (run >= 0 ? plain.length + (i + 1 - run) >= count : plain.length >= count) {
      endRun(i + 1);
      return plain.slice(0, count);
    }
  }
  endRun(text.length);
  return plain;
}

const [AMPERSAND, LESS_THAN, SPACE] = ['&', '<', ' '].map((c) => c.charCodeAt(0)) as [number, number, number];
/** A whole tag that breaksAsSpaces turns into a space. */
const BREAK_TAG = /^(?:<br\s*\/?>|<\/p>)$/i;

/** What `\s` matches (and `trim` removes): ASCII white space, no-break and other Unicode spaces, line separators. */
function isWhiteSpace(c: number): boolean {
  if (c < 0x80) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** Line breaks and paragraph ends as spaces, every other tag removed. */
function withoutTags(text: string): string {
  return tagsRemoved(breaksAsSpaces(text));
}

function breaksAsSpaces(text: string): string {
  return text.replace(/<br\s*\/?>|<\/p>/gi, ' ');
}

function tagsRemoved(text: string): string {
  return text.replace(/<[^>]*>/g, '');
}

/** References decoded once, white space (no-break spaces included) folded. */
function plainOf(withoutTagsText: string): string {
  return decodeReferences(withoutTagsText).replace(/\s+/g, ' ').trim();
}
