/**
 * The field parsers the content schemas are made of (schema.ts): each accepts a value as YAML gives
 * it (the text the editor typed) or as JSON does, turns it into the one type the build uses, and
 * reports at most one problem, in the contract's words.
 */
import * as z from 'zod';
import type { ProblemCode } from './problems.ts';
import { dateMistake } from './date-mistakes.ts';
import { ISO_DATE, ISSN, PAGE } from './formats.ts';
import { refusedInPlainText } from './plain-text.ts';
import { FIELD_LIMITS, overLimit } from './field-limits.ts';
import type * as scholarly from './scholarly-fields.ts';

export type Parsed<T> =
  | { ok: true; value: T }
  | { ok: false; code: ProblemCode; message: string; expected: string; index?: number; offset?: number };

export const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
export const bad = (
  message: string,
  expected: string,
  code: ProblemCode = 'schema/format',
  index?: number,
  offset?: number,
): Parsed<never> => ({
  ok: false,
  code,
  message,
  expected,
  ...(index === undefined ? {} : { index }),
  ...(offset === undefined ? {} : { offset }),
});

/** Params attached to every issue this module raises; `validate.ts` reads them back. */
export interface IssueParams {
  code: ProblemCode;
  expected: string;
  /** Where in the text value the problem is: validate.ts points at that place in the file. */
  offset?: number;
}

/**
 * A field: a JSON Schema fragment (for editors' autocompletion) and a parser. A missing required
 * field is reported as `schema/missing` with the field's own description of what it expects.
 */
export function field<T>(jsonSchema: Record<string, unknown>, parse: (value: unknown) => Parsed<T>) {
  const expected = String(jsonSchema['description'] ?? 'a value');
  return z
    .unknown()
    .transform((value, ctx): T => {
      const result: Parsed<T> = value === undefined ? bad('is missing', expected, 'schema/missing') : parse(value);
      if (result.ok) return result.value;
      const params: IssueParams = {
        code: result.code,
        expected: result.expected,
        ...(result.offset === undefined ? {} : { offset: result.offset }),
      };
      ctx.addIssue({
        code: 'custom',
        message: result.message,
        params,
        ...(result.index === undefined ? {} : { path: [result.index] }),
      });
      return z.NEVER;
    })
    .meta(jsonSchema);
}

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return `the ${typeof value} ${JSON.stringify(value)}`;
}

export function asString(value: unknown, expected: string): Parsed<string> {
  return typeof value === 'string' ? ok(value) : bad(`is ${describe(value)}, not text`, expected, 'schema/type');
}

/** Plain text (plain-text.ts); `allowEmpty` for the fields SPEC 2.3 says may be empty. */
export function plainText(description: string, options: { allowEmpty?: boolean } = {}) {
  const jsonSchema = {
    type: 'string',
    description,
    ...(options.allowEmpty ? {} : { minLength: 1 }),
    maxLength: FIELD_LIMITS.plainText,
  };
  return field(jsonSchema, (value) => {
    const text = asString(value, description);
    if (!text.ok) return text;
    const tooLong = overLimit(text.value, FIELD_LIMITS.plainText);
    if (tooLong)
      return bad(`is ${tooLong.message}`, `${description}, in at most ${tooLong.limit} characters`, 'schema/too-long');
    if (text.value.trim() === '' && !options.allowEmpty) return bad('is empty', description);
    // A line break, a tab, surrounding spaces or harmless markup is published as it is, with a
    // warning (plain-text.ts, validate.ts); what no journal should publish is refused.
    const refused = refusedInPlainText(text.value);
    if (refused) return bad(refused.message, refused.expected, refused.code, undefined, refused.offset);
    return ok(text.value);
  });
}

/** The JSON Schema pattern of a field: `pattern`, or the empty string too where it may be empty. */
function patternSource(pattern: RegExp, options: { allowEmpty?: boolean }): string {
  return options.allowEmpty ? `^(?:${pattern.source.replace(/^\^|\$$/g, '')})?$` : pattern.source;
}

export function matching(
  description: string,
  pattern: RegExp,
  check: (value: string) => boolean = () => true,
  options: { allowEmpty?: boolean } = {},
) {
  return field({ type: 'string', description, pattern: patternSource(pattern, options) }, (value) => {
    const text = asString(value, description);
    if (!text.ok) return text;
    if (options.allowEmpty && text.value === '') return ok('');
    if (!pattern.test(text.value) || !check(text.value))
      return bad(`${JSON.stringify(text.value)} is not valid`, description);
    return ok(text.value);
  });
}

/**
 * An ISSN in the contract's spaced form (formats.ts, ISSN). A value that is an ISSN written another
 * way (no spaces, a lower-case x) is answered with the exact form to write.
 */
export function issn(description: string, options: { allowEmpty?: boolean } = {}) {
  return field({ type: 'string', description, pattern: patternSource(ISSN, options) }, (value) => {
    const text = asString(value, description);
    if (!text.ok) return text;
    if ((options.allowEmpty && text.value === '') || ISSN.test(text.value)) return ok(text.value);
    const parts = /^\s*(\d{4})\s*[-\u2010-\u2015]?\s*(\d{3}[\dXx])\s*$/.exec(text.value);
    if (!parts) return bad(`${JSON.stringify(text.value)} is not valid`, description);
    const capital = text.value.trim().endsWith('x') ? ', with a capital X' : '';
    return bad(
      `${JSON.stringify(text.value)} is not valid`,
      `write "${parts[1]} - ${parts[2]!.toUpperCase()}"${capital}: ${description}`,
    );
  });
}

const MAX_ID = 2 ** 31 - 1;

/** A positive integer: a YAML plain scalar like `12`, or a JSON number. */
export function positiveInteger(description: string) {
  return field({ type: 'integer', minimum: 1, maximum: MAX_ID, description }, (value) => {
    const n = typeof value === 'string' && /^[1-9]\d{0,9}$/.test(value) ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_ID) {
      return bad(`is ${describe(value)}`, description, typeof n === 'number' ? 'schema/format' : 'schema/type');
    }
    return ok(n);
  });
}

export const page = (description: string) =>
  field({ type: ['string', 'integer'], pattern: PAGE.source, minimum: 0, description }, (value) => {
    const text = typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? String(value) : value;
    if (typeof text !== 'string' || !PAGE.test(text)) return bad(`is ${describe(value)}`, description);
    return ok(text);
  });

export const fieldOf = <T>(spec: scholarly.FieldSpec<T>) => field(spec.jsonSchema, spec.parse);
/** A real date as YYYY-MM-DD; one written otherwise, or that the calendar has not, is said so with the fix. */
export function calendarDate(description: string) {
  return field({ type: 'string', description, pattern: ISO_DATE.source }, (value) => {
    const text = asString(value, description);
    if (!text.ok) return text;
    const mistake = dateMistake(text.value);
    if (!mistake) return ok(text.value);
    return bad(mistake.message, mistake.write ? `write ${mistake.write}` : description);
  });
}
