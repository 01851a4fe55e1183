/**
 * The description's field schemas agree with the content validator (model/schema.ts) on the
 * fields whose shape the contract fixes: whatever an editor may write is published as a value the
 * description accepts, and what the description accepts an editor could have written. Random
 * values from small alphabets that hit the edges (spaces, commas, full stops, Roman letters, day
 * counts), seeded for CI.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { manuscriptSchema, volumeSchema } from '../scripts/generator/model/schema.ts';
import { PUBLISHED_SCHEMAS, publishedJsonSchema } from '../scripts/generator/model/published.ts';

const addFormats = addFormatsModule.default;
const ajv = new Ajv2020({ strict: true });
addFormats(ajv);

/** A field of a published record, validated by ajv against its schema in the description. */
function describedField(record: 'Volume' | 'Manuscript', field: string) {
  const schema = publishedJsonSchema(PUBLISHED_SCHEMAS[record]) as { properties: Record<string, object> };
  return ajv.compile(schema.properties[field]!);
}

/** What the content validator makes of one field's value: the published value, or nothing when refused. */
function accepted(schema: typeof manuscriptSchema | typeof volumeSchema, field: string, value: unknown) {
  const result = (schema.shape as Record<string, { safeParse(v: unknown): { success: boolean; data?: unknown } }>)[
    field
  ]!.safeParse(value);
  return result.success ? { value: result.data } : undefined;
}

const RUNS = { numRuns: 2_000, seed: 20_260_401 };
const textFrom = (alphabet: string[], maxLength = 12) =>
  fc.array(fc.constantFrom(...alphabet), { maxLength }).map((chars) => chars.join(''));

describe('the description and the content validator agree', () => {
  it('on keywords: what an editor may write (a string or a list) is published as a keyword string the description accepts', () => {
    const described = describedField('Manuscript', 'keywords');
    // Tokens, so that separators and the spaces around them come often; a full stop at the end, half the time.
    const tokens = textFrom(['a', 'b', ' ', ', ', ',', '.', '\t', '<i>'], 6);
    const keywordText = fc.oneof(
      tokens,
      tokens.map((text) => `${text}.`),
    );
    fc.assert(
      fc.property(fc.oneof(keywordText, fc.array(keywordText, { maxLength: 4 })), (value) => {
        const result = accepted(manuscriptSchema, 'keywords', value);
        if (result) expect(described(result.value), JSON.stringify(result.value)).toBe(true);
        // A string the description accepts is one an editor may write, unless it holds markup.
        if (typeof value === 'string' && described(value) && !/<\/?[A-Za-z]/.test(value))
          expect(result, JSON.stringify(value)).toBeDefined();
      }),
      RUNS,
    );
  });

  it('on the volume label: "Volume" and a canonical Roman numeral, nothing else', () => {
    const described = describedField('Volume', 'citation_journal_title');
    fc.assert(
      fc.property(textFrom(['I', 'V', 'X', 'L', 'C', 'D', 'M'], 8), (numeral) => {
        const label = `Volume ${numeral}`;
        expect(described(label), label).toBe(accepted(volumeSchema, 'citation_journal_title', label) !== undefined);
      }),
      RUNS,
    );
  });

  it('on dates: a real calendar day as YYYY-MM-DD, leap years included', () => {
    const described = describedField('Manuscript', 'citation_date');
    const twoDigits = fc.integer({ min: 0, max: 39 }).map((n) => String(n).padStart(2, '0'));
    const year = fc.constantFrom('1900', '2000', '2023', '2024', '2100', '0000');
    fc.assert(
      fc.property(year, twoDigits, twoDigits, (y, m, d) => {
        const date = `${y}-${m}-${d}`;
        expect(described(date), date).toBe(accepted(manuscriptSchema, 'citation_date', date) !== undefined);
      }),
      RUNS,
    );
  });

  it('on PDF URLs: an absolute URL kept as published has the path the description promises', () => {
    const described = describedField('Manuscript', 'document');
    const segment = fc.constantFrom('pdfs', 'volumes', 'media', '2020', 'a.pdf', 'b%20c.pdf', '..', '');
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 4 }), (segments) => {
        const url = `https://old.example.org/${segments.join('/')}`;
        const result = accepted(manuscriptSchema, 'document', url);
        if (result && typeof result.value === 'object' && (result.value as { kind: string }).kind === 'remote')
          expect(described(url), url).toBe(true);
      }),
      RUNS,
    );
  });
});
