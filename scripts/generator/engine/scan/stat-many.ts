/**
 * What the stages read of the file system in bulk (stages/listing.ts), with Node's own `readdir`
 * and `lstat` on this thread, a chunk of files at a time between turns of the event loop, and the
 * PDFs' first bytes read with `open` on libuv's threads (at 100,000 manuscripts, 350,000 content
 * files and 200,000 previous outputs stamped, 100,100 PDFs read by a cold build). Worker threads
 * that stamped in shares, with the names sent as one string, cost more CPU than they saved
 * (docs/performance.md).
 */
import { lstatSync, readdirSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import path from 'node:path';
import {
  NameList,
  sameStamp,
  stampOfStat,
  STAT_FIELDS,
  statsOf,
  type FileStamp,
  type FolderListing,
  type Scan,
  type StatKind,
  type Stats,
} from '../../stages/listing.ts';

export { sameStamp, stampOfStat, STAT_FIELDS, statsOf };
export type { FileStamp, FolderListing, Scan, StatKind, Stats };

/**
 * A stamp younger than this is not trusted next time: timestamps are coarse (a few milliseconds on
 * Linux), so a file or folder changed right after it was read could keep its stamp ("racy git").
 */
export const RACY_MS = 3000;

/**
 * Files opened at once: enough to keep libuv's four threads busy, few enough that 100,000 PDFs do
 * not queue 100,000 requests (and their buffers) at once.
 */
const IN_FLIGHT = 32;

/** Runs `work` for each index below `count`, IN_FLIGHT at a time. */
async function eachIndex(count: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < count) await work(next++);
  };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, count) }, lane));
}

/** Kinds as numbers in a listing's values (stages/listing.ts): 0 missing, 1 file, 2 link, 3 other, 4 folder. */
const FOLDER = 4;

/**
 * What `lstat` says of `file`, into `values` at `at`; nothing when there is nothing there. The
 * synchronous call: the asynchronous one cost three to four times its CPU (a promise and a hop to
 * libuv's threads per file).
 */
function stampInto(values: Float64Array, at: number, file: string): void {
  const stat = lstatSync(file, { throwIfNoEntry: false });
  if (!stat) return;
  values[at] = stat.isFile() ? 1 : stat.isSymbolicLink() ? 2 : stat.isDirectory() ? FOLDER : 3;
  values[at + 1] = stat.size;
  values[at + 2] = stat.mtimeMs;
  values[at + 3] = stat.ino;
}

/** Files stamped between two turns of the event loop (a few milliseconds), so that reads and timers go on. */
const CHUNK = 2_048;

/** Stamps `count` files, CHUNK at a time. */
async function stampAll(values: Float64Array, count: number, fileAt: (i: number) => string): Promise<void> {
  for (let start = 0; start < count; start += CHUNK) {
    if (start > 0) await nextTurn();
    const end = Math.min(count, start + CHUNK);
    for (let i = start; i < end; i++) stampInto(values, i * STAT_FIELDS, fileAt(i));
  }
}

/** What `lstat` says of each path. */
export async function statMany(paths: readonly string[]): Promise<Stats> {
  const values = new Float64Array(paths.length * STAT_FIELDS);
  await stampAll(values, paths.length, (i) => paths[i]!);
  return statsOf(values);
}

/** Whether each path starts with `magic`: 1 it does, 0 it does not, 2 it could not be read (media.ts says why). */
export async function startsWithMany(paths: readonly string[], magic: Uint8Array): Promise<Uint8Array> {
  const out = new Uint8Array(paths.length);
  await eachIndex(paths.length, async (i) => {
    const buffer = Buffer.alloc(magic.length);
    try {
      const file = await open(paths[i]!, 'r');
      try {
        const { bytesRead } = await file.read(buffer, 0, magic.length, 0);
        out[i] = bytesRead === magic.length && buffer.equals(magic) ? 1 : 0;
      } finally {
        await file.close();
      }
    } catch {
      out[i] = 2;
    }
  });
  return out;
}

export interface ScanRoot {
  path: string;
  /** Also every folder under it (never through a symbolic link). */
  recursive?: boolean;
}

/**
 * Lists and stamps `roots` one after the other, each folder's entries sorted by UTF-16 code units
 * (the order of every list the build reports), in that order: discovery waits for the first, the
 * previous output's folders are needed last. A folder's listing can be awaited as soon as it is
 * done; one under a recursive root, once it is done or that root's walk is over.
 */
export function scanFolders(roots: readonly ScanRoot[]): Scan {
  const listings = new Map<string, FolderListing | undefined>();
  const waiting = new Map<string, (() => void)[]>();
  const answer = (folder: string, listing: FolderListing | undefined) => {
    listings.set(folder, listing);
    for (const wake of waiting.get(folder) ?? []) wake();
    waiting.delete(folder);
  };
  const walked: Promise<void>[] = [];
  let previous: Promise<void> = Promise.resolve();
  for (const root of roots) {
    previous = previous.then(() => walk(root, answer));
    walked.push(previous);
  }
  // A folder never reached (under a link, or in a folder that could not be listed) is answered with
  // nothing once its walk is over; a failure is the caller's, when it asks.
  const all = previous;
  all.catch(() => {});
  return {
    async folder(folder) {
      if (!listings.has(folder)) {
        const under = roots.findIndex(
          (root) => root.path === folder || (root.recursive === true && folder.startsWith(root.path + path.sep)),
        );
        const over = under < 0 ? all : walked[under]!;
        const reached = new Promise<void>((wake) => waiting.set(folder, [...(waiting.get(folder) ?? []), wake]));
        await Promise.race([reached, over]);
      }
      return listings.get(folder);
    },
  };
}

async function walk(root: ScanRoot, answer: (folder: string, listing: FolderListing | undefined) => void) {
  const pending = [root.path];
  for (let folder = pending.pop(); folder !== undefined; folder = pending.pop()) {
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      answer(folder, undefined);
      continue;
    }
    names.sort();
    const values = new Float64Array(names.length * STAT_FIELDS);
    const prefix = folder + path.sep;
    await stampAll(values, names.length, (i) => prefix + names[i]!);
    if (root.recursive === true)
      for (let i = names.length - 1; i >= 0; i--)
        if (values[i * STAT_FIELDS] === FOLDER) pending.push(prefix + names[i]!);
    answer(folder, { names, column: new NameList(names), ...statsOf(values) });
  }
}
