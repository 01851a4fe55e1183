/**
 * `rm -r` with a bounded number of operations in flight. Node's recursive `rm` starts one
 * operation per entry at once: at 300,000 files that is gigabytes of pending promises.
 * The build's staging and replaced outputs, `clean`, `export`'s and `import`'s temporary trees and
 * the benchmark all remove trees of that size.
 */
import { lstat, readdir, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { forEachLimited } from './for-each-limited.ts';

/** Files removed at once in a folder; folders removed at once below it. */
const FILES_IN_FLIGHT = 32;
const FOLDERS_IN_FLIGHT = 16;

/**
 * Removes `dir` and everything under it; nothing there is no error, and a file is removed as it is.
 * A link is removed as a link, never followed: `dir` itself may be one (an output folder that was
 * a link to a served folder), and so may anything below it (the entries' types are their own).
 */
export async function removeTree(dir: string): Promise<void> {
  const own = await lstat(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (own === undefined) return;
  if (!own.isDirectory()) {
    await rm(dir, { force: true });
    return;
  }
  const entries = await readdir(dir, { withFileTypes: true });
  const folders = entries.filter((e) => e.isDirectory());
  await forEachLimited(
    entries.filter((e) => !e.isDirectory()),
    FILES_IN_FLIGHT,
    (e) => rm(path.join(dir, e.name), { force: true }),
  );
  await forEachLimited(folders, FOLDERS_IN_FLIGHT, (folder) => removeTree(path.join(dir, folder.name)));
  await rmdir(dir);
}
