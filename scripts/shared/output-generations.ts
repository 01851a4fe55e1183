/**
 * An output folder served through a link the build switches (`build --atomic`): a reader of `dist`
 * sees the old site or the new one, whole, at every instant, also while a build runs or after one
 * is killed. Beside `dist`:
 *
 *   dist                            a symbolic link to one generation, `.dist-versions/<n>`
 *   .dist-versions/<n>/             the generations: complete outputs, never changed once made
 *   .dist-versions/build/           the output as the last build wrote it (the build's own folder,
 *                                   updated in place or swapped as an ordinary `dist/` is, with its
 *                                   staging folder and journal beside it, folder-swap.ts, folder-patch.ts)
 *   .dist-versions/.making-<pid>/   a generation being made
 *   .dist-link-<pid>                the new link, made under this name, then renamed over `dist`
 *
 * A build writes `build/` as it would write `dist/`, then makes the next generation of it by hard
 * links (the build replaces an output file by a rename and never writes into one, so a file of
 * `build/` changed later leaves the generations' copies as they were), and switches the link: a new
 * link under a temporary name renamed over `dist`, one step. The generation the link pointed to
 * before stays until the next build: a request or a copy that resolved the link before the switch
 * reads it to the end. Older ones go.
 */
import { lstat, mkdir, readdir, readlink, rename, rm, symlink } from 'node:fs/promises';
import { link } from 'node:fs/promises';
import path from 'node:path';
import { forEachLimited } from './for-each-limited.ts';
import { lockHolderRuns } from './output-lock.ts';
import { processRuns } from './processes.ts';
import { removeTree } from './remove-tree.ts';

/** Links made at once while a generation is made. */
const LINKS_IN_FLIGHT = 32;

/** The points of a switch a test stops a build at: the generation `made`, the link `switched`. */
export type SwitchStep = 'made' | 'switched';

/** The names of `out`'s generations. */
export interface Generations {
  /** The link, `dist`. */
  link: string;
  /** The folder of the generations, `.dist-versions`. */
  versions: string;
  /** The build's own folder, `.dist-versions/build`. */
  working: string;
}

export function generationsOf(out: string): Generations {
  const versions = path.join(path.dirname(out), `.${path.basename(out)}-versions`);
  return { link: out, versions, working: path.join(versions, 'build') };
}

/** The link's text for generation `n`: relative, so that the project can be moved. */
function linkText(out: string, n: number): string {
  return `.${path.basename(out)}-versions/${n}`;
}

/** The generation `out` links to, or undefined when `out` is not a link a build made. */
export async function currentGeneration(out: string): Promise<number | undefined> {
  const text = await readlink(out).catch(() => undefined);
  if (text === undefined) return undefined;
  const found = /^\.(.+)-versions\/(\d+)$/.exec(text);
  return found && found[1] === path.basename(out) ? Number(found[2]) : undefined;
}

/** The numbered generations in `versions`, lowest first. */
async function numbered(versions: string): Promise<number[]> {
  const names = await readdir(versions).catch(() => [] as string[]);
  return names
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .sort((a, b) => a - b);
}

/**
 * Makes the next generation of `working` and points `out` at it. `out` may be a folder (the first
 * build with --atomic): it becomes the generation before the new one, and `out` a link, with two
 * renames (POSIX cannot replace a folder by a link in one step; between them `out` is missing for
 * one system call, as during a swap, folder-swap.ts).
 */
export async function switchGeneration(out: string, steps?: (step: SwitchStep) => Promise<void> | void): Promise<void> {
  const { versions, working } = generationsOf(out);
  await mkdir(versions, { recursive: true });
  const previous = await currentGeneration(out);
  const own = await lstat(out).catch(() => undefined);
  const folder = own?.isDirectory() === true;
  const highest = Math.max(0, previous ?? 0, ...(await numbered(versions)));
  const next = highest + (folder ? 2 : 1);
  const making = path.join(versions, `.making-${process.pid}`);
  await removeTree(making);
  try {
    await linkTree(working, making);
  } catch (error) {
    // A full disk, say: nothing was switched, and nothing half made stays.
    await removeTree(making);
    throw error;
  }
  await rename(making, path.join(versions, String(next)));
  await steps?.('made');
  const temporary = path.join(path.dirname(out), `.${path.basename(out)}-link-${process.pid}`);
  await rm(temporary, { force: true });
  await symlink(linkText(out, next), temporary);
  if (folder) await rename(out, path.join(versions, String(next - 1)));
  await rename(temporary, out);
  await steps?.('switched');
  const kept = new Set([next, previous ?? next - 1]);
  for (const n of await numbered(versions)) if (!kept.has(n)) await removeTree(path.join(versions, String(n)));
}

/** A copy of the tree `from` at `to` made of hard links: folders are made, files linked. */
async function linkTree(from: string, to: string): Promise<void> {
  await mkdir(to);
  const entries = await readdir(from, { withFileTypes: true });
  const files = entries.filter((entry) => !entry.isDirectory());
  await forEachLimited(files, LINKS_IN_FLIGHT, (entry) => link(path.join(from, entry.name), path.join(to, entry.name)));
  // Folders one after the other: each runs its own files' links in parallel.
  for (const entry of entries)
    if (entry.isDirectory()) await linkTree(path.join(from, entry.name), path.join(to, entry.name));
}

/**
 * Settles what builds that no longer run left of a switch: a link made but not yet renamed over a
 * missing `out` (killed between the two renames of a first --atomic build) is put in place; every
 * other leftover is removed: links made under a temporary name, generations being made, and,
 * when no running build holds the lock, the generations neither linked nor kept as the previous one.
 */
export async function recoverGenerations(out: string): Promise<string[]> {
  const parent = path.dirname(out);
  const base = path.basename(out);
  const { versions } = generationsOf(out);
  const done: string[] = [];
  for (const name of await readdir(parent).catch(() => [] as string[])) {
    const found = /^\.(.+)-link-(\d+)$/.exec(name);
    if (!found || found[1] !== base || processRuns(Number(found[2]))) continue;
    const temporary = path.join(parent, name);
    const missing = await lstat(out).then(
      () => false,
      () => true,
    );
    const target = await lstat(path.resolve(parent, await readlink(temporary).catch(() => ''))).catch(() => undefined);
    if (missing && target?.isDirectory()) {
      await rename(temporary, out);
      done.push(
        `a build (process ${found[2]}) was interrupted while it made ${base} a link to its outputs: the link is in place now`,
      );
    } else await rm(temporary, { force: true });
  }
  for (const name of await readdir(versions).catch(() => [] as string[])) {
    const found = /^\.making-(\d+)$/.exec(name);
    if (found && !processRuns(Number(found[1]))) await removeTree(path.join(versions, name));
  }
  // A running build may have made a generation it has not linked yet: only its lock says so.
  if (lockHolderRuns(out, { otherThanThis: true })) return done;
  const current = await currentGeneration(out);
  if (current === undefined) return done;
  const all = await numbered(versions);
  const previous = all.filter((n) => n < current).at(-1);
  for (const n of all) if (n !== current && n !== previous) await removeTree(path.join(versions, String(n)));
  return done;
}

/** Removes the link and every generation (`clean`); the link only if a build made it. */
export async function removeGenerations(out: string): Promise<void> {
  if ((await currentGeneration(out)) !== undefined) await rm(out, { force: true });
  await removeTree(generationsOf(out).versions);
}
