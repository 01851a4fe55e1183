/**
 * The plan's problems: each names the dump's list (its label), the record's index and field, so a
 * value the build would refuse is reported where it is, instead of being changed.
 */
import type { z } from 'zod';
import type { Problem } from '../generator/model/problems.ts';
import type { IssueParams } from '../generator/model/schema.ts';
import { fieldName } from '../generator/stages/validate.ts';
import type { ApiList } from '../shared/contract.ts';

export type Report = (
  list: ApiList | 'journal',
  field: string,
  code: Problem['code'],
  message: string,
  expected?: string,
) => void;

/** Checks a planned record with one of the build's own schemas (scripts/generator/model/schema.ts). */
export type Check = (list: ApiList | 'journal', at: string, schema: z.ZodType, data: unknown) => void;

/**
 * `refused` collects the values the build refuses: they do not stop the import (the record is
 * written as it is, and the build names it at its file and line for an editor to fix).
 */
export function problemReporter(
  problems: Problem[],
  labels: Record<ApiList, string>,
  refused: Problem[] = problems,
): { report: Report; check: Check } {
  const report: Report = (list, field, code, message, expected) => {
    problems.push({
      code,
      file: list === 'journal' ? 'content/journal.yaml' : labels[list],
      line: 0,
      column: 0,
      field,
      message,
      ...(expected ? { expected } : {}),
    });
  };
  const check: Check = (list, at, schema, data) => {
    const result = schema.safeParse(data);
    if (result.success) return;
    for (const issue of result.error.issues) {
      const params = (issue as { params?: Partial<IssueParams> }).params;
      refused.push({
        code: 'import/not-representable',
        file: list === 'journal' ? 'content/journal.yaml' : labels[list],
        line: 0,
        column: 0,
        field: fieldName([at, ...issue.path]).replace(/^journal\./, ''),
        message: `${issue.message}: the build refuses it`,
        ...(params?.expected ? { expected: params.expected } : {}),
      });
    }
  };
  return { report, check };
}
