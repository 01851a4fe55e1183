/**
 * The one place that knows what a user-facing problem is and how it is printed.
 *
 * A problem is a mistake in the content (or in how the tool was called) that the user can fix.
 * Problems are collected, never thrown one at a time, so an editor sees every mistake in one run.
 * Internal bugs are ordinary exceptions and keep their stack traces.
 */
import { appendAll } from '../../shared/append-all.ts';

/** Stable codes: tests assert on these, never on the wording. */
export type ProblemCode =
  | 'io/unreadable'
  | 'io/unreadable-folder'
  | 'io/missing-folder'
  | 'io/not-a-file'
  | 'io/symlink'
  | 'io/not-utf8'
  | 'io/too-large'
  | 'io/unexpected-file'
  | 'parse/syntax'
  | 'parse/not-a-mapping'
  | 'parse/tag'
  | 'parse/escape'
  | 'parse/too-deep'
  | 'parse/line-endings'
  | 'parse/comment-in-value'
  | 'schema/missing'
  | 'schema/unknown-field'
  | 'schema/type'
  | 'schema/format'
  | 'schema/markup'
  | 'schema/too-long'
  | 'ref/duplicate-key'
  | 'ref/duplicate-id'
  | 'ref/duplicate-label'
  | 'ref/unknown-author'
  | 'ref/unknown-volume'
  | 'ref/ambiguous-volume'
  | 'ref/volume-disagrees'
  | 'ref/unknown-section'
  | 'ref/issn-mismatch'
  | 'media/missing'
  | 'media/not-pdf'
  | 'media/outside-content'
  | 'media/symlink'
  // Warnings: printed, never fatal (Problem.severity)
  | 'warn/keywords-separator'
  | 'warn/markup-repair'
  | 'warn/plain-text'
  | 'warn/example-domain'
  | 'warn/volume-id'
  | 'warn/volume-date'
  | 'warn/oai-static-repository'
  | 'output/conflict'
  | 'output/shrink'
  // A limit of a host named in `hosts` (docs/hosting/)
  | 'host/limit'
  // Importing an existing deployment (docs/importing.md)
  | 'import/fetch'
  | 'import/dump-shape'
  | 'import/not-representable'
  | 'import/volume-ids'
  | 'import/not-empty'
  | 'import/media'
  | 'import/round-trip'
  | 'usage'
  // The Crossref deposit (docs/crossref.md)
  | 'crossref/missing'
  | 'crossref/doi-prefix'
  | 'crossref/duplicate-doi'
  | 'crossref/name'
  // Warnings: reported, never fatal (issn-warnings.ts)
  | 'warning/issn-check-digit';

export interface Problem {
  code: ProblemCode;
  /** Path relative to the project root, with forward slashes (e.g. `content/authors/a.yaml`). */
  file: string;
  /** 1-based; 0 when the problem concerns the file as a whole. */
  line: number;
  column: number;
  /** Field path as an editor reads it: `authors[1]`, `citation_volume`; empty for the whole file. */
  field: string;
  /** What is wrong. */
  message: string;
  /** What was expected, printed in parentheses. */
  expected?: string;
  /**
   * A warning is printed and the build goes on: what is accepted because data already published
   * holds it (an import must build as the original published it), but an editor should not write.
   */
  severity?: 'warning';
}

/** Takes the warnings out of `problems` (in place) and returns them. */
export function takeWarnings(problems: Problem[]): Problem[] {
  const warnings = problems.filter((p) => p.severity === 'warning');
  if (warnings.length === 0) return warnings;
  const errors = problems.filter((p) => p.severity !== 'warning');
  problems.length = 0;
  appendAll(problems, errors);
  return warnings.sort(compareProblems);
}

/**
 * Whether a problem says a whole content folder was not read (missing, unreadable, or a link):
 * its records are unknown, so references to them are not checked against an empty collection.
 */
export function isUnreadFolder(p: Problem): boolean {
  return (
    p.line === 0 &&
    p.file.endsWith('/') &&
    (p.code === 'io/missing-folder' || p.code === 'io/unreadable-folder' || p.code === 'io/symlink')
  );
}

export function formatProblem(p: Problem): string {
  const where = p.line > 0 ? `${p.file}:${p.line}:${p.column}` : p.file;
  const field = p.field ? ` ${p.field}` : '';
  const expected = p.expected ? ` (${p.expected})` : '';
  return `${where}${field}: ${p.message}${expected}`;
}

function compareProblems(a: Problem, b: Problem): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return a.line - b.line || a.column - b.column || (a.field < b.field ? -1 : a.field > b.field ? 1 : 0);
}

/**
 * One report for the whole run: grouped by file (a blank line between files), sorted by position,
 * capped so that ten thousand broken files still give a readable report.
 */
export function formatReport(problems: readonly Problem[], limit = 200): string {
  const sorted = [...problems].sort(compareProblems);
  const shown = sorted.slice(0, limit);
  const lines: string[] = [];
  let previousFile: string | undefined;
  for (const p of shown) {
    if (previousFile !== undefined && p.file !== previousFile) lines.push('');
    lines.push(formatProblem(p));
    previousFile = p.file;
  }
  const files = new Set(sorted.map((p) => p.file)).size;
  if (sorted.length > shown.length) {
    // Ten thousand broken files still give a report that fits a screen: the rest is
    // counted, by file and by kind, so the size and the nature of the damage are both visible.
    const hidden = sorted.slice(limit);
    const hiddenFiles = new Set(hidden.map((p) => p.file));
    if (previousFile !== undefined) hiddenFiles.delete(previousFile);
    const byCode = new Map<string, number>();
    for (const p of sorted) byCode.set(p.code, (byCode.get(p.code) ?? 0) + 1);
    const kinds = [...byCode].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([code, n]) => `${n} ${code}`);
    lines.push(
      '',
      `${hiddenFiles.size ? `${hiddenFiles.size} more files have problems not shown. ` : ''}By kind: ${kinds.join(', ')}.`,
    );
    lines.push(`... and ${hidden.length} more problems not shown.`);
  }
  lines.push(
    '',
    `${sorted.length} problem${sorted.length === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'}.`,
  );
  return lines.join('\n');
}

/**
 * The same problems as GitHub Actions workflow commands (`--format github`): one
 * `::error file=...,line=...,col=...::` line per problem (`::warning` for a warning), so a pull
 * request shows each on the file and line it concerns. Every problem is printed (no cap): each one
 * is an annotation. `warnings` are the ones that concern no file.
 */
export function formatGithubAnnotations(problems: readonly Problem[], warnings: readonly string[] = []): string {
  const lines = [...problems].sort(compareProblems).map((p) => {
    const properties = [`file=${escapeProperty(p.file)}`];
    if (p.line > 0) properties.push(`line=${p.line}`, `col=${Math.max(p.column, 1)}`);
    if (p.field) properties.push(`title=${escapeProperty(p.field)}`);
    const expected = p.expected ? ` (${p.expected})` : '';
    return `::${p.severity === 'warning' ? 'warning' : 'error'} ${properties.join(',')}::${escapeData(`${p.field ? `${p.field}: ` : ''}${p.message}${expected}`)}`;
  });
  for (const warning of warnings) lines.push(`::warning::${escapeData(warning)}`);
  return lines.join('\n');
}

/** GitHub's escaping for a command's message... */
function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** ...and, stricter, for its `key=value` properties. */
function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** Suggest the closest known name for a mistyped one (Levenshtein distance, small typos only). */
export function nearest(wanted: string, known: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(wanted.length / 3)) + 1;
  for (const candidate of known) {
    if (Math.abs(candidate.length - wanted.length) >= bestDistance) continue;
    const d = editDistance(wanted, candidate, bestDistance);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/** Edit distance counting a swap of two neighbouring letters as one edit (`titel` → `title`), capped. */
function editDistance(a: string, b: string, cap: number): number {
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, beforePrevious[j - 2]! + 1);
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin >= cap) return cap;
    beforePrevious = previous;
    previous = current;
  }
  return previous[b.length]!;
}
