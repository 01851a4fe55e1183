/**
 * The write stage's commit point. A new output is made in a staging folder beside the output
 * folder, and only a complete one takes the output folder's name: a build that fails at any point,
 * before the swap, leaves the previous output exactly as it was, and one killed at any point leaves
 * what the next command settles (recoverOutput). How the staging folder is filled (threads, files
 * linked from the previous output, which stays whole while it is served) is the engine's
 * (engine/write/site-writer.ts).
 */
import { mkdir } from 'node:fs/promises';
import { recoverSwap, swapIn, swapNames, type SwapSteps } from '../../shared/folder-swap.ts';
import { removeTree } from '../../shared/remove-tree.ts';

export interface StagedOutput {
  /** Where the new output is made. */
  readonly folder: string;
  /** The staged output becomes the output: the previous one steps aside, the new one takes its name, the previous one goes. */
  swap(): Promise<void>;
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
    discard: () => removeTree(staging),
  };
}

/**
 * Settles what builds that no longer run left beside `outDir` (shared/folder-swap.ts): an
 * interrupted swap is completed or undone, the rest removed (`replaced` is what builds that moved
 * files out of the previous output kept aside). Returns what it did, for the user.
 */
export function recoverOutput(outDir: string): Promise<string[]> {
  return recoverSwap(outDir, { newRole: 'staging', scratch: ['replaced'], who: 'a build' });
}
