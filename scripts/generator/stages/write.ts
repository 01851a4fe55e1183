/**
 * The write stage's commit point. A new output is made in a staging folder beside the output
 * folder, and only a complete one takes the output folder's name: a build that fails at any point,
 * before the swap, leaves the previous output exactly as it was. How the staging folder is filled
 * (threads, files taken from the previous output) is the engine's (engine/write/site-writer.ts).
 */
import { lstat, mkdir, readdir, rename } from 'node:fs/promises';
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

/** What a build leaves beside the output while it runs: `.dist-staging-<pid>` and the like. */
const BESIDE = /^\.(.+)-(staging|previous|replaced)-(\d+)$/;

/** Whether a process of that id runs (signal 0 only asks; EPERM: it runs, as another user). */
function running(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Finds what builds that no longer run left beside `outDir`, and settles it: a swap interrupted
 * between its two renames (no output, the previous one set aside) is completed with the new output,
 * which was complete before the swap began, or undone when there is none; everything else they left
 * is removed. A running build's folders are left alone. Returns what it did, for the user.
 */
export async function recoverOutput(outDir: string): Promise<string[]> {
  const parent = path.dirname(outDir);
  const base = path.basename(outDir);
  const dead = new Map<number, Set<string>>();
  for (const name of await readdir(parent).catch(() => [] as string[])) {
    const found = BESIDE.exec(name);
    if (!found || found[1] !== base || running(Number(found[3]))) continue;
    const kinds = dead.get(Number(found[3])) ?? new Set<string>();
    kinds.add(found[2]!);
    dead.set(Number(found[3]), kinds);
  }
  const done: string[] = [];
  for (const [pid, kinds] of dead) {
    const named = (kind: string) => path.join(parent, `.${base}-${kind}-${pid}`);
    const missing = await lstat(outDir).then(
      () => false,
      () => true,
    );
    if (kinds.has('previous') && missing) {
      const restored = kinds.has('staging') ? 'staging' : 'previous';
      await rename(named(restored), outDir);
      kinds.delete(restored);
      done.push(
        restored === 'staging'
          ? `a build (process ${pid}) was interrupted while it replaced ${base}/: its new output is published now`
          : `a build (process ${pid}) was interrupted while it replaced ${base}/: the previous output is back`,
      );
    }
    for (const kind of kinds) await removeTree(named(kind));
  }
  return done;
}
