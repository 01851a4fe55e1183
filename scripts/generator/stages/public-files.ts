/**
 * Renderer for `public/`: files copied into the output as they are (the 404 page, robots.txt,
 * the home page). Read here so that a clash with a generated path is found before anything is written.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PRECOMPRESSED, type OutputFile } from '../../shared/output-file.ts';
import type { Problem } from '../model/problems.ts';

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

/** Two outputs at one path: every conflicting source is named (as Eleventy does). */
export function findOutputConflicts(groups: { source: string; outputs: readonly OutputFile[] }[]): Problem[] {
  // Most builds have no conflict: a hash of every path, sorted, tells (only equal neighbours can
  // be one path twice), and the sources are looked for only when two hashes are equal. At 100,000
  // manuscripts there are 850,000 paths: a set of them was 33 MB of the heap until the next full
  // collection, where a build after an edit peaked, and took longer (about 0.25 s against 0.16 s).
  let count = 0;
  for (const { outputs } of groups)
    for (const output of outputs) count += output.precompress === true ? 1 + PRECOMPRESSED.length : 1;
  const hashes = new Float64Array(count);
  let at = 0;
  for (const { outputs } of groups)
    for (const output of outputs) {
      const hash = pathHash(output.path);
      hashes[at++] = joined(hash);
      if (output.precompress === true)
        for (const suffix of PRECOMPRESSED) hashes[at++] = joined(pathHash(suffix, hash));
    }
  hashes.sort();
  for (let i = 1; i < count; i++) if (hashes[i] === hashes[i - 1]) return conflictsOf(groups);
  return [];
}

/**
 * Two 32-bit hashes of `text` (FNV-1a and a multiply-xorshift), continuing from `from`: the hash
 * of a path's twin is its path's continued with the suffix, with no text made.
 */
function pathHash(text: string, from: readonly [number, number] = [0x811c9dc5, 0x9747b28c]): [number, number] {
  let [a, b] = from;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return [a, b];
}

/**
 * The two hashes as one number of 53 bits (exact in a double): at 850,000 paths, about one chance in
 * 25,000 that two paths share one, and then the sources are looked for and none is reported.
 */
function joined([a, b]: readonly [number, number]): number {
  return (a >>> 0) * 2 ** 21 + (b >>> 11);
}

/** Every path two sources write, reported at the second. */
function conflictsOf(groups: { source: string; outputs: readonly OutputFile[] }[]): Problem[] {
  const owners = new Map<string, string>();
  const problems: Problem[] = [];
  const claim = (written: string, source: string) => {
    const owner = owners.get(written);
    if (owner) {
      problems.push({
        code: 'output/conflict',
        file: source,
        line: 0,
        column: 0,
        field: '',
        message: `writes ${written}, which ${owner} writes too`,
        expected: 'one source per output path',
      });
    } else {
      owners.set(written, source);
    }
  };
  for (const { source, outputs } of groups) {
    for (const output of outputs) {
      claim(output.path, source);
      if (output.precompress) for (const suffix of PRECOMPRESSED) claim(`${output.path}${suffix}`, source);
    }
  }
  return problems;
}
