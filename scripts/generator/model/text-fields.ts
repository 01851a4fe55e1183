/**
 * A manuscript's long texts, its abstract and its keywords, as the content schemas take them
 * (schema.ts). Each is measured first: a value over its limit (field-limits.ts) is refused before
 * any other check reads it through.
 */
import { asString, bad, describe, field, ok, type Parsed } from './field-parsers.ts';
import { FIELD_LIMITS, over, overLimit } from './field-limits.ts';
import { isPlainLine } from './formats.ts';
import { refusedInPlainText } from './plain-text.ts';
import { findUnsafeMarkup } from './rich-text.ts';

const keywordsDescription = 'a list of keywords, or one string of keywords separated by ", " and ending with "."';
const keywordsWithin = (limit: string) =>
  `keywords of at most ${limit} characters in all, as published ("a, b."): a few keywords, each its own item`;

/** The characters of a keyword list as published: joined by ", " and ended by ".". */
function publishedLength(items: unknown[]): number {
  let length = items.length * 2 - 1;
  for (const item of items) length += typeof item === 'string' ? item.length : 0;
  return length;
}

/** SPEC 2.3: `keywords` is one string, `, `-separated, ending with a full stop. */
export const keywords = field(
  {
    anyOf: [
      { type: 'array', items: { type: 'string' }, minItems: 1 },
      { type: 'string', maxLength: FIELD_LIMITS.keywords },
    ],
    description: keywordsDescription,
  },
  (value): Parsed<string> => {
    if (Array.isArray(value)) {
      if (value.length === 0) return bad('is an empty list', keywordsDescription);
      // Counted in UTF-16 units, as the joined text is measured: a list is never joined to learn its length.
      const length = publishedLength(value);
      if (length > FIELD_LIMITS.keywords) {
        const tooMany = over(length, FIELD_LIMITS.keywords, 'characters long in all');
        return bad(`are ${tooMany.message}`, keywordsWithin(tooMany.limit), 'schema/too-long');
      }
      for (const [i, item] of value.entries()) {
        if (
          typeof item !== 'string' ||
          item === '' ||
          !isPlainLine(item) ||
          item.includes(', ') ||
          item.includes(';') ||
          item.endsWith(',')
        ) {
          return bad(
            `${describe(item)} is not a keyword`,
            'each keyword non-empty, on one line, without ", " or ";": each keyword its own item',
            'schema/format',
            i,
          );
        }
        const refused = refusedInPlainText(item);
        if (refused) return bad(refused.message, refused.expected, refused.code, i);
      }
      const joined = value.join(', ');
      return ok(joined.endsWith('.') ? joined : `${joined}.`);
    }
    const text = asString(value, keywordsDescription);
    if (!text.ok) return text;
    const tooLong = overLimit(text.value, FIELD_LIMITS.keywords, 'characters long in all');
    if (tooLong) return bad(`are ${tooLong.message}`, keywordsWithin(tooLong.limit), 'schema/too-long');
    // Line breaks, tabs, surrounding spaces and harmless markup are warned about (plain-text.ts).
    const refused = refusedInPlainText(text.value);
    if (refused) return bad(refused.message, refused.expected, refused.code, undefined, refused.offset);
    const trimmed = text.value.trim();
    if (!trimmed.endsWith('.') || trimmed.split(', ').some((k) => k.trim() === '' || k !== k.trim())) {
      return bad(`${JSON.stringify(text.value)} is not a keyword string`, keywordsDescription);
    }
    return ok(text.value);
  },
);

export const abstract = field(
  {
    type: 'string',
    minLength: 1,
    maxLength: FIELD_LIMITS.abstract,
    description: 'the abstract; simple HTML (p, em, i, strong, b, sup, sub, br, and a with an http(s) href) is allowed',
  },
  (value) => {
    const text = asString(value, 'the abstract as text');
    if (!text.ok) return text;
    const tooLong = overLimit(text.value, FIELD_LIMITS.abstract);
    if (tooLong)
      return bad(
        `is ${tooLong.message}`,
        `an abstract of at most ${tooLong.limit} characters, some 15,000 words: abstracts run to a few thousand characters; was more than the abstract pasted in?`,
        'schema/too-long',
      );
    if (text.value.trim() === '') return bad('is empty', 'the abstract as text');
    if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text.value))
      return bad('contains a control character', 'printable text');
    // validate.ts points at the tag's own line and column in the file.
    const unsafe = findUnsafeMarkup(text.value);
    if (unsafe) return bad(unsafe.message, unsafe.expected, 'schema/markup', undefined, unsafe.offset);
    return ok(text.value);
  },
);
