/**
 * Abstracts are rich text (SPEC-NOTES: the original used an HTML editor, so `<p>` and `<em>` around
 * Latin species names are normal). The JSON publishes the markup as it is, and API clients insert it
 * as HTML, so an abstract must already be what the landing pages' allow-list keeps
 * (sanitize-html.ts): the elements below, no attribute but a link's `href` to an absolute http(s)
 * address, no comments. Anything else is refused by name (docs/content-model.md, "Rich text in
 * abstracts"); test/abstract-markup.test.ts holds the check to a reference sanitizer.
 *
 * The accepted tags have one narrow shape (`<em>`, `</em>`, `<br/>`, `<a href="...">`), which the
 * HTML tokenizer reads exactly as this module does: no raw-text element, attribute or comment is
 * ever accepted, so nothing in an accepted abstract can change how the rest of it is parsed.
 */
import { decodeReferences, REFERENCE_SOURCE } from './html-references.ts';

/** The elements an abstract may hold: the landing pages keep these and escape every other tag. */
export const ABSTRACT_ELEMENTS: ReadonlySet<string> = new Set(['p', 'em', 'i', 'strong', 'b', 'sup', 'sub', 'br', 'a']);

/**
 * The elements a title may hold: the abstract's inline ones without links, what journals put in
 * titles (a species name in italics, H<sub>2</sub>O). A title is one line: no paragraph or break.
 */
export const TITLE_ELEMENTS: ReadonlySet<string> = new Set(['em', 'i', 'strong', 'b', 'sup', 'sub']);

/** Which rich text a check is about: the elements it may hold, and how the message names them. */
export interface RichTextKind {
  elements: ReadonlySet<string>;
  expected: string;
  /** What the message asks for when a tag has an attribute. */
  attributes: string;
}

/**
 * The address a link goes to, when it is one a page keeps: an absolute http(s) URL once character
 * references are decoded (so `javascript&#58;` and `javascript&colon;` are read as the browser
 * reads them). A reference the HTML parser would refuse makes the whole address refused.
 */
export function abstractLinkTarget(rawValue: string): string | undefined {
  // A refused reference decodes to NUL, which the pattern refuses.
  const value = decodeReferences(rawValue, '\u0000').trim();
  if (!/^https?:\/\/[^\s\u0000-\u001f\u007f-\u009f]+$/i.test(value)) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A tag as the tokenizer delimits it: `<`, a name (up to white space, `/` or `>`, as HTML reads
 * names), and everything up to the `>` that is not inside a quoted value.
 */
const TAG = /<(\/?)([A-Za-z][^\t\n\f\r />]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g;
/** The tag at the scanner's position, as TAG matches it. */
const TAG_HERE = new RegExp(TAG.source, 'y');

/** After an element's name: nothing, or white space and the `/` of `<br/>`. */
const NOTHING_AFTER_NAME = /^[\t\n\f\r ]*\/?$/;
/** The one shape a link's tag may have: `<a href="...">`, the value quoted or not. */
const LINK_ATTRIBUTES =
  /^[\t\n\f\r ]+href[\t\n\f\r ]*=[\t\n\f\r ]*(?:"([^"]*)"|'([^']*)'|([^\t\n\f\r "'=<>`]+))[\t\n\f\r ]*\/?$/i;
/** An attribute as HTML reads one, for naming what is refused. */
const ATTRIBUTE = /([^\t\n\f\r />][^\t\n\f\r />=]*)(?:[\t\n\f\r ]*=[\t\n\f\r ]*(?:"[^"]*"|'[^']*'|[^\t\n\f\r >]*))?/g;

const FIRST_ATTRIBUTE = new RegExp(ATTRIBUTE.source);

const ELEMENTS_EXPECTED = 'only p, em, i, strong, b, sup, sub, br, and links <a href="https://...">';

const ATTRIBUTES_EXPECTED = 'no attributes, except href on a link <a>';
const LINK_EXPECTED = 'a link written <a href="https://..."> with an absolute http(s) address';

export const ABSTRACT_MARKUP: RichTextKind = {
  elements: ABSTRACT_ELEMENTS,
  expected: ELEMENTS_EXPECTED,
  attributes: ATTRIBUTES_EXPECTED,
};
export const TITLE_MARKUP: RichTextKind = {
  elements: TITLE_ELEMENTS,
  expected: 'only em, i, strong, b, sup and sub',
  attributes: 'no attributes: only <em>, <i>, <strong>, <b>, <sup> and <sub> as they are',
};

export interface MarkupIssue {
  /** Offset of the offending tag in the text. */
  offset: number;
  /** What is wrong, naming the element or attribute. */
  message: string;
  /** What the abstract may hold instead. */
  expected: string;
}

/**
 * Returns the first construct outside the allow-list, or undefined when the text is acceptable. A
 * comment or a tag left open is reported as soon as the scan meets it; otherwise the first refused
 * tag (in the order a scan from the start meets them, a tag inside another's quoted attribute
 * skipped). One pass over the text: every abstract is checked when it is loaded (12 µs for 1,500
 * characters of paragraphs and emphasis, 2 µs more than the check of script-like markup alone).
 */
export function findUnsafeMarkup(text: string, kind: RichTextKind = ABSTRACT_MARKUP): MarkupIssue | undefined {
  let refused: MarkupIssue | undefined;
  /** Where the scan for refused tags goes on: after the last tag it read. */
  let scanned = 0;
  for (let at = text.indexOf('<'); at >= 0; at = text.indexOf('<', at + 1)) {
    if (!startsTag(text, at + 1)) {
      // `<!`, `<?` and `</` before anything but a letter start comments (or nothing): they hide
      // text from a client, and a comment may end where a page and a client disagree.
      const next = text[at + 1];
      if (next === '!' || next === '?')
        return {
          offset: at,
          message: 'comments, doctype and processing instructions are not allowed',
          expected: kind.expected,
        };
      if (next === '/')
        return {
          offset: at,
          message: 'a "</" that starts no closing tag is not allowed',
          expected: 'a closing tag such as </p>, or &lt;/ for the characters themselves',
        };
      continue;
    }
    // A tag left open would swallow whatever markup a client puts after the abstract (its `>`
    // closes it), so every `<` that starts a tag must end one here.
    TAG_HERE.lastIndex = at;
    const tag = TAG_HERE.exec(text);
    if (!tag) return { offset: at, message: 'a tag is not closed with ">"', expected: kind.expected };
    if (refused || at < scanned) continue;
    scanned = TAG_HERE.lastIndex;
    refused = refusedTag(tag, at, kind);
  }
  return refused;
}

/** Whether a tag starts at `i` (just after a `<`): a letter, or `/` and a letter. */
function startsTag(text: string, i: number): boolean {
  const letter = text[i] === '/' ? text.charCodeAt(i + 1) : text.charCodeAt(i);
  return (letter >= 0x41 && letter <= 0x5a) || (letter >= 0x61 && letter <= 0x7a); // A-Z, a-z
}

function refusedTag(tag: RegExpExecArray, offset: number, kind: RichTextKind): MarkupIssue | undefined {
  const name = tag[2]!.toLowerCase();
  const rest = tag[3]!;
  const closing = tag[1] !== '';
  // The common case first: an allowed element's bare tag (an abstract has dozens).
  if (rest === '' && name !== 'a' && !(closing && name === 'br') && kind.elements.has(name)) return undefined;
  const issue = (message: string, expected: string) => ({ offset, message, expected });
  if (!kind.elements.has(name)) return issue(`the <${name}> element is not allowed`, kind.expected);
  if (closing) {
    // The parser reads `</br>` as a line break, a page as nothing: only `<br>` means one.
    if (name === 'br') return issue('</br> is not allowed', 'a line break written <br>');
    return /^[\t\n\f\r ]*$/.test(rest)
      ? undefined
      : issue(`the closing tag </${name}> has more than its name`, `</${name}>`);
  }
  if (name === 'a') return refusedLink(rest, issue);
  if (NOTHING_AFTER_NAME.test(rest)) return undefined;
  const attribute = FIRST_ATTRIBUTE.exec(rest)?.[1]?.toLowerCase();
  return attribute === undefined
    ? issue(`the <${name}> tag has more than its name`, kind.attributes)
    : issue(`the ${attribute} attribute of <${name}> is not allowed`, kind.attributes);
}

function refusedLink(rest: string, issue: (message: string, expected: string) => MarkupIssue): MarkupIssue | undefined {
  const link = LINK_ATTRIBUTES.exec(rest);
  if (link) {
    const raw = link[1] ?? link[2] ?? link[3] ?? '';
    if (abstractLinkTarget(raw) !== undefined) return undefined;
    const shown = raw.length > 80 ? `${raw.slice(0, 80)}…` : raw;
    return issue(`the link address ${JSON.stringify(shown)} is not allowed`, LINK_EXPECTED);
  }
  const names = [...rest.matchAll(ATTRIBUTE)].map((attribute) => attribute[1]!.toLowerCase());
  const other = names.find((name) => name !== 'href');
  if (other !== undefined) return issue(`the ${other} attribute of <a> is not allowed`, ATTRIBUTES_EXPECTED);
  if (names.length === 0) return issue('a link <a> without an href is not allowed', LINK_EXPECTED);
  if (names.length > 1) return issue('a link <a> with more than one href is not allowed', LINK_EXPECTED);
  return issue('the link <a> is not written as <a href="...">', LINK_EXPECTED);
}

/**
 * The abstract as plain text, the one conversion every output that needs plain text uses (meta
 * tags, feeds, citation files): read as a browser reads the markup, tags removed (a line break or a
 * paragraph is white space, any other tag nothing), a `<` that opens no tag kept as text
 * (`p < 0.05`), every character reference decoded once, white space (no-break spaces included)
 * folded.
 */
export function richTextToPlain(text: string): string {
  return plainOf(tagsAsText(text).text);
}

/** A reference, as the HTML parser reads one. */
const REFERENCE = new RegExp(REFERENCE_SOURCE);

/**
 * Whether a title holds markup: a tag, or a character reference. A title without either is plain
 * text as it is, and every output gives it as before titles could hold markup, byte for byte.
 */
export function titleHasMarkup(title: string): boolean {
  return /<\/?[A-Za-z]/.test(title) || REFERENCE.test(title);
}

/**
 * The plain text of the opening of `text`, when it has more than `atLeast` characters: the start of
 * richTextToPlain(text), for a caller that needs no more (a landing page's description reads
 * 300 characters of abstracts of up to 2,500). Otherwise the whole plain text.
 *
 * The opening ends just before the first tag from `from` on, and is used only where nothing can
 * read differently for the cut: every tag in it ends in it (so each is removed as in the whole
 * text), and every `&` left once the tags are removed has a `;` after it (so no reference runs on
 * past the cut). A run of white space at the cut is one space either way, and the trailing one is
 * trimmed. test/pages.test.ts compares the two on seeded random markup.
 */
export function richTextOpeningToPlain(text: string, from: number, atLeast: number): string {
  const cut = nextTag(text, from);
  if (cut > 0) {
    const opening = tagsAsText(text, cut);
    if (opening.closed) {
      const amp = opening.text.lastIndexOf('&');
      if (amp < 0 || opening.text.indexOf(';', amp) >= 0) {
        const plain = plainOf(opening.text);
        if (plain.length > atLeast) return plain;
      }
    }
  }
  return richTextToPlain(text);
}

/** Where the first `<` at or after `from` that starts a tag is (-1: none). */
function nextTag(text: string, from: number): number {
  for (let at = text.indexOf('<', from); at >= 0; at = text.indexOf('<', at + 1))
    if (startsTag(text, at + 1)) return at;
  return -1;
}

/**
 * The first `end` characters of `text` with each tag replaced (a line break or a paragraph by a
 * space, any other by nothing) and everything else kept, a `<` that starts no complete tag
 * included; `closed` is false when a tag that starts before `end` does not end before it.
 */
function tagsAsText(text: string, end = text.length): { text: string; closed: boolean } {
  let out = '';
  let kept = 0;
  for (let at = nextTag(text, 0); at >= 0 && at < end; at = nextTag(text, at + 1)) {
    TAG_HERE.lastIndex = at;
    const tag = TAG_HERE.exec(text);
    // A tag the tokenizer would leave open: the validation refuses it and the pages show it as
    // text (sanitize-html.ts), and so does the plain text.
    if (!tag) continue;
    if (TAG_HERE.lastIndex > end) return { text: out + text.slice(kept, end), closed: false };
    out += text.slice(kept, at) + (isBreak(tag) ? ' ' : '');
    kept = TAG_HERE.lastIndex;
    at = kept - 1;
  }
  return { text: out + text.slice(kept, end), closed: true };
}

/** A line break or a paragraph's start or end: white space between the words around it. */
function isBreak(tag: RegExpExecArray): boolean {
  const name = tag[2]!.toLowerCase();
  return name === 'br' || name === 'p';
}

/**
 * The first `count` characters of richTextToPlain(text) (all of it when shorter), read in one pass
 * that stops there: a landing page's summary needs 301, and one pass makes the summary and its
 * escaping about 40% faster than richTextOpeningToPlain's replaces (docs/performance.md). Undefined
 * for what it leaves to the others: a `&` (a reference is decoded after the tags are removed, and
 * may be cut by one).
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
    const tag = c === LESS_THAN && startsTag(text, i + 1) ? tagAt(text, i) : undefined;
    if (tag) {
      endRun(i);
      // A line break or a paragraph reads as white space; any other tag as nothing.
      if (isBreak(tag)) space = plain.length > 0;
      i = tag.index + tag[0].length - 1;
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

/** The complete tag that starts at `at`, if one does. */
function tagAt(text: string, at: number): RegExpExecArray | undefined {
  TAG_HERE.lastIndex = at;
  return TAG_HERE.exec(text) ?? undefined;
}

const [AMPERSAND, LESS_THAN, SPACE] = ['&', '<', ' '].map((c) => c.charCodeAt(0)) as [number, number, number];

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

/** References decoded once, white space (no-break spaces included) folded. */
function plainOf(withoutTagsText: string): string {
  const text = withoutTagsText.includes('&') ? decodeReferences(withoutTagsText) : withoutTagsText;
  return text.replace(WHITE_SPACE_TO_FOLD, ' ').trim();
}

/**
 * The runs of white space that are not already one plain space: `\s+` would replace each of the
 * hundreds of single spaces of an abstract by itself, which took most of the conversion's time.
 */
const WHITE_SPACE_TO_FOLD = / \s+|[^\S ]\s*/g;
