/** Positions for problems of records restored from the check index, which keep none. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import { UNLOCATED } from '../../model/records.ts';

import { parseFile } from '../../stages/parse.ts';
import type { Problem } from '../../model/problems.ts';

/**
 * Gives each problem found in a record restored from the index the line and column it would have had
 * (`UNLOCATED` until then): the file is parsed again, once, and the field looked up as `load.ts` does.
 */
export async function locateProblems(problems: Problem[], projectRoot: string): Promise<void> {
  const unlocated = new Map<string, Problem[]>();
  for (const problem of problems) {
    if (problem.line !== UNLOCATED.line) continue;
    const list = unlocated.get(problem.file);
    if (list) list.push(problem);
    else unlocated.set(problem.file, [problem]);
  }
  for (const [file, list] of unlocated) {
    const bytes = await readFile(path.join(projectRoot, file)).catch(() => undefined);
    const parsed = bytes ? parseFile(file, bytes).parsed : undefined;
    for (const problem of list) {
      const position = parsed ? parsed.locate(fieldPath(problem.field)) : { line: 0, column: 0 };
      problem.line = position.line;
      problem.column = position.column;
    }
  }
}

/** `authors[2]` → `['authors', 2]` (validate.ts, fieldName, the other way round). */
function fieldPath(field: string): (string | number)[] {
  const steps: (string | number)[] = [];
  for (const match of field.matchAll(/([^.[\]]+)|\[(\d+)\]/g))
    steps.push(match[2] !== undefined ? Number(match[2]) : match[1]!);
  return steps;
}
