// Stamping and walking folders (stat-many.ts), in plain JavaScript: the stat workers
// (stat-worker.mjs) start in milliseconds without the TypeScript loader, and a scan without
// workers runs the same code on the main thread. Types: stat-walk.d.mts.
import { createHash, randomUUID } from 'node:crypto';
import {
  closeSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';

/**
 * A stamp younger than this is not trusted next time: timestamps are coarse (a few milliseconds on
 * Linux), so a file or folder changed right after it was read could keep its stamp ("racy git").
 */
export const RACY_MS = 3000;

/** Numbers per path: kind (0 missing, 1 file, 2 symbolic link, 3 other, 4 folder), size, mtimeMs, ino. */
export const STAT_FIELDS = 4;
const FOLDER = 4;

/** Folders of more entries than this are stamped in chunks that the main thread can take a share of. */
export const SHARED_FOLDER = 16_384;
/** About 5 ms of `lstat` calls. */
const CHUNK = 2_048;

/**
 * Whether each of `paths` from `start` to `end` starts with the bytes `magic`, into `out`: 1 it does,
 * 0 it does not, 2 it could not be read (media.ts opens that one again, to say why).
 */
export function startsWithInto(out, paths, magic, start = 0, end = paths.length) {
  const buffer = Buffer.alloc(magic.length);
  for (let i = start; i < end; i++) {
    let fd;
    try {
      fd = openSync(paths[i], 'r');
      out[i] = readSync(fd, buffer, 0, magic.length, 0) === magic.length && buffer.equals(magic) ? 1 : 0;
    } catch {
      out[i] = 2;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }
}

/** Stamps `names` from `start` to `end`, under `prefix`, into `values`. */
export function stampInto(values, prefix, names, start = 0, end = names.length) {
  for (let i = start; i < end; i++) stampOne(values, i * STAT_FIELDS, prefix + names[i]);
}

/**
 * What `lstat` says of `path`, as STAT_FIELDS numbers from `values[at]`; nothing when there is
 * nothing there. Node's public `lstatSync` is the one way: it makes a Stats object and four Dates
 * per call, about 0.3 to 0.5 µs more than the numbers alone (Node's internal file system binding,
 * which is not to be used). At 100,000 manuscripts a check after an edit took 0.76 to 1.03 s of
 * user CPU against 0.66 s with the binding, in three alternating pairs, on both cores.
 */
export function stampOne(values, at, path) {
  const stat = lstatSync(path, { throwIfNoEntry: false });
  if (!stat) return;
  values[at] = stat.isFile() ? 1 : stat.isSymbolicLink() ? 2 : stat.isDirectory() ? FOLDER : 3;
  values[at + 1] = stat.size;
  values[at + 2] = stat.mtimeMs;
  values[at + 3] = stat.ino;
}

/**
 * Where each of `names` starts once they are joined by NUL, and one more number where the next
 * would: a name is `joined.slice(starts[i], starts[i + 1] - 1)`. Into `starts` when given.
 */
export function startsOf(names, starts = new Int32Array(names.length + 1)) {
  let at = 0;
  for (let i = 0; i < names.length; i++) {
    starts[i] = at;
    at += names[i].length + 1;
  }
  starts[names.length] = at;
  return starts;
}

/** Name `i` of names joined by NUL, where `starts` (startsOf) says. */
export function nameAt(joined, starts, i) {
  return joined.slice(starts[i], starts[i + 1] - 1);
}

/**
 * The same from the joined names themselves (`count` of them), into `starts` when given; undefined
 * when they are not `count` names.
 */
export function startsInJoined(joined, count, starts = new Int32Array(count + 1)) {
  let at = 0;
  for (let i = 0; i < count; i++) {
    starts[i] = at;
    const end = joined.indexOf('\0', at);
    if (end < 0 !== (i === count - 1)) return undefined;
    at = (end < 0 ? joined.length : end) + 1;
  }
  starts[count] = at;
  return count === 0 && joined !== '' ? undefined : starts;
}

/** Folders of fewer entries are listed each time: listing them costs less than reading a kept listing. */
const KEPT_LISTING_MIN = 1_024;
const KEPT_LISTING_FORMAT = 1;

/**
 * Listings of large folders kept in the build cache (`dir`) from one scan to the next, each under
 * its folder's own stamp (inode, modification and change times): adding, removing or renaming an
 * entry changes the folder's times, so a folder with the stamp recorded still has the names recorded,
 * as git's untracked cache reasons. Only a stamp older than `trustedBefore` (the scan's start less
 * RACY_MS) is recorded. Listing the 350,000 files of a journal of 100,000 manuscripts took 0.27 s
 * of CPU in every `check` after an edit; each entry is still stamped every time, so an
 * edited file is found as before. Best effort: a listing that cannot be read or written is listed.
 */
export function keptListings({ dir, trustedBefore }) {
  const fileOf = (folder) => join(dir, `${createHash('sha1').update(folder).digest('hex').slice(0, 32)}.txt`);
  return {
    /** The folder's stamp, or undefined when it is no folder (a link is not followed). */
    stampOf(folder) {
      const stat = lstatSync(folder, { throwIfNoEntry: false });
      return stat?.isDirectory() ? [stat.ino, stat.mtimeMs, stat.ctimeMs] : undefined;
    },
    /** The kept listing of `folder`, if it was kept under `stamp`: its joined names, how many, where each starts. */
    read(folder, stamp, starts) {
      let text;
      try {
        text = readFileSync(fileOf(folder), 'utf8');
      } catch {
        return undefined;
      }
      const newline = text.indexOf('\n');
      let header;
      try {
        header = JSON.parse(text.slice(0, newline));
      } catch {
        return undefined;
      }
      if (header?.format !== KEPT_LISTING_FORMAT || header.folder !== folder || !Number.isInteger(header.count))
        return undefined;
      if (
        !Array.isArray(header.stamp) ||
        header.stamp.length !== stamp.length ||
        header.stamp.some((value, i) => value !== stamp[i])
      )
        return undefined;
      const joined = text.slice(newline + 1);
      const found = startsInJoined(joined, header.count, starts?.(header.count));
      return found && { joined, count: header.count, starts: found };
    },
    /** Keeps the listing of `folder`, taken under `stamp`, when the folder is large and the stamp old enough. */
    write(folder, stamp, joined, count) {
      if (count < KEPT_LISTING_MIN || stamp[1] >= trustedBefore || stamp[2] >= trustedBefore) return;
      const file = fileOf(folder);
      // Its own name: threads of this process and other commands may keep the same folder's at once.
      const temporary = `${file}.${randomUUID()}.tmp`;
      try {
        mkdirSync(dir, { recursive: true });
        writeFileSync(temporary, `${JSON.stringify({ format: KEPT_LISTING_FORMAT, folder, stamp, count })}\n${joined}`);
        renameSync(temporary, file);
      } catch {
        rmSync(temporary, { force: true });
      }
    },
  };
}

/**
 * Stamps the names `joined` (by NUL; `starts`: startsOf) from `start` to `end`, under `prefix`, into
 * `values`. A folder's names are kept as the one string they are sent as: 350,000 names
 * kept as strings while they were stamped were copied by each thread's garbage collector, and split
 * again on the main thread, which reads few of them.
 */
export function stampJoined(values, prefix, joined, starts, start, end) {
  for (let i = start; i < end; i++) stampOne(values, i * STAT_FIELDS, prefix + nameAt(joined, starts, i));
}

/**
 * Stamps chunks of a large folder's names (joined, with their `starts`), claimed one at a time from
 * `control[0]`, until none is left; `control[1]` counts the chunks done, for the worker that listed
 * the folder to wait on, and `control[2]` is set when one failed. That worker, the main thread
 * while it waits for the scan, and in a `check` any worker with no folder left share the folder
 * (at 100,000 manuscripts, the 150,000 authors on one worker were the end of the scan).
 */
export function stampShared(values, prefix, joined, starts, control) {
  const count = starts.length - 1;
  const chunks = Math.ceil(count / CHUNK);
  for (let chunk = Atomics.add(control, 0, 1); chunk < chunks; chunk = Atomics.add(control, 0, 1)) {
    try {
      stampJoined(values, prefix, joined, starts, chunk * CHUNK, Math.min(count, (chunk + 1) * CHUNK));
    } catch (error) {
      Atomics.store(control, 2, 1);
      throw error;
    } finally {
      // Counted even when it failed: the worker must not wait for it forever (the failure is the caller's to report).
      Atomics.add(control, 1, 1);
      Atomics.notify(control, 1);
    }
  }
}

/** Waits until every chunk of a folder of `count` names is stamped, by whichever thread took it. */
function waitForChunks(count, control) {
  const chunks = Math.ceil(count / CHUNK);
  for (let done = Atomics.load(control, 1); done < chunks; done = Atomics.load(control, 1))
    Atomics.wait(control, 1, done);
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
 * every list the build reports), joined by NUL, how many, and their stamps; or nothing when it
 * cannot be listed. With `share`, a folder of more than SHARED_FOLDER entries is handed to it as
 * soon as it is listed, with shared memory for its stamps and the names' starts, and stamped with
 * stampShared. With `kept` (keptListings), a large folder's listing is read back while the folder
 * keeps its stamp, and kept for the next scan when it was listed.
 */
export function walkFolders(root, recursive, found, share, kept) {
  const pending = [root];
  // Where the names start: in shared memory for a folder whose stamps are shared.
  const startsFor = (count) =>
    share && count > SHARED_FOLDER
      ? new Int32Array(new SharedArrayBuffer((count + 1) * Int32Array.BYTES_PER_ELEMENT))
      : new Int32Array(count + 1);
  while (pending.length > 0) {
    const folder = pending.pop();
    const stamp = kept?.stampOf(folder);
    let listed = stamp && kept.read(folder, stamp, startsFor);
    if (!listed) {
      let names;
      try {
        names = readdirSync(folder);
      } catch {
        found(folder, undefined);
        continue;
      }
      names.sort();
      listed = { joined: names.join('\0'), count: names.length, starts: startsOf(names, startsFor(names.length)) };
      if (stamp) kept.write(folder, stamp, listed.joined, listed.count);
    }
    // From here on, the joined names only.
    const { joined, count, starts } = listed;
    const prefix = shortPrefix(folder);
    const shared = share && count > SHARED_FOLDER;
    let values;
    if (shared) {
      values = new Float64Array(new SharedArrayBuffer(count * STAT_FIELDS * Float64Array.BYTES_PER_ELEMENT));
      const control = new Int32Array(new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT));
      share(folder, { joined, starts, values, control, prefix });
      stampShared(values, prefix, joined, starts, control);
      waitForChunks(count, control);
      // A chunk taken by another thread failed there: its stamps are missing.
      if (Atomics.load(control, 2) !== 0) throw new Error(`${folder}: its files could not all be stamped`);
    } else {
      values = new Float64Array(count * STAT_FIELDS);
      stampJoined(values, prefix, joined, starts, 0, count);
    }
    if (recursive) {
      for (let i = count - 1; i >= 0; i--)
        if (values[i * STAT_FIELDS] === FOLDER) pending.push(folder + sep + nameAt(joined, starts, i));
    }
    found(folder, { joined, count, values });
  }
}
