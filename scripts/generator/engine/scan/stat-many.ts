/**
 * `lstat` of many paths at once. A check after one edit at 100,000 manuscripts does
 * little else: 350,000 stamps (content files and PDFs) to compare with the build cache's, at about
 * 2.5 µs each on one thread, plus four `Date` objects per call for the garbage collector (Node 20).
 * Large lists are split between the main thread and one plain-JavaScript worker per other core;
 * whole folders are listed and stamped on worker threads (scanFolders) while the main thread
 * reads the build cache.
 */
import path from 'node:path';
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startPlainThread } from '../start-thread.ts';
import {
  keptListings,
  STAT_FIELDS,
  stampInto,
  stampShared,
  startsWithInto,
  walkFolders,
  type KeptListingsPlace,
} from './stat-walk.mjs';
import {
  sameStamp,
  stampOfStat,
  STAT_FIELDS as LISTING_FIELDS,
  statsOf,
  type FileStamp,
  type FolderListing,
  type Scan,
  type StatKind,
  type Stats,
} from '../../stages/listing.ts';
import { NameColumn } from './name-column.ts';

export { NameColumn, sameStamp, stampOfStat, statsOf };
export type { FileStamp, FolderListing, Scan, StatKind, Stats };

/** Numbers per path in the answer: kind, size, mtimeMs, ino (stat-walk.mjs, shared with the workers). */
export { STAT_FIELDS };
const FIELDS = STAT_FIELDS;
// The workers are plain JavaScript and keep their own copy of the listing's layout.
if (FIELDS !== LISTING_FIELDS) throw new Error('stat-walk.mjs and stages/listing.ts disagree on STAT_FIELDS');
/**
 * Plain JavaScript, started without the command's own options: a worker inherits them, and with the
 * TypeScript loader among them it took twice as long to start (50 against 25 ms).
 */
const STAT_WORKER = new URL('./stat-worker.mjs', import.meta.url);
/** Below this many paths, starting a worker (about 30 ms) costs more than it saves. */
const MIN_PATHS_PER_WORKER = 25_000;

export async function statMany(paths: readonly string[], minPathsPerWorker = MIN_PATHS_PER_WORKER): Promise<Stats> {
  const values = new Float64Array(paths.length * FIELDS);
  await shareAmongWorkers(paths, minPathsPerWorker, {
    job: (slice) => ({ paths: slice }),
    take: (answer: Float64Array, start) => values.set(answer, start * FIELDS),
    here: (end) => stampInto(values, '', paths, 0, end),
  });
  return statsOf(values);
}

/** Below this many paths, a worker costs more than it saves: a file opened and read takes about 10 µs. */
const MIN_READS_PER_WORKER = 5_000;

export interface ReadsOptions {
  /** Below this many paths per worker, no worker is started. */
  minPathsPerWorker?: number;
  /**
   * `false`: where workers are started, they take every share and this thread none, so that it can
   * go on with other work while they read (the returned promise is theirs).
   */
  shareThisThread?: boolean;
}

/**
 * Whether each path starts with `magic`: 1 it does, 0 it does not, 2 it could not be read. A cold
 * build checks 100,100 PDFs' first bytes: 1.1 s of the main thread alone, here shared with a
 * worker per other core, or left to them (`shareThisThread: false`).
 */
export async function startsWithMany(
  paths: readonly string[],
  magic: Uint8Array,
  options: ReadsOptions = {},
): Promise<Uint8Array> {
  const out = new Uint8Array(paths.length);
  await shareAmongWorkers(
    paths,
    options.minPathsPerWorker ?? MIN_READS_PER_WORKER,
    {
      job: (slice) => ({ magic: { paths: slice, bytes: magic } }),
      take: (answer: Uint8Array, start) => out.set(answer, start),
      here: (end) => startsWithInto(out, paths, magic, 0, end),
    },
    options.shareThisThread ?? true,
  );
  return out;
}

/**
 * `paths` in equal shares: this thread takes the first (`here`, up to `end`) while a stat worker
 * per other core takes each of the others (`job`: its work, the share's paths NUL-joined), whose
 * answer is `take`n with the position its share starts at. Without `shareThisThread`, the workers
 * take every share, and this thread none unless no worker is started.
 */
async function shareAmongWorkers<Answer>(
  paths: readonly string[],
  minPathsPerWorker: number,
  work: { job: (slice: string) => object; take: (answer: Answer, start: number) => void; here: (end: number) => void },
  shareThisThread = true,
): Promise<void> {
  const workers = Math.max(0, Math.min(availableParallelism() - 1, Math.floor(paths.length / minPathsPerWorker)));
  const here = shareThisThread || workers === 0 ? 1 : 0;
  const share = Math.ceil(paths.length / (workers + here));
  const answers: Promise<void>[] = [];
  for (let w = here; w < workers + here; w++) {
    const start = w * share;
    const slice = paths.slice(start, start + share);
    if (slice.length === 0) continue;
    const worker = startPlainThread(STAT_WORKER, { workerData: work.job(slice.join('\0')), execArgv: [] });
    answers.push(
      new Promise<void>((resolve, reject) => {
        worker.once('message', (answer: Answer) => {
          work.take(answer, start);
          resolve();
        });
        worker.once('error', reject);
      }).finally(() => worker.terminate()),
    );
  }
  if (here) work.here(Math.min(share, paths.length));
  await Promise.all(answers);
}

export interface ScanRoot {
  path: string;
  /** Also every folder under it (never through a symbolic link). */
  recursive?: boolean;
  /** Its large folders' listings are kept between scans (ScanOptions.listings). */
  keepListings?: boolean;
}

export interface ScanOptions {
  /**
   * A worker with no folder left to claim takes chunks of the large folders the others are still
   * stamping. For a scan whose every folder is needed as soon as it is done (`check`): at 100,000
   * manuscripts, `check` waited for the 100,000 PDFs, stamped by one worker (and this thread once
   * it waited) while the other sat idle. Not for a build's: the previous output's folders, listed
   * last, are needed seconds later, and stamping them sooner took a core from the main thread
   * (docs/performance.md).
   */
  helpEachOther?: boolean;
  /** Where the roots marked `keepListings` keep their large folders' listings (stat-walk.mjs, keptListings). */
  listings?: KeptListingsPlace;
}

/**
 * Lists and stamps whole folders on `threads` workers, which claim the folders one at a time; a
 * folder's listing can be awaited as soon as its worker is done with it (at 100,000
 * manuscripts, 350,000 files stamped while the main thread reads the build cache). With no
 * threads, it all happens on this thread, at once.
 */
export function scanFolders(
  roots: readonly ScanRoot[],
  threads = availableParallelism(),
  options: ScanOptions = {},
): Scan {
  const listings = new Map<string, FolderListing | undefined>();
  const add = (folder: string, names: NameColumn, values: Float64Array) =>
    listings.set(folder, listingOf(names, values));
  if (threads <= 0) {
    const kept = options.listings ? keptListings(options.listings) : undefined;
    for (const root of roots) {
      walkFolders(
        root.path,
        root.recursive === true,
        (folder, listing) => {
          if (listing) add(folder, NameColumn.fromJoined(listing.joined, listing.count), listing.values);
          else listings.set(folder, undefined);
        },
        undefined,
        root.keepListings ? kept : undefined,
      );
    }
    return { folder: async (folder) => listings.get(folder) };
  }

  // Each root's listing can be awaited on its own; a folder found under a recursive root, once every
  // folder under that root is done (the media checks waited for the previous output's
  // 200,000 stamps, listed after the content, with the main thread idle).
  const waiting = new Map<string, (() => void)[]>();
  const walked = roots.map(() => {
    let wake = () => {};
    const done = new Promise<void>((resolve) => (wake = resolve));
    return { done, wake };
  });
  // Large folders whose names came first: this thread takes a share of the stamps of the one it
  // waits for (stat-walk.mjs, stampShared), and only then: it has the build's own work to do, and
  // stamping a folder nobody waits for yet would delay the one it needs.
  const sharing = new Map<string, SharedFolder>();
  const awaited = new Set<string>();
  let failed: unknown;
  const help = (folder: string) => {
    const shared = sharing.get(folder);
    if (!shared) return;
    try {
      stampShared(shared.values, shared.prefix, shared.joined, shared.starts, shared.control);
    } catch (error) {
      failed ??= error;
    }
  };
  const next = new SharedArrayBuffer(4);
  const workerData = {
    folders: roots.map((root) => root.path),
    recursive: roots.map((root) => root.recursive === true),
    next,
    keep: roots.map((root) => root.keepListings === true),
    ...(options.listings ? { listings: options.listings } : {}),
  };
  /** Workers with no folder left to claim (ScanOptions.helpEachOther), and how to ask one to help with a folder in `sharing`. */
  const idle: Worker[] = [];
  const askHelp = (helper: Worker, { joined, starts, values, control, prefix }: SharedFolder) =>
    helper.postMessage({ help: { names: joined, starts, values, control, prefix } satisfies WorkerShare });
  const workers = Array.from({ length: Math.min(threads, roots.length) }, () =>
    startPlainThread(STAT_WORKER, { workerData, execArgv: [] }),
  );
  const all = Promise.all(
    workers.map((worker) => {
      return new Promise<void>((resolve, reject) => {
        worker.on('message', (answer: WorkerAnswer) => {
          if ('walked' in answer) return walked[answer.walked]!.wake();
          if ('done' in answer) {
            if (options.helpEachOther) {
              idle.push(worker);
              for (const shared of sharing.values()) askHelp(worker, shared);
            } else {
              void worker.terminate();
            }
            return resolve();
          }
          if ('share' in answer) {
            const { names, ...shared } = answer.share;
            sharing.set(answer.folder, { joined: names, ...shared });
            for (const helper of idle) askHelp(helper, sharing.get(answer.folder)!);
            if (awaited.has(answer.folder)) help(answer.folder);
            return;
          }
          if ('stamped' in answer) {
            const listed = sharing.get(answer.folder)!;
            sharing.delete(answer.folder);
            add(
              answer.folder,
              NameColumn.fromJoined(listed.joined, listed.starts.length - 1, listed.starts),
              listed.values,
            );
          } else if (answer.values)
            add(answer.folder, NameColumn.fromJoined(answer.names!, answer.count!), answer.values);
          else listings.set(answer.folder, undefined);
          for (const wake of waiting.get(answer.folder) ?? []) wake();
          waiting.delete(answer.folder);
        });
        worker.once('error', reject);
        worker.once('exit', () => reject(new Error('a stat worker stopped before its work was done')));
      });
    }),
  )
    .then(
      () => {},
      (error: unknown) => {
        failed = error;
      },
    )
    .finally(() => {
      // Every worker is done only once every large folder is stamped (the worker that listed one waits
      // for all its chunks, whoever took them): a helper has nothing left. (A worker that does not help
      // was stopped as soon as it was done.)
      for (const worker of workers) void worker.terminate();
    });
  const rootPaths = new Set(roots.map((root) => root.path));
  /** Once `folder`, not a root, has been answered if it is ever to be: its recursive root walked, or the whole scan done. */
  const walkedOver = (folder: string): Promise<void> => {
    const under = roots.findIndex((root) => root.recursive === true && folder.startsWith(root.path + path.sep));
    return under < 0 ? all : walked[under]!.done;
  };
  return {
    async folder(folder) {
      if (!listings.has(folder)) {
        const listed = rootPaths.has(folder)
          ? new Promise<void>((wake) => waiting.set(folder, [...(waiting.get(folder) ?? []), wake]))
          : walkedOver(folder);
        awaited.add(folder);
        help(folder);
        await Promise.race([listed, all]);
      }
      // A share of a folder's stamps taken on this thread may have failed after its listing arrived.
      if (failed !== undefined) throw failed;
      return listings.get(folder);
    },
  };
}

/** A large folder being stamped, as this thread holds it: its names joined, and where each starts. */
interface SharedFolder {
  joined: string;
  starts: Int32Array;
  values: Float64Array;
  control: Int32Array;
  prefix: string;
}

/** A large folder's names and the shared memory its stamps go to (stat-walk.mjs, stampShared). */
interface WorkerShare {
  names: string;
  starts: Int32Array;
  values: Float64Array;
  control: Int32Array;
  prefix: string;
}

/** What a stat worker posts while scanning folders (stat-worker.mjs). */
type WorkerAnswer =
  | { done: true }
  | { walked: number }
  | { folder: string; names?: string; count?: number; values?: Float64Array }
  | { folder: string; share: WorkerShare }
  | { folder: string; stamped: true };

function listingOf(column: NameColumn, values: Float64Array): FolderListing {
  return {
    get names() {
      return column.all();
    },
    column,
    ...statsOf(values),
  };
}
