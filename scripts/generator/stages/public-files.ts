/**
 * Renderer for `public/`: files copied into the output as they are (a favicon, a verification
 * file; the 404 page, robots.txt and the home page are rendered). Read here so that a clash with a generated path is found before anything is written.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PRECOMPRESSED, type OutputFile } from '../../shared/output-file.ts';
import { fnv1a } from '../../shared/text-hash.ts';
import type { Problem } from '../model/problems.ts';
import { findFolderClashes } from './page-folders.ts';
import { caseTwinsMessage, foldCase } from './case-fold.ts';

export async function readPublicFiles(
  projectRoot: string,
  publicDir: string,
): Promise<{ outputs: OutputFile[]; problems: Problem[] }> {
  // Loaded here, by a build only: `check` renders nothing, and the library takes 30 ms to load.
  const { default: fg } = await import('fast-glob');
  const entries = await fg('**/*', {
    cwd: publicDir,
    dot: false,
    onlyFiles: false,
    followSymbolicLinks: false,
    objectMode: true,
  });
  entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const outputs: OutputFile[] = [];
  const problems: Problem[] = [];
  for (const entry of entries) {
    const absolute = path.join(publicDir, entry.path);
    const file = path.relative(projectRoot, absolute).split(path.sep).join('/');
    if (entry.dirent.isSymbolicLink()) {
      problems.push({
        code: 'io/symlink',
        file,
        line: 0,
        column: 0,
        field: '',
        message: 'is a symbolic link',
        expected: 'a regular file',
      });
    } else if (entry.dirent.isFile()) {
      outputs.push({ path: entry.path, body: await readFile(absolute) });
    }
  }
  return { outputs, problems };
}

/**
 * Two outputs at one path: every conflicting source is named (as Eleventy does). Two paths that
 * differ only in upper/lower case are one path too where case is ignored (case-fold.ts): a Windows
 * or macOS disk, some hosts.
 */
export function findOutputConflicts(groups: { source: string; outputs: readonly OutputFile[] }[]): Problem[] {
  // Most builds have no conflict: a hash of every path, folded, sorted, tells (only equal
  // neighbours can be one path twice, as written or once folded), and the sources are looked for
  // only when two hashes are equal. At 100,000 manuscripts there are 850,000 paths: a set of them
  // was 33 MB of the heap until the next full collection, where a build after an edit peaked, and
  // took longer (about 0.25 s against 0.16 s).
  let count = 0;
  for (const { outputs } of groups)
    for (const output of outputs) count += output.precompress === true ? 1 + PRECOMPRESSED.length : 1;
  const hashes = new Float64Array(count);
  let at = 0;
  for (const { outputs } of groups)
    for (const output of outputs) {
      hashFolded(output.path);
      const [first, second] = [folded.first, folded.second];
      hashes[at++] = joined(first, second);
      if (output.precompress === true)
        for (const suffix of PRECOMPRESSED)
          hashes[at++] = joined(fnv1a(suffix, 0, suffix.length, first), mixHash(suffix, second));
    }
  hashes.sort();
  for (let i = 1; i < count; i++)
    if (hashes[i] === hashes[i - 1]) return [...conflictsOf(groups), ...findFolderClashes(groups)];
  return findFolderClashes(groups);
}

const MIX_SEED = 0x9747b28c;
/** The two hashes hashFolded gives (set there, so that 850,000 paths make no array each). */
const folded = { first: 0, second: 0 };

/**
 * FNV-1a and mixHash of `path` folded as foldCase folds it, into `folded`: an ASCII path (nearly
 * all) is folded letter by letter as it is hashed, with no string made.
 */
function hashFolded(path: string): void {
  let first = 0x811c9dc5;
  let second = MIX_SEED;
  for (let i = 0; i < path.length; i++) {
    let code = path.charCodeAt(i);
    if (code > 0x7f) {
      const text = foldCase(path);
      folded.first = fnv1a(text);
      folded.second = mixHash(text);
      return;
    }
    if (code >= 0x41 && code <= 0x5a) code += 0x20;
    first = Math.imul(first ^ code, 0x01000193);
    second = Math.imul(second ^ code, 0x5bd1e995);
    second ^= second >>> 15;
  }
  folded.first = first | 0;
  folded.second = second;
}

/**
 * A second 32-bit hash of `text` beside FNV-1a (multiply and xorshift, as MurmurHash mixes),
 * continuing from `from` as fnv1a does: two paths rarely share both.
 */
function mixHash(text: string, from = MIX_SEED): number {
  let hash = from;
  for (let i = 0; i < text.length; i++) {
    hash = Math.imul(hash ^ text.charCodeAt(i), 0x5bd1e995);
    hash ^= hash >>> 15;
  }
  return hash;
}

/**
 * The two hashes as one number of 53 bits (exact in a double): at 850,000 paths, about one chance in
 * 25,000 that two paths share one, and then the sources are looked for and none is reported.
 */
function joined(first: number, second: number): number {
  return (first >>> 0) * 2 ** 21 + (second >>> 11);
}

/**
 * Every path two sources write, reported at the second; every two paths that differ only in case,
 * at both sources (once when one source writes both). A precompressed file's twins are not reported
 * again when the file itself is.
 */
function conflictsOf(groups: { source: string; outputs: readonly OutputFile[] }[]): Problem[] {
  const owners = new Map<string, string>();
  const byFolded = new Map<string, { path: string; source: string; twin: boolean }>();
  const problems: Problem[] = [];
  const conflict = (file: string, message: string, expected: string): void => {
    problems.push({ code: 'output/conflict', file, line: 0, column: 0, field: '', message, expected });
  };
  const claim = (written: string, source: string, twin: boolean) => {
    const owner = owners.get(written);
    if (owner) return conflict(source, `writes ${written}, which ${owner} writes too`, 'one source per output path');
    owners.set(written, source);
    const folding = foldCase(written);
    const first = byFolded.get(folding);
    if (!first) return void byFolded.set(folding, { path: written, source, twin });
    if (twin && first.twin) return;
    const expected = 'output paths that differ in more than upper/lower case: rename one';
    if (first.source === source) {
      const both = caseTwinsMessage(first.path, `${written}, both of which it writes,`, first.path, written);
      return conflict(source, both, expected);
    }
    const message = (path: string, other: string, otherSource: string) =>
      caseTwinsMessage(`${path}, which it writes,`, `${other}, which ${otherSource} writes,`, path, other);
    conflict(source, message(written, first.path, first.source), expected);
    conflict(first.source, message(first.path, written, source), expected);
  };
  for (const { source, outputs } of groups) {
    for (const output of outputs) {
      claim(output.path, source, false);
      if (output.precompress) for (const suffix of PRECOMPRESSED) claim(`${output.path}${suffix}`, source, true);
    }
  }
  return problems;
}
