/**
 * The optional scholarly fields (a manuscript's DOI, pages and licence, an author's ORCID iD, the
 * journal's online ISSN and licence): how each is read and what is wrong with it, in the editors'
 * words. schema.ts turns each parser into a field; none of them is in the three API lists.
 */
import type { z } from 'zod';
import type { ProblemCode } from './problems.ts';
import { DOI, bareDoi, bareOrcid, isHttpUrl, orcidCheckCharacter, orcidParts } from './identifiers.ts';

/** What a field parser answers: schema.ts's own result type, which this is assignable to. */
export type FieldResult<T> =
  { ok: true; value: T } | { ok: false; code: ProblemCode; message: string; expected: string };

const ok = <T>(value: T): FieldResult<T> => ({ ok: true, value });
const bad = (message: string, expected: string, code: ProblemCode = 'schema/format'): FieldResult<never> => ({
  ok: false,
  code,
  message,
  expected,
});

function text(value: unknown, expected: string): FieldResult<string> {
  if (typeof value === 'string') return ok(value);
  const what =
    value === null
      ? 'null'
      : Array.isArray(value)
        ? 'a list'
        : typeof value === 'object'
          ? 'a mapping'
          : `the ${typeof value} ${JSON.stringify(value)}`;
  return bad(`is ${what}, not text`, expected, 'schema/type');
}

/** A field's JSON Schema fragment (for editors) and its parser: schema.ts makes a field of each. */
export interface FieldSpec<T> {
  jsonSchema: Record<string, unknown>;
  parse(value: unknown): FieldResult<T>;
}

const DOI_EXPECTED = 'a DOI as 10.<4 to 9 digits>/<suffix without spaces>, e.g. 10.1234/bbsrs.2023.17';

export const DOI_FIELD: FieldSpec<string> = {
  jsonSchema: { type: 'string', pattern: DOI.source, description: `the manuscript's DOI, bare: ${DOI_EXPECTED}` },
  parse(value: unknown): FieldResult<string> {
    const read = text(value, DOI_EXPECTED);
    if (!read.ok) return read;
    const bare = bareDoi(read.value);
    if (bare !== undefined)
      return bad(`${JSON.stringify(read.value)} is a link or has a prefix`, `the bare DOI: ${bare}`);
    if (!DOI.test(read.value)) return bad(`${JSON.stringify(read.value)} is not a DOI`, DOI_EXPECTED);
    return ok(read.value);
  },
};

const ORCID_EXPECTED = 'an ORCID iD as 0000-0002-1825-0097, without https://orcid.org/';

export const ORCID_FIELD: FieldSpec<string> = {
  jsonSchema: {
    type: 'string',
    pattern: '^\\d{4}-\\d{4}-\\d{4}-\\d{3}[\\dX]$',
    description: `the author's ORCID iD: ${ORCID_EXPECTED}`,
  },
  parse(value: unknown): FieldResult<string> {
    const read = text(value, ORCID_EXPECTED);
    if (!read.ok) return read;
    const bare = bareOrcid(read.value);
    if (bare !== undefined) return bad(`${JSON.stringify(read.value)} is a link`, `the bare iD: ${bare}`);
    const parts = orcidParts(read.value);
    if (!parts) return bad(`${JSON.stringify(read.value)} is not an ORCID iD`, ORCID_EXPECTED);
    const check = orcidCheckCharacter(parts.digits);
    if (parts.check !== check)
      return bad(
        `${JSON.stringify(read.value)} ends in ${parts.check}, which is not its check character`,
        `${read.value.slice(0, -1)}${check}: the last character is the ISO 7064 MOD 11-2 check of the other 15 digits; check the iD for a typo`,
      );
    return ok(read.value);
  },
};

const LICENSE_EXPECTED = 'an absolute http(s) URL of the licence, e.g. https://creativecommons.org/licenses/by/4.0/';

function parseLicense(value: unknown): FieldResult<string> {
  const read = text(value, LICENSE_EXPECTED);
  if (!read.ok) return read;
  if (!isHttpUrl(read.value))
    return bad(`${JSON.stringify(read.value)} is not an absolute http(s) URL`, LICENSE_EXPECTED);
  return ok(read.value);
}

const licenseField = (description: string): FieldSpec<string> => ({
  jsonSchema: { type: 'string', format: 'uri', pattern: '^https?://', description },
  parse: parseLicense,
});

export const JOURNAL_LICENSE_FIELD = licenseField(
  'the licence every manuscript is published under unless it names its own: an absolute http(s) URL, e.g. https://creativecommons.org/licenses/by/4.0/',
);
export const MANUSCRIPT_LICENSE_FIELD = licenseField(
  "the manuscript's licence, when it is not the journal's: an absolute http(s) URL",
);

/** A manuscript's `last_page` may not be before its `first_page` (as a volume's, resolve.ts). */
export function pagesInOrder(
  record: { first_page?: string | undefined; last_page?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  const { first_page: first, last_page: last } = record;
  if (first === undefined || last === undefined || Number(last) >= Number(first)) return;
  const params: { code: ProblemCode; expected: string } = {
    code: 'schema/format',
    expected: 'a last page at or after the first',
  };
  ctx.addIssue({ code: 'custom', path: ['last_page'], message: `${last} is before first_page ${first}`, params });
}
