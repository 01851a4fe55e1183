/**
 * Never half-written: the new content tree is filled and checked in a folder beside
 * `content/`, and only then swapped in. Any failure, or any problem the filling reports, removes
 * the staging folder and leaves `content/` exactly as it was.
 */
import { mkdir, readdir, rename } from 'node:fs/promises';
import path from 'node:path';
import type { Problem } from '../generator/model/problems.ts';
import { removeTree } from '../shared/remove-tree.ts';

/** Entries that do not make a content tree "non-empty": an empty repository keeps its folder with these. */
const IGNORED = new Set(['.gitkeep', '.DS_Store']);

export async function existingEntries(contentDir: string): Promise<string[]> {
  const entries = await readdir(contentDir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw error;
  });
  return entries.filter((name) => !IGNORED.has(name)).sort();
}

export async function replaceContentTree(
  contentDir: string,
  fill: (staging: string) => Promise<Problem[]>,
): Promise<Problem[]> {
  const parent = path.dirname(contentDir);
  const base = path.basename(contentDir);
  const staging = path.join(parent, `.${base}-import-${process.pid}`);
  const previous = path.join(parent, `.${base}-previous-${process.pid}`);
  await removeTree(staging);
  await mkdir(staging, { recursive: true });
  try {
    const problems = await fill(staging);
    if (problems.length > 0) {
      await removeTree(staging);
      return problems;
    }
    // Swap: the old tree steps aside, the new one takes its name, the old one goes.
    const hadPrevious = await rename(contentDir, previous).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return false;
        throw error;
      },
    );
    try {
      await rename(staging, contentDir);
    } catch (error) {
      if (hadPrevious) await rename(previous, contentDir);
      throw error;
    }
    if (hadPrevious) await removeTree(previous);
    return [];
  } catch (error) {
    await removeTree(staging);
    throw error;
  }
}
