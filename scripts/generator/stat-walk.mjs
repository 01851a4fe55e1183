// Stamping and walking folders (issue 4, stat-many.ts), in plain JavaScript: the stat workers
// (stat-worker.mjs) start in milliseconds without the TypeScript loader, and a scan without
// workers runs the same code on the main thread. Types: stat-walk.d.mts.
import { lstatSync, readdirSync } from 'node:fs';
import { isAbsolute, relative, sep } from 'node:path';

/** Numbers per path: kind (0 missing, 1 file, 2 symbolic link, 3 other, 4 folder), size, mtimeMs, ino. */
export const STAT_FIELDS = 4;
const FOLDER = 4;

/** Stamps the first `count` of `names`, under `prefix`, into `values`. */
export function stampInto(values, prefix, names, count = names.length) {
  for (let i = 0; i < count; i++) {
    const stat = lstatSync(prefix + names[i], { throwIfNoEntry: false });
    if (!stat) continue;
    values[i * STAT_FIELDS] = stat.isFile() ? 1 : stat.isSymbolicLink() ? 2 : stat.isDirectory() ? FOLDER : 3;
    values[i * STAT_FIELDS + 1] = stat.size;
    values[i * STAT_FIELDS + 2] = stat.mtimeMs;
    values[i * STAT_FIELDS + 3] = stat.ino;
  }
}

/**
 * The prefix that names the files in `folder` for `lstat`: relative to the working directory when
 * the folder is under it, since the kernel walks every component of a path on each call (an
 * eighth of the call's time for content/authors/ in a project four folders deep).
 */
function shortPrefix(folder) {
  const fromHere = relative(process.cwd(), folder);
  return fromHere === '' || fromHere.startsWith('..') || isAbsolute(fromHere) ? folder + sep : fromHere + sep;
}

/**
 * Lists and stamps `root` and, if `recursive`, every folder under it (never through a symbolic
 * link), handing each to `found` as it is done: its names sorted by UTF-16 code units (the order of
 * every list the build reports) and their stamps, or nothing when it cannot be listed.
 */
export function walkFolders(root, recursive, found) {
  const pending = [root];
  while (pending.length > 0) {
    const folder = pending.pop();
    let names;
    try {
      names = readdirSync(folder);
    } catch {
      found(folder, undefined);
      continue;
    }
    names.sort();
    const values = new Float64Array(names.length * STAT_FIELDS);
    stampInto(values, shortPrefix(folder), names);
    if (recursive) for (let i = names.length - 1; i >= 0; i--) if (values[i * STAT_FIELDS] === FOLDER) pending.push(folder + sep + names[i]);
    found(folder, { names, values });
  }
}
