/**
 * Plain-text fields (names, titles, institutions, sections, keywords, languages): where the line
 * between a problem and a warning lies (docs/content-model.md, "Plain text").
 *
 * A value is data: a journal that published a title with a pasted line break, a tab, a space
 * before it or `H<sub>2</sub>O` in it keeps that value. The JSON API publishes it byte for byte
 * (an import must round-trip), every other output escapes it and folds its white space, and the
 * editor is warned where it is. What no journal should publish is refused until it is fixed: a
 * control character (the feeds' XML cannot hold one) and markup that runs code in a client that
 * inserts the text as HTML (a script, an event handler, a `javascript:` address).
 */
import type { ProblemCode } from './problems.ts';
import { decodeReferences } from './html-references.ts';
import { looksLikeMarkup } from './formats.ts';

export interface PlainTextFinding {
  code: ProblemCode;
  message: string;
  expected: string;
  /** Where in the text, when the finding is about one place in it. */
  offset?: number;
}

/** C0 controls other than tab, line feed and carriage return, and DEL: XML 1.0 cannot hold them. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** Elements that run or load something, or change how the rest of a page is read. */
const ACTIVE_ELEMENTS =
  /^(?:script|style|iframe|frame|frameset|object|embed|applet|base|link|meta|form|svg|math|template|noscript|noembed|xmp|plaintext|textarea|title|img|video|audio|source|input|button)$/i;

/** A tag as the HTML tokenizer starts one: `<` or `</`, a letter, the name, its attributes; the `>` may be missing. */
const TAG = /<\/?([A-Za-z][^\t\n\f\r />]*)((?:[^>"']|"[^"]*"|'[^']*')*)>?/g;
/** An attribute as HTML reads one. */
const ATTRIBUTE =
  /([^\t\n\f\r />][^\t\n\f\r />=]*)(?:[\t\n\f\r ]*=[\t\n\f\r ]*(?:"([^"]*)"|'([^']*)'|([^\t\n\f\r >]*)))?/g;
/** An address a browser runs instead of loading, however its letters are spelt or spaced. */
const SCRIPT_ADDRESS = /^(?:javascript|vbscript|data):/i;

const REMOVE_MARKUP = 'the text without it: a plain-text field is published as text, never as HTML';

/** What the build refuses in a plain-text field, or undefined. */
export function refusedInPlainText(value: string): PlainTextFinding | undefined {
  const control = CONTROL.exec(value);
  if (control)
    return {
      code: 'schema/format',
      message: `contains the control character U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}, at character ${control.index + 1}`,
      expected: 'printable text: remove the character',
    };
  if (value.includes('<')) {
    for (const tag of value.matchAll(TAG)) {
      const name = tag[1]!;
      if (ACTIVE_ELEMENTS.test(name))
        return {
          code: 'schema/markup',
          message: `contains a <${name.toLowerCase()}> tag, which runs or loads something where the text is inserted as HTML`,
          expected: REMOVE_MARKUP,
          offset: tag.index,
        };
      for (const attribute of (tag[2] ?? '').matchAll(ATTRIBUTE)) {
        const attributeName = attribute[1]!.toLowerCase();
        const target = attribute[2] ?? attribute[3] ?? attribute[4] ?? '';
        if (attributeName.startsWith('on'))
          return {
            code: 'schema/markup',
            message: `contains an event handler ${attributeName}= in a <${name.toLowerCase()}> tag`,
            expected: REMOVE_MARKUP,
            offset: tag.index,
          };
        if (SCRIPT_ADDRESS.test(scheme(target)))
          return {
            code: 'schema/markup',
            message: `contains a ${scheme(target).split(':')[0]!.toLowerCase()}: address in a <${name.toLowerCase()}> tag`,
            expected: REMOVE_MARKUP,
            offset: tag.index,
          };
      }
    }
  }
  // A whole value that is a script address (a link pasted into a name field): `JavaScript: the
  // good parts` is a title, `javascript:alert(1)` is not.
  if (/^(?:javascript|vbscript):\S/i.test(scheme(value.trim())) && !/^\S+:\s/.test(value.trim()))
    return {
      code: 'schema/markup',
      message: `is a ${scheme(value.trim()).split(':')[0]!.toLowerCase()}: address`,
      expected: 'the text the field names, not an address',
    };
  return undefined;
}

/** An address as a browser reads its scheme: references decoded, white space and controls dropped. */
function scheme(address: string): string {
  return decodeReferences(address).replace(/[\u0000-\u0020\u007f]/g, '');
}

/** What a plain-text field may hold as published but an editor should look at: a warning, or undefined. */
export function plainTextOddity(value: string, options: { markup?: boolean } = {}): PlainTextFinding | undefined {
  const shown = JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  const folded =
    'published exactly so in the JSON API, with its white space folded to single spaces on the pages, in meta tags and in citations: one line of text without leading or trailing spaces, if it was not meant';
  if (/[\n\r\u0085\u2028\u2029]/.test(value))
    return { code: 'warn/plain-text', message: `${shown} has a line break`, expected: folded };
  if (value.includes('\t')) return { code: 'warn/plain-text', message: `${shown} has a tab`, expected: folded };
  if (value !== value.trim())
    return { code: 'warn/plain-text', message: `${shown} has white space before or after the text`, expected: folded };
  if (/[\u0080-\u009f]/.test(value))
    return {
      code: 'warn/plain-text',
      message: `${shown} has an invisible control character (U+0080 to U+009F)`,
      expected: 'printable text, if it was not meant',
    };
  // A title may hold markup (rich-title.ts): only its white space is pointed out.
  if (options.markup !== false && looksLikeMarkup(value)) {
    const at = /<\/?[A-Za-z!?]/.exec(value)!.index;
    return {
      code: 'warn/plain-text',
      message: `${shown} has text that reads as HTML markup`,
      expected:
        'plain text without HTML tags, if it was not meant: it is published as text, exactly so in the JSON API and escaped on the pages (a <b> shows as "<b>", not bold)',
      offset: at,
    };
  }
  return undefined;
}

/**
 * A plain text as the outputs that show one line give it (meta tags): a run of white space with a
 * line break or a tab in it as one space, none at either end. Most values need nothing: a test is cheaper than a replace.
 */
export function foldWhitespace(value: string): string {
  // Only line breaks, tabs and the ends: a no-break space or two spaces a value was written with stay.
  return /[\t\n\v\f\r\u0085\u2028\u2029]|^\s|\s$/.test(value)
    ? value
        .replace(/[ \t\n\v\f\r\u0085\u2028\u2029]*[\t\n\v\f\r\u0085\u2028\u2029][ \t\n\v\f\r\u0085\u2028\u2029]*/g, ' ')
        .trim()
    : value;
}
