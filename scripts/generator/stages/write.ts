/**
 * The write stage's commit point. What a build writes is made in a staging folder beside the output
 * folder, and nothing of the output changes before it is complete: a build that fails at any point
 * before its commit leaves the previous output exactly as it was, and one killed at any point leaves
 * what the next command settles (recoverOutput). A complete new output takes the output folder's
 * name (swap); a build that takes most of its files from the previous output moves only the files
 * it made into it, and removes the ones it no longer has (patch, shared/folder-patch.ts). How the
 * staging folder is filled (threads, which files are reused) is the engine's
 * (engine/write/site-writer.ts).
 */
import { mkdir } from 'node:fs/promises';
import { patchIn, recoverPatches, type Patch } from '../../shared/folder-patch.ts';
import { recoverSwap, swapIn, swapNames, type SwapSteps } from '../../shared/folder-swap.ts';
import { removeTree } from '../../shared/remove-tree.ts';
import { mendCacheFolder } from './cache-folder.ts';

export interface StagedOutput {
  /** Where the new output is made. */
  readonly folder: string;
  /** The staged output becomes the output: the previous one steps aside, the new one takes its name, the previous one goes. */
  swap(): Promise<void>;
  /** The output becomes the new one in place: the staged files move in, the removed ones go, the staging folder goes. */
  patch(patch: Patch): Promise<void>;
  /** Removes the staging folder. */
  discard(): Promise<void>;
}

/** An empty staging folder for `outDir`, named after this process so that two builds never share one. */
export async function stageOutput(outDir: string, steps?: SwapSteps): Promise<StagedOutput> {
  const { staging, previous } = swapNames(outDir, 'staging');
  await removeTree(staging);
  await mkdir(staging, { recursive: true });
  return {
    folder: staging,
    async swap() {
      await swapIn(outDir, staging, previous, steps);
    },
    async patch(patch) {
      await patchIn(outDir, staging, patch, steps);
      await removeTree(staging);
    },
    discard: () => removeTree(staging),
  };
}

/**
 * Settles what builds that no longer run left beside `outDir`: an interrupted update in place is
 * finished (shared/folder-patch.ts), an interrupted swap completed or undone (shared/folder-swap.ts),
 * the rest removed (`replaced` is what builds that moved files out of the previous output kept
 * aside), and a damaged build cache emptied. Returns what it did, for the user.
 */
export async function recoverOutput(outDir: string, cacheDir: string): Promise<string[]> {
  // A damaged journal leaves the output unknown: the cache's record of it goes, so nothing is reused.
  const patched = await recoverPatches(outDir, 'a build', () => removeTree(cacheDir));
  const swapped = await recoverSwap(outDir, {
    newRole: 'staging',
    scratch: ['replaced', 'journal', 'journaling'],
    who: 'a build',
  });
  // A damaged build cache made every command that writes it fail: it is disposable, and goes.
  return [...patched, ...swapped, ...(await mendCacheFolder(cacheDir))];
}
