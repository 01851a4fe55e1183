/**
 * Stage 3: check one parsed file against its schema. Every zod issue becomes a located problem:
 * `field` reads like `authors[1]`, and the line comes from the YAML node, not from a search.
 */
import type { z } from 'zod';
import { positionIn, type ParsedFile, type Position } from './parse.ts';
import { nearest, type Problem, type ProblemCode } from '../model/problems.ts';
import {
  authorSchema,
  journalSchema,
  manuscriptSchema,
  volumeSchema,
  type IssueParams,
  type ManuscriptInput,
} from '../model/schema.ts';
import {
  PLAIN_TEXT_FIELDS,
  manuscriptWarnings,
  plainTextWarnings,
  type ContentWarning,
} from '../model/content-warnings.ts';

/** What a valid record of a schema is checked for once it is valid: warnings, never fatal. */
const WARNINGS = new Map<z.ZodType, (value: unknown) => ContentWarning[]>([
  [manuscriptSchema, (value) => manuscriptWarnings(value as ManuscriptInput)],
  [authorSchema, (value) => plainTextWarnings(value as object, PLAIN_TEXT_FIELDS.authors)],
  [volumeSchema, (value) => plainTextWarnings(value as object, PLAIN_TEXT_FIELDS.volumes)],
  [journalSchema, (value) => plainTextWarnings(value as object, PLAIN_TEXT_FIELDS.journal)],
]);

function warningProblems(parsed: ParsedFile, warnings: readonly ContentWarning[]): Problem[] {
  return warnings.map((warning) => ({
    code: warning.code,
    file: parsed.file,
    ...((warning.offset === undefined ? undefined : locateInside(parsed, warning.path, warning.offset)) ??
      parsed.locate(warning.path)),
    field: fieldName(warning.path),
    message: warning.message,
    expected: warning.expected,
    severity: 'warning' as const,
  }));
}

export function validate<S extends z.ZodType>(
  parsed: ParsedFile,
  schema: S,
): { value?: z.output<S>; problems: Problem[] } {
  const result = schema.safeParse(parsed.data);
  const cut = commentsInValues(parsed);
  if (result.success) {
    const warn = WARNINGS.get(schema);
    return { value: result.data, problems: [...cut, ...(warn ? warningProblems(parsed, warn(result.data)) : [])] };
  }
  const problems: Problem[] = cut;
  // A misspelt field is one mistake: "did you mean" at the misspelling, and no second report that
  // the field it resembles is missing.
  const guesses = new Map<string, string>();
  for (const issue of result.error.issues) {
    if (issue.code !== 'unrecognized_keys') continue;
    const known = knownKeys(schema);
    for (const key of issue.keys) {
      const guess = nameEndingIn(key, known) ?? nearest(key, known);
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
          ...(guess ? {} : { expected: `one of: ${knownKeys(schema).join(', ')}` }),
        });
      }
      continue;
    }
    const params = (issue as { params?: Partial<IssueParams> }).params;
    if (params?.code === 'schema/missing' && guessed.has(fieldName(issue.path))) continue;
    const inside = params?.offset === undefined ? undefined : locateInside(parsed, issue.path, params.offset);
    const message = asWritten(parsed, issue.path, params?.code ? issue.message : `is not valid: ${issue.message}`);
    problems.push({
      code: params?.code ?? codeFor(issue.code),
      file: parsed.file,
      ...(inside ?? parsed.locate(issue.path)),
      field: fieldName(issue.path),
      message:
        params?.offset === undefined || inside ? message : `${message}, at character ${params.offset + 1} of the text`,
      ...(params?.expected ? { expected: params.expected } : {}),
    });
  }
  return { problems };
}

/**
 * A JSON number in a message as the editor wrote it: `1e400` is read as Infinity, which JSON writes
 * `null`, and `-0` as 0, so the message would name a number the file does not hold.
 */
function asWritten(parsed: ParsedFile, path: readonly PropertyKey[], message: string): string {
  let value: unknown = parsed.data;
  for (const step of path) value = (value as Record<PropertyKey, unknown> | undefined)?.[step];
  if (typeof value !== 'number') return message;
  const read = `the number ${JSON.stringify(value)}`;
  if (!message.includes(read)) return message;
  const at = parsed.locate(path);
  let from = 0;
  for (let line = 1; line < at.line && from >= 0; line++) from = parsed.text.indexOf('\n', from) + 1;
  const written = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(parsed.text.slice(from + at.column - 1))?.[0];
  return written === undefined ? message : message.replace(read, `the number ${written}`);
}

/** A plain value followed by ` #` and a character other than a space: likely part of the value. */
const CUT_BY_COMMENT = /[ \t]#[^\s]/;

/**
 * Plain (unquoted) values that YAML cuts at ` #`: `citation_title: Newts #1 of Ohrid` reads as
 * "Newts" and a comment, and the published title would silently lose its end. A comment written
 * as comments are (`# text`, a space after the `#`) is left alone: files use them on purpose.
 */
function commentsInValues(parsed: ParsedFile): Problem[] {
  const text = parsed.text;
  if (!CUT_BY_COMMENT.test(text) || parsed.file.endsWith('.json')) return [];
  const problems: Problem[] = [];
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const lineText = (line: number): string | undefined => {
    const start = lineStarts[line - 1];
    if (start === undefined) return undefined;
    const end = text.indexOf('\n', start);
    return text.slice(start, end < 0 ? text.length : end).replace(/\r$/, '');
  };
  const visit = (value: unknown, path: PropertyKey[], depth: number): void => {
    if (typeof value === 'string') {
      if (value === '') return;
      const at = parsed.locate(path);
      const line = lineText(at.line);
      if (line === undefined) return;
      const rest = line.slice(at.column - 1);
      if ('"\'|>'.includes(rest[0] ?? '"')) return;
      // The value's last line, from where the value is on it: the first line, or a later one of a
      // plain value written over several lines (folded with one space between lines).
      let last = { line: at.line, column: at.column, text: rest, piece: value };
      if (!rest.startsWith(value)) {
        const head = rest.trimEnd();
        if (value.includes('\n') || !value.startsWith(head)) return;
        let left = value.slice(head.length);
        for (let n = at.line + 1; ; n++) {
          const next = lineText(n);
          if (next === undefined || !left.startsWith(' ')) return;
          const content = next.trimStart();
          const piece = left.slice(1);
          if (content.startsWith(piece)) {
            last = { line: n, column: next.length - content.length + 1, text: content, piece };
            break;
          }
          const whole = content.trimEnd();
          if (whole === '' || !piece.startsWith(`${whole} `)) return;
          left = piece.slice(whole.length);
        }
      }
      const tail = last.text.slice(last.piece.length);
      const comment = /^[ \t]+(#\S.*)$/.exec(tail);
      if (!comment) return;
      const hash = last.column + last.text.length - comment[1]!.length;
      const whole = `${value}${tail}`.trimEnd();
      const before = line.slice(0, at.column - 1).trim();
      const dropped = tail.trimEnd();
      problems.push({
        code: 'parse/comment-in-value',
        file: parsed.file,
        line: last.line,
        column: hash,
        field: fieldName(path),
        message: `has ${JSON.stringify(dropped)} after ${JSON.stringify(value)}, which YAML reads as a comment: only ${JSON.stringify(value)} would be published`,
        expected: `the whole value in quotes: ${before ? `${before} ` : ''}"${whole.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`,
      });
      return;
    }
    if (value === null || typeof value !== 'object' || depth > 4) return;
    if (Array.isArray(value)) value.forEach((item, i) => visit(item, [...path, i], depth + 1));
    else for (const [key, item] of Object.entries(value)) visit(item, [...path, key], depth + 1);
  };
  visit(parsed.data, [], 0);
  return problems;
}

/**
 * The one known field whose name ends in `_<key>`: `title` and `date` are `citation_title` and
 * `citation_date` in a manuscript, `full_date` in a volume (the contract's names, SPEC 2.2 and 2.3).
 */
function nameEndingIn(key: string, known: readonly string[]): string | undefined {
  const found = known.filter((name) => name.endsWith(`_${key}`));
  return found.length === 1 ? found[0] : undefined;
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

/**
 * The line and column in the file of character `offset` of the text value at `path`. A value's
 * characters are not its source's (a folded block joins lines, a quoted text has escapes), so the
 * run of characters from `offset` to the next white space, which no folding splits, is looked for
 * in the source from the value's start: the same occurrence as in the value. Undefined when the
 * source spells it otherwise (an escape inside the run): the field's position is used then.
 */
function locateInside(parsed: ParsedFile, path: readonly PropertyKey[], offset: number): Position | undefined {
  let value: unknown = parsed.data;
  for (const step of path) value = (value as Record<PropertyKey, unknown> | undefined)?.[step];
  if (typeof value !== 'string') return undefined;
  const run = /^\S{1,40}/.exec(value.slice(offset))?.[0];
  if (!run) return undefined;
  let before = 0;
  for (let at = value.indexOf(run); at >= 0 && at < offset; at = value.indexOf(run, at + 1)) before++;
  const text = parsed.text;
  const start = parsed.locate(path);
  let from = 0;
  for (let line = 1; line < start.line; line++) from = text.indexOf('\n', from) + 1;
  from += start.column - 1;
  let found = text.indexOf(run, from);
  for (let k = 0; k < before && found >= 0; k++) found = text.indexOf(run, found + 1);
  return found < 0 ? undefined : positionIn(text, found);
}
