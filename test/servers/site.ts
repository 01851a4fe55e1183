/**
 * The site every server test serves: the shipped sample journal (`content/`), built by the real
 * build into a temp folder that the servers' worker users (www-data, nobody) can read.
 */
import { chmod, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { build } from '../../scripts/generator/build.ts';
import { formatReport } from '../../scripts/generator/model/problems.ts';
import { projectPaths } from '../../scripts/project.ts';
import { REPO_ROOT } from '../helpers/workspace.ts';

export interface BuiltSite {
  /** The built output folder: what a journal uploads. */
  dist: string;
  /** A folder for the servers' own files (configs, pid files, logs), beside `dist`. */
  scratch(name: string): string;
  dispose(): Promise<void>;
}

/** Builds the journal of `projectRoot` (its `content/`): the shipped sample unless another is given. */
export async function buildSample(projectRoot = REPO_ROOT): Promise<BuiltSite> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'journal-servers-'));
  // Output and build cache both in the scratch folder: server tests run in parallel, and must not
  // share a cache with each other or with a developer's own builds.
  const locations = { out: path.join(dir, 'dist'), cache: path.join(dir, 'cache') };
  const paths = projectPaths(projectRoot, locations);
  try {
    const result = await build(paths, 'build');
    if (!result.ok) throw new Error(`the sample journal does not build:\n${formatReport(result.problems)}`);
    // mkdtemp makes the folder private; server workers run as another user and must read it.
    await chmod(dir, 0o755);
    await makeReadable(paths.out);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    dist: paths.out,
    scratch: (name) => path.join(dir, name),
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}

/** Every folder and file under `folder` readable by the servers' worker users. */
export async function makeReadable(folder: string): Promise<void> {
  await chmod(folder, 0o755);
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const target = path.join(folder, entry.name);
    if (entry.isDirectory()) await makeReadable(target);
    else await chmod(target, 0o644);
  }
}
