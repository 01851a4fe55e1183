/**
 * The write stage's commit point. A new output is made in a staging folder beside the output
 * folder, and only a complete one takes the output folder's name: a build that fails at any point,
 * before the swap, leaves the previous output exactly as it was. How the staging folder is filled
 * (threads, files taken from the previous output) is the engine's (engine/write/site-writer.ts).
 */
import { mkdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { removeTree } from '../../shared/remove-tree.ts';

export interface StagedOutput {
  /** Where the new output is made. */
  readonly folder: string;
  /** Where files taken out of the previous output wait until the swap. */
  readonly aside: string;
  /** The staged output becomes the output: the previous one steps aside and the new one takes its name. */
  swap(): Promise<void>;
  /** After the swap: the previous output and what was set aside go. */
  removePrevious(): Promise<void>;
  /** Removes the staging folder and what was set aside. */
  discard(): Promise<void>;
}

/** An empty staging folder for `outDir`, named after this process so that two builds never share one. */
export async function stageOutput(outDir: string): Promise<StagedOutput> {
  const parent = path.dirname(outDir);
  const base = path.basename(outDir);
  const folder = path.join(parent, `.${base}-staging-${process.pid}`);
  const previous = path.join(parent, `.${base}-previous-${process.pid}`);
  const aside = path.join(parent, `.${base}-replaced-${process.pid}`);
  await removeTree(folder);
  await mkdir(folder, { recursive: true });
  return {
    folder,
    aside,
    async swap() {
      await rename(outDir, previous).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
      await rename(folder, outDir);
    },
    async removePrevious() {
      await removeTree(previous);
      await removeTree(aside);
    },
    async discard() {
      await removeTree(folder);
      await removeTree(aside);
    },
  };
}
