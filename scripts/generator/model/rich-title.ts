/**
 * A manuscript's title: one line of text that may hold the markup journals print in titles, a
 * species name in italics or a formula's subscript (rich-text.ts, TITLE_ELEMENTS:
 * `<i>Salamandra salamandra</i>`, `H<sub>2</sub>O`). Checked as an abstract is, with fewer elements:
 * any other tag, an attribute or a comment is refused, at its own line and column (validate.ts).
 * The JSON API publishes the title as written; every other output gives it in its own form
 * (docs/content-model.md, "Markup in titles").
 */
import { asString, bad, field, ok } from './field-parsers.ts';
import { FIELD_LIMITS, overLimit } from './field-limits.ts';
import { findUnsafeMarkup, TITLE_MARKUP } from './rich-text.ts';

export function richTitle(description: string) {
  return field({ type: 'string', minLength: 1, maxLength: FIELD_LIMITS.title, description }, (value) => {
    const text = asString(value, description);
    if (!text.ok) return text;
    const tooLong = overLimit(text.value, FIELD_LIMITS.title);
    if (tooLong)
      return bad(`is ${tooLong.message}`, `a title of at most ${tooLong.limit} characters`, 'schema/too-long');
    if (text.value.trim() === '') return bad('is empty', description);
    // The feeds' XML cannot hold a control character (tab, line feed and carriage return are white space).
    if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text.value))
      return bad('contains a control character', 'printable text');
    const unsafe = findUnsafeMarkup(text.value, TITLE_MARKUP);
    if (unsafe) return bad(unsafe.message, unsafe.expected, 'schema/markup', undefined, unsafe.offset);
    return ok(text.value);
  });
}
