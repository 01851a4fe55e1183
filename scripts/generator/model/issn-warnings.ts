/**
 * ISSN check digits (ISO 3297), checked wherever the content writes an ISSN: the journal's print
 * and online ISSN, a volume's and a manuscript's `citation_issn`. A wrong one is a warning, never a
 * problem: an imported deployment publishes its ISSN as it was, and must round-trip byte for byte.
 */
import type { Position } from './records.ts';
import type { Problem } from './problems.ts';
import { issnCheckDigit, issnCompact } from './identifiers.ts';

/** The fields that hold an ISSN, in the files that may have them. */
const ISSN_FIELDS = ['citation_issn', 'online_issn'] as const;

/** The warning for an ISSN whose last character is not its check digit; undefined when it is, or when there is none. */
function issnCheckWarning(file: string, field: string, value: unknown, at: Position): Problem | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  const compact = issnCompact(value);
  if (!/^\d{7}[\dX]$/.test(compact)) return undefined;
  const check = issnCheckDigit(compact.slice(0, 7));
  if (compact[7] === check) return undefined;
  const corrected = `${value.slice(0, -1)}${check}`;
  return {
    code: 'warning/issn-check-digit',
    severity: 'warning',
    file,
    ...at,
    field,
    message: `the check digit of "${value}" is ${compact[7]}, but its first seven digits give ${check}`,
    expected: `"${corrected}" if the first seven digits are right; an ISSN published with a wrong check digit may stay as it is`,
  };
}

/** The warnings for every ISSN of a record, each at its field (`locate` gives a field's position). */
export function issnWarningsOf(
  file: string,
  record: Readonly<Record<string, unknown>>,
  locate: (field: string) => Position,
): Problem[] {
  const warnings: Problem[] = [];
  for (const field of ISSN_FIELDS) {
    if (!(field in record)) continue;
    const warning = issnCheckWarning(file, field, record[field], locate(field));
    if (warning) warnings.push(warning);
  }
  return warnings;
}
