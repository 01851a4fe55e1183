/**
 * Changing a folder (`dist/`) in place into a new tree, when most of the new tree's files are
 * already there: the files that differ are made in a staging folder beside it, and a journal names
 * what the commit does before it begins:
 *
 *   .<name>-staging-<pid>     the files that are new or changed, complete before the journal exists
 *   .<name>-journal-<pid>     the commit: the files to remove from the folder, the files to move in
 *   .<name>-journaling-<pid>  the journal while it is written (renamed when complete)
 *
 * The commit removes the files the new tree does not have, then moves each staged file over the
 * folder's (a rename replaces a file in one step). A reader of the folder never finds a file of
 * the new tree missing: each is the old file or the new one, whole. A process killed during the
 * commit leaves its journal, and the next command carries it out again to the end: every step is
 * one that can be taken twice (a file already removed, or already moved in, is skipped).
 *
 * A swap (folder-swap.ts) moves the whole new tree in with two renames instead, which needs every
 * file of it in the staging folder: kept for a tree made with nothing taken from the old one.
 */
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmdirSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { SwapSteps } from './folder-swap.ts';
import { ownStart, processRuns } from './processes.ts';
import { removeTree } from './remove-tree.ts';

/** What a commit changes, as relative paths with forward slashes. */
export interface Patch {
  /** Files (or links, or anything but a folder) of the folder that the new tree does not have. */
  removed: readonly string[];
  /** Files of the staging folder that take their place in the folder, new or replacing one. */
  placed: readonly string[];
}

/** A journal as written: the patch, and the start time of the process that wrote it (processes.ts). */
interface Journal extends Patch {
  started?: number;
}

/** The journal's name beside `folder` for a process. */
function journalOf(folder: string, pid: number): string {
  return path.join(path.dirname(folder), `.${path.basename(folder)}-journal-${pid}`);
}

/**
 * Changes `folder` into the new tree: `patch.placed` from `staging`, `patch.removed` gone. The
 * steps are reported as a swap's are: `ready` before the journal, `set-aside` half way through the
 * commit, `published` once the folder is the new tree (killed at either of the last two, the next
 * command finishes the commit).
 */
export async function patchIn(folder: string, staging: string, patch: Patch, steps?: SwapSteps): Promise<void> {
  await steps?.('ready');
  const journal = journalOf(folder, process.pid);
  const writing = path.join(path.dirname(journal), `.${path.basename(folder)}-journaling-${process.pid}`);
  const started = ownStart();
  writeDurably(writing, JSON.stringify({ ...patch, ...(started === undefined ? {} : { started }) }));
  // On the disk before it counts: a journal that exists is whole, even after a power cut.
  renameSync(writing, journal);
  syncFolder(path.dirname(journal));
  await carryOut(folder, staging, patch, () => steps?.('set-aside'));
  unlinkSync(journal);
  await steps?.('published');
}

/**
 * Carries out a commit, from wherever it stopped; `halfWay` is awaited once half the files are
 * moved in. Synchronous calls: a commit is a few files after an edit, and the asynchronous ones
 * were each a trip through the thread pool.
 */
async function carryOut(
  folder: string,
  staging: string,
  patch: Patch,
  halfWay?: () => Promise<void> | void,
): Promise<void> {
  for (const relative of patch.removed) removeIfThere(path.join(folder, relative));
  removeEmptyFolders(folder, patch.removed);
  const half = Math.floor(patch.placed.length / 2);
  const made = new Set<string>();
  for (let i = 0; i < patch.placed.length; i++) {
    if (i === half) await halfWay?.();
    const relative = patch.placed[i]!;
    const target = path.join(folder, relative);
    const parent = path.dirname(target);
    if (!made.has(parent)) {
      mkdirSync(parent, { recursive: true });
      made.add(parent);
    }
    try {
      renameSync(path.join(staging, relative), target);
    } catch (error) {
      // Moved in already, by the commit this one finishes.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  if (patch.placed.length === 0) await halfWay?.();
}

/** Writes `text` to `file` and waits until the disk has it. */
function writeDurably(file: string, text: string): void {
  const fd = openSync(file, 'w');
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Waits until the disk has a folder's entries (a rename into it); some systems cannot sync a folder. */
function syncFolder(folder: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(folder, 'r');
    fsyncSync(fd);
  } catch {
    // Not supported here (some file systems, Windows): the rename is as durable as the system makes it.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** A journal's patch, or undefined when the file is not a whole journal (cut short or empty: damaged). */
function readJournal(file: string): Journal | undefined {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as Partial<Journal> | null;
    const paths = (list: unknown) => Array.isArray(list) && list.every((item) => typeof item === 'string');
    if (!value || !paths(value.removed) || !paths(value.placed)) return undefined;
    return value as Journal;
  } catch (error) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
}

function removeIfThere(file: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** The folders the removed files were in, and the folders above them, when nothing is left in them. */
function removeEmptyFolders(folder: string, removed: readonly string[]): void {
  const folders = new Set<string>();
  for (const relative of removed) {
    for (let at = relative.lastIndexOf('/'); at > 0; at = relative.lastIndexOf('/', at - 1))
      folders.add(relative.slice(0, at));
  }
  // Deepest first, so that a folder emptied by removing the one below goes too.
  for (const relative of [...folders].sort((a, b) => b.split('/').length - a.split('/').length)) {
    try {
      rmdirSync(path.join(folder, relative));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST' && code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
    }
  }
}

/**
 * Finishes the commits that processes which no longer run began in `folder`, each with its staging
 * folder. Returns what it did, in words for the user. Their staging folders and unfinished
 * journals are then leftovers (folder-swap.ts, recoverSwap).
 *
 * A journal that is not whole (written before journals were synced to the disk, or damaged since)
 * cannot be carried out: which of its files moved in is unknown. It is removed with its staging
 * folder, and `distrust` is called so that the next build writes the whole folder anew.
 */
export async function recoverPatches(folder: string, who: string, distrust: () => Promise<void>): Promise<string[]> {
  const parent = path.dirname(folder);
  const base = path.basename(folder);
  const done: string[] = [];
  for (const name of await readdir(parent).catch(() => [] as string[])) {
    const found = /^\.(.+)-journal-(\d+)$/.exec(name);
    const pid = Number(found?.[2]);
    if (!found || found[1] !== base) continue;
    const journal = path.join(parent, name);
    const patch = readJournal(journal);
    if (processRuns(pid, patch?.started)) continue;
    const staging = path.join(parent, `.${base}-staging-${pid}`);
    if (patch === undefined) {
      await removeTree(staging);
      removeIfThere(journal);
      await distrust();
      done.push(
        `${who} (process ${pid}) left the journal of its update of ${base}/ damaged (empty or cut short, as after a power cut): it was removed, and the next build writes ${base}/ anew`,
      );
      continue;
    }
    await carryOut(folder, staging, patch);
    unlinkSync(journal);
    done.push(`${who} (process ${pid}) was interrupted while it updated ${base}/: its update is complete now`);
  }
  return done;
}
