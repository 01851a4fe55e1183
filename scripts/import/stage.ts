/**
 * Never half-written: the new content tree is filled and checked in a folder beside
 * `content/`, and only then swapped in. Any failure, or any problem the filling reports, removes
 * the staging folder and leaves `content/` exactly as it was; a kill leaves what recoverContent
 * settles.
 */
import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Problem } from '../generator/model/problems.ts';
import { recoverSwap, swapIn, swapNames, type SwapSteps } from '../shared/folder-swap.ts';
import { processRuns } from '../shared/processes.ts';
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

/**
 * Fills a new content tree beside `contentDir` and swaps it in (shared/folder-swap.ts): an import
 * killed at any instant leaves `content/` as it was or the new tree, once the next command has run
 * recoverContent.
 */
export async function replaceContentTree(
  { folder: contentDir, steps }: { folder: string; steps?: SwapSteps | undefined },
  fill: (staging: string) => Promise<Problem[]>,
): Promise<Problem[]> {
  const { staging, previous } = swapNames(contentDir, 'import');
  await removeTree(staging);
  await mkdir(staging, { recursive: true });
  try {
    const problems = await fill(staging);
    if (problems.length > 0) {
      await removeTree(staging);
      return problems;
    }
    await swapIn(contentDir, staging, previous, steps);
    return [];
  } catch (error) {
    await removeTree(staging);
    throw error;
  }
}

/**
 * Settles what imports that no longer run left beside `contentDir`: a swap interrupted between its
 * two renames is completed (the new tree was complete and checked before it began) or undone, and
 * their staging folders, and the output and cache their check built (`.content-import-<pid>-verify`,
 * `-cache`, verify.ts), are removed. Returns what it did, for the user.
 */
export async function recoverContent(contentDir: string): Promise<string[]> {
  const done = await recoverSwap(contentDir, { newRole: 'import', scratch: [], who: 'an import' });
  const parent = path.dirname(contentDir);
  const checks = new RegExp(`^\\.\\.?${escapeRegex(path.basename(contentDir))}-import-(\\d+)-`);
  for (const name of await readdir(parent).catch(() => [] as string[])) {
    const found = checks.exec(name);
    if (found && !processRuns(Number(found[1]))) await removeTree(path.join(parent, name));
  }
  return done;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
