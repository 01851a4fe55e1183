/**
 * The build cache's folder as the build expects it: a folder (or a link to one), whose `.bin` files
 * are files and whose `listings` (written by earlier versions of the scan) is a folder. Anything
 * else (the folder replaced by a file, a cache file replaced by a folder, by hand or a tool gone wrong)
 * made the build fail on its first write or removal there. The cache is disposable
 * (engine/cache/cache.ts): a damaged one is emptied, said in one line, and the build that follows
 * is cold, its output the same as any cold build's. Damaged bytes inside a cache file need nothing
 * of this: every frame carries a CRC-32.
 */
import { lstat, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { removeTree } from '../../shared/remove-tree.ts';

/** The folder under the cache where earlier versions of the scan kept the content folders' listings. */
const LISTINGS = 'listings';

/** Empties the cache folder `dir` (or removes what stands in its place) when it is damaged; returns what it did, for the user. */
export async function mendCacheFolder(dir: string): Promise<string[]> {
  const damage = await damageOf(dir);
  if (damage === undefined) return [];
  if (damage.inside) {
    // A link to the cache's folder stays: only what it holds goes.
    for (const name of await readdir(dir)) await removeTree(path.join(dir, name));
  } else {
    await removeTree(dir);
  }
  const shown = `${path.relative(process.cwd(), dir) || '.'}/`;
  return [`the build cache (${shown}) was damaged (${damage.what}): it was removed, and is made anew`];
}

/** What is wrong with the cache folder `dir`, and whether it is inside it; undefined when nothing is, or it is missing. */
async function damageOf(dir: string): Promise<{ what: string; inside: boolean } | undefined> {
  const own = await lstat(dir).catch(() => undefined);
  if (!own) return undefined;
  const target = own.isSymbolicLink() ? await stat(dir).catch(() => undefined) : own;
  if (!target?.isDirectory())
    return { what: own.isSymbolicLink() ? 'a link to no folder' : 'a file, not a folder', inside: false };
  // A folder that cannot be listed is left to the writes, which warn (engine/cache/cache.ts).
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (entry.name.endsWith('.bin') && !entry.isFile())
      return { what: `${entry.name} is ${entry.isDirectory() ? 'a folder' : 'no file'}, not a file`, inside: true };
    if (entry.name === LISTINGS && !entry.isDirectory()) return { what: `${LISTINGS} is not a folder`, inside: true };
  }
  return undefined;
}
