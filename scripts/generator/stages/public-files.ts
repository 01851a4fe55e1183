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
  // Most builds have no conflict: one set of every path tells (a set's size grows by one for each
  // new path), and the sources are looked for only when it does not grow. At 100,000 manuscripts
  // there are 850,000 paths, and a map of their owners cost twice the lookups.
  const paths = new Set<string>();
  const clashes = (written: string) => paths.size === paths.add(written).size;
  const any = groups.some(({ outputs }) =>
    outputs.some(
      (output) =>
        clashes(output.path) ||
        (output.precompress === true && PRECOMPRESSED.some((suffix) => clashes(`${output.path}${suffix}`))),
    ),
  );
  return any ? conflictsOf(groups) : [];
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
