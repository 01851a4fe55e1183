/**
 * Replacing a folder (`dist/`, `content/`) by a complete new one made beside it, so that a process
 * killed at any instant, by `kill -9` too, leaves what the next command can settle: the folder as it
 * was, or the new one. Beside the folder, while a process of id <pid> works:
 *
 *   .<name>-<new>-<pid>       the new tree (`staging` for a build, `import` for an import); complete
 *                             before the swap begins
 *   .<name>-previous-<pid>    the old tree, set aside between the swap's two renames
 *   .<name>-<scratch>-<pid>   anything else the process keeps there until it ends
 *
 * The swap is two renames (POSIX has no exchange of two folders): the old tree steps aside, the new
 * one takes its name. Between them the folder is missing for one system call.
 */
import { lstat, readdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { processRuns } from './processes.ts';
import { removeTree } from './remove-tree.ts';

/** The points of a swap a process can be stopped at: `ready` before it, `set-aside` between its renames, `published` after. */
export type SwapStep = 'ready' | 'set-aside' | 'published';

/**
 * Called at each step of a swap and awaited. It exists for the tests that kill a process at every
 * step (test/interrupted-swap.test.ts, test/interrupted-import.test.ts); a build or an import
 * passes none.
 */
export type SwapSteps = (step: SwapStep) => Promise<void> | void;

/** The names beside `folder` that a swap of this process uses. */
export function swapNames(folder: string, newRole: string, pid = process.pid): { staging: string; previous: string } {
  const parent = path.dirname(folder);
  const base = path.basename(folder);
  return {
    staging: path.join(parent, `.${base}-${newRole}-${pid}`),
    previous: path.join(parent, `.${base}-previous-${pid}`),
  };
}

/**
 * Puts the complete tree `staging` in the place of `folder`, and removes the old one. Returns
 * whether there was an old one. A failure of the second rename puts the old one back.
 */
export async function swapIn(folder: string, staging: string, previous: string, steps?: SwapSteps): Promise<boolean> {
  await steps?.('ready');
  const hadPrevious = await rename(folder, previous).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return false;
      throw error;
    },
  );
  await steps?.('set-aside');
  try {
    await rename(staging, folder);
  } catch (error) {
    if (hadPrevious) await rename(previous, folder);
    throw error;
  }
  await steps?.('published');
  if (hadPrevious) await removeTree(previous);
  return hadPrevious;
}

export interface Leftovers {
  /** The role of the new tree's folder (`staging`, `import`). */
  newRole: string;
  /** Other roles a process leaves beside the folder, removed once it is dead. */
  scratch: readonly string[];
  /** What the process was, for the messages: "a build", "an import". */
  who: string;
}

/**
 * Settles what processes that no longer run left beside `folder`: a swap interrupted between its
 * two renames (no folder, the old one set aside) is completed with the new tree, complete before
 * the swap began, or undone when there is none; everything else they left is removed. A running
 * process's folders are left alone. Returns what it did, in words for the user.
 */
export async function recoverSwap(folder: string, leftovers: Leftovers): Promise<string[]> {
  const parent = path.dirname(folder);
  const base = path.basename(folder);
  const roles = [leftovers.newRole, 'previous', ...leftovers.scratch];
  const dead = new Map<number, Set<string>>();
  for (const name of await readdir(parent).catch(() => [] as string[])) {
    const found = /^\.(.+)-([a-z]+)-(\d+)$/.exec(name);
    if (!found || found[1] !== base || !roles.includes(found[2]!) || processRuns(Number(found[3]))) continue;
    const kinds = dead.get(Number(found[3])) ?? new Set<string>();
    kinds.add(found[2]!);
    dead.set(Number(found[3]), kinds);
  }
  const done: string[] = [];
  for (const [pid, kinds] of dead) {
    const named = (kind: string) => path.join(parent, `.${base}-${kind}-${pid}`);
    const missing = await lstat(folder).then(
      () => false,
      () => true,
    );
    if (kinds.has('previous') && missing) {
      const restored = kinds.has(leftovers.newRole) ? leftovers.newRole : 'previous';
      await rename(named(restored), folder);
      kinds.delete(restored);
      done.push(
        restored === leftovers.newRole
          ? `${leftovers.who} (process ${pid}) was interrupted while it replaced ${base}/: its new ${base}/ is in place now`
          : `${leftovers.who} (process ${pid}) was interrupted while it replaced ${base}/: the previous ${base}/ is back`,
      );
    }
    for (const kind of kinds) await removeTree(named(kind));
  }
  return done;
}
