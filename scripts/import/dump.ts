/**
 * The dump: the three lists exactly as the API serves them (SPEC section 2), checked for shape
 * before anything is inferred. A record whose keys or types differ from the contract cannot be
 * reproduced exactly, so it is reported with its list, index and field, never adjusted.
 */
import type { Problem, ProblemCode } from '../generator/model/problems.ts';
import { API_LISTS, type ApiList } from '../shared/contract.ts';

export interface SourceAuthor {
  name: string;
  surname: string;
  institution: string;
}

export interface SourceVolume {
  citation_language: string;
  citation_journal_title: string;
  udc: string;
  citation_issn: string;
  first_page: string;
  last_page: string;
  pdf: string;
  full_date: string;
}

export interface SourceManuscript {
  id: number;
  citation_language: string;
  udc: string;
  abstract: string;
  citation_issn: string;
  citation_title: string;
  citation_date: string;
  citation_volume: number;
  keywords: string;
  document: string;
  authors: string[];
  section: string;
}

export interface Dump {
  authors: SourceAuthor[];
  volumes: SourceVolume[];
  manuscripts: SourceManuscript[];
}

type FieldType = 'string' | 'integer' | 'strings';

/** SPEC 2.1-2.3: every field, in the contract's key order, with its JSON type. */
export const CONTRACT_FIELDS: { [L in ApiList]: Record<string, FieldType> } = {
  authors: { name: 'string', surname: 'string', institution: 'string' },
  volumes: {
    citation_language: 'string',
    citation_journal_title: 'string',
    udc: 'string',
    citation_issn: 'string',
    first_page: 'string',
    last_page: 'string',
    pdf: 'string',
    full_date: 'string',
  },
  manuscripts: {
    id: 'integer',
    citation_language: 'string',
    udc: 'string',
    abstract: 'string',
    citation_issn: 'string',
    citation_title: 'string',
    citation_date: 'string',
    citation_volume: 'integer',
    keywords: 'string',
    document: 'string',
    authors: 'strings',
    section: 'string',
  },
};

/** Fields that hold a file: the original renders an empty one as `null` (SPEC-NOTES). */
const FILE_FIELDS = new Set(['pdf', 'document']);

export interface CheckedDump {
  dump?: Dump;
  problems: Problem[];
  /** Records whose keys were in another order than the contract's (the build writes the contract's). */
  reordered: { list: ApiList; count: number }[];
}

/** `label` names the source in reports: the dump file, or the URL of each list. */
export function checkDump(lists: Record<ApiList, unknown>, labels: Record<ApiList, string>): CheckedDump {
  const problems: Problem[] = [];
  const reordered: CheckedDump['reordered'] = [];
  const report = (list: ApiList, field: string, code: ProblemCode, message: string, expected?: string) =>
    problems.push({ code, file: labels[list], line: 0, column: 0, field, message, ...(expected ? { expected } : {}) });

  for (const list of API_LISTS) {
    const records = lists[list];
    if (!Array.isArray(records)) {
      report(
        list,
        list,
        'import/dump-shape',
        `is ${kind(records)}`,
        `the bare JSON array of ${list} the API serves (SPEC 4, rule 1)`,
      );
      continue;
    }
    const fields = CONTRACT_FIELDS[list];
    const expectedKeys = Object.keys(fields);
    let outOfOrder = 0;
    records.forEach((record: unknown, index) => {
      const at = `${list}[${index}]`;
      if (record === null || typeof record !== 'object' || Array.isArray(record)) {
        report(
          list,
          at,
          'import/dump-shape',
          `is ${kind(record)}`,
          `an object with the fields ${expectedKeys.join(', ')}`,
        );
        return;
      }
      const keys = Object.keys(record);
      for (const key of keys) {
        if (!(key in fields))
          report(
            list,
            `${at}.${key}`,
            'import/not-representable',
            'is not a field of the contract and would be lost',
            `only ${expectedKeys.join(', ')} (SPEC 2)`,
          );
      }
      const known = keys.filter((key) => key in fields);
      if (known.join() !== expectedKeys.filter((key) => keys.includes(key)).join()) outOfOrder++;
      for (const [key, type] of Object.entries(fields)) {
        const value = (record as Record<string, unknown>)[key];
        const field = `${at}.${key}`;
        if (!(key in record)) {
          report(
            list,
            field,
            'import/not-representable',
            'is missing',
            `every field of the contract in every record (SPEC 2)`,
          );
        } else if (value === null && FILE_FIELDS.has(key)) {
          report(
            list,
            field,
            'import/not-representable',
            'is null (a record without its PDF)',
            'the absolute URL of the PDF: the contract types the field as a string (SPEC 2.2, 2.3)',
          );
        } else if (!hasType(value, type)) {
          report(
            list,
            field,
            'import/not-representable',
            `is ${kind(value)}`,
            type === 'integer' ? 'a positive integer' : type === 'strings' ? 'a list of strings' : 'a string',
          );
        } else if (!wellFormed(value)) {
          report(
            list,
            field,
            'import/not-representable',
            'contains an unpaired UTF-16 surrogate',
            'text that can be saved as UTF-8',
          );
        }
      }
    });
    if (outOfOrder > 0) reordered.push({ list, count: outOfOrder });
  }
  if (problems.length > 0) return { problems, reordered };
  return { dump: lists as unknown as Dump, problems, reordered };
}

function hasType(value: unknown, type: FieldType): boolean {
  if (type === 'string') return typeof value === 'string';
  if (type === 'integer') return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function wellFormed(value: unknown): boolean {
  if (typeof value === 'string') return !LONE_SURROGATE.test(value);
  return !Array.isArray(value) || value.every(wellFormed);
}

export function kind(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'missing';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object')
    return `an object with the keys ${Object.keys(value).slice(0, 6).join(', ') || '(none)'}`;
  if (typeof value === 'string')
    return `the string ${JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value)}`;
  return `the ${typeof value} ${String(value)}`;
}

/** A record with its keys in the contract's order: what the build writes (SPEC 2). */
export function inContractOrder<L extends ApiList>(list: L, record: Dump[L][number]): Dump[L][number] {
  const ordered: Record<string, unknown> = {};
  for (const key of Object.keys(CONTRACT_FIELDS[list]))
    ordered[key] = (record as unknown as Record<string, unknown>)[key];
  return ordered as unknown as Dump[L][number];
}
