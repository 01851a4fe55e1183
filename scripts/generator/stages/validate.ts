/**
 * Stage 3: check one parsed file against its schema. Every zod issue becomes a located problem:
 * `field` reads like `authors[1]`, and the line comes from the YAML node, not from a search.
 */
import type { z } from 'zod';
import type { ParsedFile } from './parse.ts';
import { nearest, type Problem, type ProblemCode } from '../model/problems.ts';
import type { IssueParams } from '../model/schema.ts';

export function validate<S extends z.ZodType>(
  parsed: ParsedFile,
  schema: S,
): { value?: z.output<S>; problems: Problem[] } {
  const result = schema.safeParse(parsed.data);
  if (result.success) return { value: result.data, problems: [] };
  const problems: Problem[] = [];
  // A misspelt field is one mistake: "did you mean" at the misspelling, and no second report that
  // the field it resembles is missing.
  const guesses = new Map<string, string>();
  for (const issue of result.error.issues) {
    if (issue.code !== 'unrecognized_keys') continue;
    const known = knownKeys(schema);
    for (const key of issue.keys) {
      const guess = nearest(key, known);
      if (guess !== undefined && !(guess in (parsed.data as Record<string, unknown>)))
        guesses.set(fieldName([...issue.path, key]), fieldName([...issue.path, guess]));
    }
  }
  const guessed = new Set(guesses.values());
  for (const issue of result.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const field = fieldName([...issue.path, key]);
        const guess = guesses.get(field);
        problems.push({
          code: 'schema/unknown-field',
          file: parsed.file,
          ...parsed.locateKey(issue.path, key),
          field,
          message: guess ? `is not a known field; did you mean "${guess}"?` : 'is not a known field',
          expected: guess ? `the field name ${guess}` : `one of: ${knownKeys(schema).join(', ')}`,
        });
      }
      continue;
    }
    const params = (issue as { params?: Partial<IssueParams> }).params;
    if (params?.code === 'schema/missing' && guessed.has(fieldName(issue.path))) continue;
    problems.push({
      code: params?.code ?? codeFor(issue.code),
      file: parsed.file,
      ...parsed.locate(issue.path),
      field: fieldName(issue.path),
      message: params?.code ? issue.message : `is not valid: ${issue.message}`,
      ...(params?.expected ? { expected: params.expected } : {}),
    });
  }
  return { problems };
}

function codeFor(zodCode: string): ProblemCode {
  return zodCode === 'invalid_type' ? 'schema/type' : 'schema/format';
}

/** `['authors', 1]` → `authors[1]`; list positions are 0-based, as in the data. */
export function fieldName(path: readonly PropertyKey[]): string {
  let name = '';
  for (const step of path) name += typeof step === 'number' ? `[${step}]` : name ? `.${String(step)}` : String(step);
  return name;
}

function knownKeys(schema: z.ZodType): string[] {
  const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape;
  return shape ? Object.keys(shape) : [];
}
