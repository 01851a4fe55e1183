/**
 * Stage 6: write everything into a staging folder beside the output folder, then swap it in.
 * A build that fails at any point leaves the previous output exactly as it was.
 *
 * Issue 4: the staging folder is filled in parallel (file creation, not bytes, is what costs at
 * 100,000 pages). The lists come first (startSite), as soon as the journal is ordered: this thread
 * makes their chunks, with the items unchanged since the previous build named as ranges of its
 * list (list-items.ts), and the list writer's thread writes them and their twins, compressed in
 * segments (list-writer.ts, segmented-twins.ts). The PDFs follow as soon as they are checked
 * (copyMedia), copied or linked by two file writers' threads (file-writer.ts), handed over without
 * back-pressure. Then (finish) the pages are rendered here and written by a third. A
 * file whose inputs are unchanged since the previous build (same key, see OutputFile.key, or for a
 * PDF the same source stamp) is taken from the previous output instead of being written again: a
 * folder of such files as a whole, others by hard link. The previous output's files are only ever
 * replaced, never modified, so a link to one is a copy.
 */
import { lstatSync } from 'node:fs';
import { link, lstat, mkdir, rename, rmdir } from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import type { OutputManifest } from '../engine/cache/cache.ts';
import {
  OutputRowsBuilder,
  ROW_STAMP_FIELDS,
  rowFinder,
  rowStamp,
  type OutputRows,
} from '../engine/cache/output-rows.ts';
import type { MediaCopy } from './media.ts';
import { forEachLimited } from '../../shared/for-each-limited.ts';
import { removeTree } from '../../shared/remove-tree.ts';
import type { OutputFile } from '../../shared/output-file.ts';
import type { Progress } from '../progress.ts';
import {
  sameStamp,
  STAT_FIELDS,
  stampOfStat,
  statMany,
  type FileStamp,
  type FolderListing,
  type Scan,
} from '../engine/scan/stat-many.ts';
import { createFileWriter } from '../engine/write/file-writer.ts';
import { chunkKeys, keyed, splicedChunks, tableBytes, type ListTable } from '../engine/write/list-items.ts';
import { createListWriter, type PreviousListFile } from '../engine/write/list-writer.ts';
import { silentProgress } from '../progress.ts';

/**
 * Compression levels for the precompressed twins, chosen by measurement (docs/performance.md):
 * gzip 5 takes two thirds of gzip 6's time for a `.gz` 5% larger, which only clients without
 * brotli receive (about 1.1 s of CPU in a cold build at 100,000 manuscripts); brotli 5 is the
 * fastest quality that beats gzip 9's size, at 4 to 5 times the speed of brotli 7 and 40 times
 * that of brotli 11.
 */
export const GZIP_LEVEL = 5;
export const BROTLI_OPTIONS: zlib.BrotliOptions = {
  params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
    [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
  },
};

export interface WriteStats {
  files: number;
  /** Sizes of the precompressed outputs and their twins (the API lists), by output path. */
  bytes: Record<string, number>;
  /** Files hard-linked from the previous output because their inputs had not changed. */
  reused: number;
  /** Items of the lists rendered; the others were taken from the previous build's lists (list-items.ts). */
  renderedItems: number;
  /** Segments of the lists' twins compressed; the others were taken from the previous twins (segmented-twins.ts). */
  compressedSegments: number;
  /** What this build wrote, for the next build to reuse. */
  manifest: OutputManifest;
  /** The tables of the lists in the output (written or reused), for the next build's lists. */
  lists: Map<string, ListTable>;
}

export interface WriteOptions {
  progress?: Progress;
  /** Hard-link PDFs from `content/media/` instead of copying them (file-writer.ts, CopyMode). */
  linkMedia?: boolean;
  /** The tables of the lists the previous build wrote (list-items.ts), from the build cache. */
  previousLists?: ReadonlyMap<string, ListTable>;
  /**
   * The listing of the output folder as it was when the build started (content-scan.ts): the
   * stamps that decide which previous files are intact (findReusable). Without it, or for a
   * folder it did not list, nothing of the previous output is reused.
   */
  previousOutput?: Scan;
  /**
   * What the previous build wrote, from the build cache: its files with the same keys are reused if
   * intact. Read when the PDFs or the pages first need it (200,000 entries at 100,000 manuscripts):
   * not before the lists begin.
   */
  previousManifest?: () => OutputManifest | undefined;
}

/**
 * An output path (forward slashes, relative, checked by the renderers and findOutputConflicts) inside
 * a folder. Concatenated: `path.join` per file cost about a second at 200,000 files; every
 * platform's file functions take `/`.
 */
function under(folder: string, relative: string): string {
  return `${folder}/${relative}`;
}

/** The files an output is written as: itself, and its precompressed twins. */
function relativesOf(output: OutputFile): string[] {
  return output.precompress
    ? [output.path, ...PRECOMPRESSED.map((suffix) => `${output.path}${suffix}`)]
    : [output.path];
}

/** A PDF's key: its source and that source's stamp when checked (none when too recent to trust). */
function mediaKey(copy: MediaCopy): string | undefined {
  return copy.stamp ? `${copy.from}\n${copy.stamp.size} ${copy.stamp.mtimeMs} ${copy.stamp.ino}` : undefined;
}

/** What the previous build wrote into this output folder (its manifest's rows), and a finder over them. */
interface PreviousOutput {
  rows: OutputRows;
  find: (name: string, hint: number) => number;
  folders: ReadonlyMap<string, FileStamp> | undefined;
  /** The rows this build reuses, marked as they are found (placeReused moves the others aside). */
  reused: Uint8Array;
}

/**
 * The previous build's files that can stand for this build's: same key, and still exactly as that
 * build wrote them (same stamp: the previous output's files are only ever replaced, never modified,
 * so a file with its recorded stamp holds the recorded bytes). An output counts only if all its
 * files do. The stamps are the ones `listed` took when the build started (content-scan.ts); a file
 * in a folder it did not list (missing then, or reached through a link) is not reused.
 *
 * Returns the previous row of each of the wanted outputs' files, in order, -1 where there is none to
 * reuse. The outputs are looked for in the order the previous build wrote them (output-rows.ts).
 */
async function findReusable(
  outDir: string,
  previous: PreviousOutput | undefined,
  wanted: readonly { relatives: readonly string[]; key: string | undefined }[],
  listed: Scan | undefined,
): Promise<Int32Array> {
  const rows = new Int32Array(wanted.reduce((sum, { relatives }) => sum + relatives.length, 0)).fill(-1);
  if (!listed || !previous || previous.rows.names.length === 0) return rows;
  // Relative folder → its listing; at 100,000 manuscripts, 200,000 files in about a hundred folders.
  const listings = new Map<string, FolderListing | undefined>();
  const folderOfNext = folderFinder();
  const folders = new Set<string>();
  for (const { relatives } of wanted) for (const relative of relatives) folders.add(folderOfNext(relative));
  // Named as the scan names them (path.join), whatever the platform's separator.
  for (const folder of folders) listings.set(folder, await listed.folder(path.join(outDir, ...folder.split('/'))));
  // Name → position in its listing, for this search only: a binary search over 100,000 names cost
  // a quarter of a second for 200,000 files.
  const positions = new Map<FolderListing, Map<string, number>>();
  // The name after the last one found first: outputs in the listing's order (the PDFs) need no map.
  const lastFound = new Map<FolderListing, number>();
  /** Where the file `relative` names (its name from `start`) is in `listing`. */
  const positionIn = (listing: FolderListing, relative: string, start: number): number | undefined => {
    const next = (lastFound.get(listing) ?? -1) + 1;
    // Compared in place: a name sliced per file was 200,000 strings.
    const guess = listing.names[next];
    let at: number | undefined =
      guess !== undefined && guess.length === relative.length - start && relative.endsWith(guess) ? next : undefined;
    if (at === undefined) {
      const name = relative.slice(start);
      let known = positions.get(listing);
      if (!known) {
        known = new Map();
        for (let i = 0; i < listing.names.length; i++) known.set(listing.names[i]!, i);
        positions.set(listing, known);
      }
      at = known.get(name);
    }
    if (at !== undefined) lastFound.set(listing, at);
    return at;
  };
  const { stamps } = previous.rows;
  // 200,000 files at 100,000 manuscripts: no closure or object per file.
  const intact = (relative: string, row: number): boolean => {
    const folder = folderOfNext(relative);
    const listing = listings.get(folder);
    const at = listing && positionIn(listing, relative, folder === '' ? 0 : folder.length + 1);
    if (at === undefined || listing!.kind(at) !== 'file') return false;
    const v = listing!.values;
    const r = row * ROW_STAMP_FIELDS;
    return (
      v[at * STAT_FIELDS + 1] === stamps[r] &&
      v[at * STAT_FIELDS + 2] === stamps[r + 1] &&
      v[at * STAT_FIELDS + 3] === stamps[r + 2]
    );
  };
  let hint = 0;
  let end = 0;
  for (const { relatives, key } of wanted) {
    const first = end;
    end += relatives.length;
    if (key === undefined) continue;
    for (let k = 0; k < relatives.length; k++) {
      const row = previous.find(relatives[k]!, hint);
      if (row < 0 || previous.rows.keys[row] !== key || !intact(relatives[k]!, row)) {
        rows.fill(-1, first, end);
        break;
      }
      rows[first + k] = row;
      hint = row + 1;
    }
  }
  for (const row of rows) if (row >= 0) previous.reused[row] = 1;
  return rows;
}

/** The files of a group of outputs, in order: each one's previous row to reuse (-1: none) and, once written, its tag. */
interface FilePlan {
  files: string[];
  rows: Int32Array;
  tags: Int32Array;
}

async function filePlan(
  outDir: string,
  previous: PreviousOutput | undefined,
  wanted: readonly { relatives: readonly string[]; key: string | undefined }[],
  listed: Scan | undefined,
): Promise<FilePlan> {
  const rows = await findReusable(outDir, previous, wanted, listed);
  return { files: wanted.flatMap(({ relatives }) => relatives), rows, tags: new Int32Array(rows.length).fill(-1) };
}

/**
 * The folder of each relative output path given ('' for the root), the one before's given again
 * when it is the same: consecutive outputs are mostly in one folder, and a folder sliced per file
 * was 200,000 strings, each hashed to look its listing up (issue 4).
 */
function folderFinder(): (relative: string) => string {
  let last: string | undefined;
  return (relative) => {
    const slash = relative.lastIndexOf('/');
    if (last !== undefined && Math.max(slash, 0) === last.length && relative.startsWith(last)) return last;
    return (last = folderOf(relative));
  };
}

/** The folder of a relative output path ('' for the root). */
function folderOf(relative: string): string {
  const slash = relative.lastIndexOf('/');
  return slash < 0 ? '' : relative.slice(0, slash);
}

/** Written files stamped at once (statMany). */
const STAT_SLICE = 50_000;

/** A folder with fewer unchanged files than this is not worth adopting (placeReused): they are linked. */
const ADOPT_MIN_FILES = 64;

/** Files created at once: enough to keep the disk and the thread pool busy. */
const WRITE_CONCURRENCY = 32;
/** The twins written next to a file marked `precompress`. */
const PRECOMPRESSED = ['.gz', '.br'] as const;

/**
 * A write begun with the lists, the PDFs added as soon as they are checked, finished with everything
 * else, or abandoned (the output untouched).
 */
export interface SiteWriter {
  /**
   * Begins putting the PDFs into the output on the writers' threads, and returns at once: they
   * take seconds of the kernel's time at 100,000 PDFs and need nothing but the media checks, so
   * they run while the references are checked and the pages rendered (issue 4). Called at most once,
   * before `finish`.
   */
  copyMedia(copies: readonly MediaCopy[]): void;
  /**
   * Writes `outputs` and swaps the output in. `accept`, when given, sees every file of the new
   * output (its size in its stamp) once all are in the staging folder, before the swap: when it
   * refuses them, the write is abandoned, the output stays as it was, and this resolves to undefined.
   */
  finish(outputs: readonly OutputFile[], accept?: (files: OutputRows) => boolean): Promise<WriteStats | undefined>;
  abandon(): Promise<void>;
}

/**
 * Begins writing the output with the lists (the precompressed outputs), whose compression is the
 * longest single task of a build after an edit (issue 4): it runs while the build checks the PDFs
 * and renders the pages. Nothing outside the staging folder changes until `finish` swaps it in.
 */
export async function startSite(
  outDir: string,
  streamed: readonly OutputFile[],
  options: WriteOptions = {},
): Promise<SiteWriter> {
  const parent = path.dirname(outDir);
  const base = path.basename(outDir);
  const staging = path.join(parent, `.${base}-staging-${process.pid}`);
  const previousDir = path.join(parent, `.${base}-previous-${process.pid}`);
  const trash = path.join(parent, `.${base}-replaced-${process.pid}`);
  const bytes: Record<string, number> = {};
  /** Lists written: their keys and lengths, stamped once written. */
  const tables = new Map<string, Omit<ListTable, 'stamps'> & { tag: number; files: number }>();
  const listTables = new Map<string, ListTable>();
  let reused = 0;
  let writtenCount = 0;
  let renderedItems = 0;
  let compressedSegments = 0;
  const folders = new Map<string, Promise<unknown>>();
  const target = (relative: string) => under(staging, relative);
  // One mkdir per folder, shared by every file written into it at the same time.
  const ensureFolder = (file: string) => {
    const folder = path.dirname(file);
    let made = folders.get(folder);
    if (!made) folders.set(folder, (made = mkdir(folder, { recursive: true })));
    return made;
  };

  // Which lists the previous build wrote with the same key and are intact there (same stamp), from
  // their tables; the other outputs' are found in the previous build's manifest (findReusable),
  // with the stamps the scan took when the build started (issue 4: 200,000 files at 100,000 manuscripts).
  const reusedLists = new Map<string, { key: string; stamp: FileStamp }>();
  for (const output of streamed) {
    const table = options.previousLists?.get(output.path);
    const relatives = relativesOf(output);
    if (!table || output.key === undefined || table.key !== output.key || table.stamps.length !== relatives.length)
      continue;
    if (relatives.every((relative, k) => hasStamp(under(outDir, relative), table.stamps[k])))
      relatives.forEach((relative, k) => reusedLists.set(relative, { key: output.key!, stamp: table.stamps[k]! }));
  }
  /**
   * Files written, their keys, and their stamps (NaN until known: the file writers' threads answer
   * with the stamp of each file they make, file-writer.ts; the lists are stamped once all are
   * written). A file's row here is its tag.
   */
  const written = new OutputRowsBuilder();
  /** Records the files of an output about to be written; returns the row of the first, its tag for a file writer. */
  const remember = (relatives: readonly string[], key: string | undefined): number => {
    const first = written.names.length;
    for (const relative of relatives) written.add(relative, key ?? '', NaN, NaN, NaN);
    return first;
  };
  const stamped = (tag: number, stamp: FileStamp) => written.stamp(tag, stamp);
  /**
   * Where the files of the PDFs and of the other outputs come from, each group in the order of its
   * outputs. The manifest is made from them, after the lists, in that order, which the next build
   * looks its outputs up in (output-rows.ts).
   */
  const plans: { media?: FilePlan; whole?: FilePlan } = {};
  /** The tag of each list written (of its first file; its twins follow). */
  const listTags = new Map<string, number>();

  const moves: [string, string][] = [];
  // The pages and the PDFs go to different folders: a thread for the pages, two for the PDFs
  // (file-writer.ts). A copy is mostly the kernel's time (about 100 µs on ext4): on one thread the
  // copies were the last thing a cold build waited for, by 2 s at 100,000 PDFs.
  const writer = createFileWriter(stamped);
  // The PDFs are handed over without back-pressure: they begin while this thread is busy for a second
  // or more at a time (the references, the pages), and a writer fed a few batches at a time would
  // wait. The loop that hands them over (copyMedia) awaits each hand-over, so it advances with the
  // pages' loop; handing all over in one go made the build no faster (docs/performance.md).
  const mediaWriters = [createFileWriter(stamped, { unbounded: true }), createFileWriter(stamped, { unbounded: true })];
  /** Set once the output was swapped in, or the write abandoned: there is nothing left to undo. */
  let settled = false;
  await removeTree(staging);
  await mkdir(staging, { recursive: true });
  /** The pages and the PDFs being written (finish): on a failure, let finish before the staging folder goes. */
  const running: Promise<unknown>[] = [];
  const lists = createListWriter({ gzipLevel: GZIP_LEVEL, brotli: BROTLI_OPTIONS });
  /** Writes a list and its twins, or takes them from the previous output. */
  const writeList = async (output: OutputFile, handOver: () => void) => {
    const relatives = relativesOf(output);
    if (relatives.every((relative) => reusedLists.has(relative))) {
      if (relatives.length > 1)
        for (const relative of relatives) bytes[relative] = reusedLists.get(relative)!.stamp.size;
      reused += relatives.length;
      listTables.set(output.path, options.previousLists!.get(output.path)!);
      return;
    }
    const file = target(output.path);
    await ensureFolder(file);
    const items = output.items && keyed(output.items) ? output.items : undefined;
    const previous = items
      ? previousListFile(under(outDir, output.path), options.previousLists?.get(output.path))
      : undefined;
    const record = { lengths: new Uint32Array(items?.count ?? 0), rendered: 0 };
    const chunks = items ? splicedChunks(items, previous?.table, record) : chunksOf(output.body);
    const request = {
      file,
      precompress: output.precompress === true,
      ...(previous ? { previous: previous.files } : {}),
    };
    const list = await lists.write(request, chunks, items ? chunkKeys(items) : undefined, handOver);
    for (const [suffix, size] of Object.entries(list.sizes)) bytes[`${output.path}${suffix}`] = size;
    const tag = remember(relatives, output.key);
    listTags.set(output.path, tag);
    if (items && output.key !== undefined)
      tables.set(output.path, {
        key: output.key,
        tag,
        files: relatives.length,
        keys: items.keys.join('\n'),
        ...(items.reads ? { reads: items.reads } : {}),
        lengths: record.lengths,
        twins: list.twins,
      });
    renderedItems += items ? record.rendered : 0;
    compressedSegments += list.compressed;
    writtenCount += relatives.length;
  };
  /**
   * Each list handed over to its thread as far as it can be at once: after an edit, every chunk, as
   * ranges of the previous list (list-items.ts). startSite returns only then: before, this thread
   * went on to the PDFs and the previous output's manifest first, and the lists' thread waited for
   * their chunks (issue 4).
   */
  const handedOver: Promise<void>[] = [];
  /** Each list and its twins written. */
  const listRuns = streamed.map(async (output) => {
    let begun = () => {};
    handedOver.push(new Promise<void>((resolve) => (begun = resolve)));
    try {
      await writeList(output, begun);
    } finally {
      begun();
    }
  });
  const listsWritten = Promise.all(listRuns);
  /** The lists written (or failed), and their thread stopped. */
  const listWriterClosed = listsWritten.finally(() => lists.close());
  listWriterClosed.catch(() => {}); // awaited by finish or abandon; a failure meanwhile must not go unhandled

  /** null until read (readPreviousOutput). */
  let previousOutput: PreviousOutput | undefined | null = null;
  /** The previous build's manifest, when it describes this output folder: read once, when first needed. */
  const readPreviousOutput = (): PreviousOutput | undefined => {
    if (previousOutput === null) {
      const manifest = options.previousManifest?.();
      previousOutput =
        manifest?.out === outDir
          ? {
              rows: manifest.files,
              find: rowFinder(manifest.files),
              folders: manifest.folders,
              reused: new Uint8Array(manifest.files.names.length),
            }
          : undefined;
    }
    return previousOutput;
  };
  /** The PDFs being put into the output (copyMedia), and how many there are. */
  let media: Promise<void> | undefined;
  let mediaCount = 0;
  const copyMedia = (copies: readonly MediaCopy[]) => {
    if (media) throw new Error('the PDFs were already given');
    mediaCount = copies.length;
    media = (async () => {
      const plan = (plans.media = await filePlan(
        outDir,
        readPreviousOutput(),
        copies.map((copy) => ({ relatives: [copy.to], key: mediaKey(copy) })),
        options.previousOutput,
      ));
      const mode = options.linkMedia === true ? 'link' : 'copy';
      const made: number[] = [];
      for (let i = 0; i < copies.length; i++) {
        if (plan.rows[i]! >= 0) reused++;
        else made.push(i);
      }
      // Each writer takes one half, in order: the PDFs of a folder mostly go to one thread, as files
      // created in one folder wait for each other (the folder's lock).
      const half = Math.ceil(made.length / mediaWriters.length);
      for (const [n, i] of made.entries()) {
        const copy = copies[i]!;
        const file = target(copy.to);
        await ensureFolder(file);
        const tag = (plan.tags[i] = remember([copy.to], mediaKey(copy)));
        await mediaWriters[Math.floor(n / half)]!.copy(copy.from, file, mode, tag);
        writtenCount++;
      }
      await Promise.all(mediaWriters.map((thread) => thread.close()));
    })();
    media.catch(() => {}); // awaited by finish or abandon; a failure meanwhile must not go unhandled
    running.push(media);
  };

  const abandon = async () => {
    if (settled) return;
    settled = true;
    // The writers' threads stop at once; their waiting batches fail, and the lists' files close.
    await Promise.all([lists.stop(), writer.abort(), ...mediaWriters.map((thread) => thread.abort())]);
    // Every list, page and PDF, not only until the first failure: nothing may still be writing
    // into the staging folder when it goes.
    await Promise.allSettled([...listRuns, listWriterClosed, ...running]);
    // What was moved out of the previous output goes back before anything else, last move first.
    for (const [from, to] of moves.reverse()) {
      await mkdir(path.dirname(from), { recursive: true }).catch(() => {});
      await rename(to, from).catch(() => {});
    }
    await removeTree(staging);
    await removeTree(trash);
  };

  /** Every file of the output, in the order of the outputs: reused ones with their previous rows, written ones with their stamps. */
  const outputRows = (previous: PreviousOutput | undefined): OutputRowsBuilder => {
    const rows = new OutputRowsBuilder();
    const addWritten = (tag: number) => rows.copy(written, tag);
    for (const output of streamed) {
      const tag = listTags.get(output.path);
      relativesOf(output).forEach((relative, k) => {
        if (tag !== undefined) return addWritten(tag + k);
        const { key, stamp } = reusedLists.get(relative)!;
        rows.add(relative, key, stamp.size, stamp.mtimeMs, stamp.ino);
      });
    }
    for (const plan of [plans.media, plans.whole]) {
      if (!plan) continue;
      for (let k = 0; k < plan.files.length; k++) {
        if (plan.tags[k]! >= 0) addWritten(plan.tags[k]!);
        else rows.copy(previous!.rows, plan.rows[k]!);
      }
    }
    return rows;
  };

  const finish = async (
    whole: readonly OutputFile[],
    accept?: (files: OutputRows) => boolean,
  ): Promise<WriteStats | undefined> => {
    const stage = (options.progress ?? silentProgress).stage('write', streamed.length + whole.length + mediaCount);
    let manifest: OutputManifest;
    try {
      const mediaDone = (media ?? Promise.resolve()).then(() => stage.advance(mediaCount));
      const previous = readPreviousOutput();
      const plan = (plans.whole = await filePlan(
        outDir,
        previous,
        whole.map((output) => ({ relatives: relativesOf(output), key: output.key })),
        options.previousOutput,
      ));
      // Pages while the PDFs are still being made: they go to different folders, and creating files
      // in one folder is serialized by the file system (one lock per folder). The pages are rendered
      // here, one after the other, and made by the file writer's thread.
      const pages = (async () => {
        let first = 0;
        for (const output of whole) {
          const relatives = relativesOf(output);
          if (plan.rows[first]! >= 0) {
            if (relatives.length > 1)
              relatives.forEach(
                (relative, f) => (bytes[relative] = rowStamp(previous!.rows, plan.rows[first + f]!).size),
              );
            reused += relatives.length;
          } else {
            const file = target(output.path);
            await ensureFolder(file);
            const { body } = output;
            // Rendered before its row is recorded: rendering sets the key the next build compares with.
            const text = typeof body === 'function' ? [...body()] : body;
            const tag = remember(relatives, output.key);
            relatives.forEach((_, f) => (plan.tags[first + f] = tag + f));
            // The writer stamps the one file it writes (an output written here has no twins).
            const stampTag = relatives.length === 1 ? tag : -1;
            await (text instanceof Uint8Array
              ? writer.write(file, text, stampTag)
              : writer.writeText(file, text, stampTag));
            writtenCount += relatives.length;
          }
          first += relatives.length;
          stage.advance();
        }
        await writer.close();
      })();
      running.push(pages);
      await Promise.all([pages, mediaDone, listsWritten]);
      // A failure after this puts back what was moved (abandon).
      await placeReused({
        outDir,
        staging,
        reused: reusedFiles(previous),
        written: written.names,
        previous,
        moves,
        trash,
        ensureFolder,
      });
      await listWriterClosed;
      streamed.forEach(() => stage.advance());
      // The files no writer stamped (the lists and their twins), in slices: 200,000 absolute paths
      // at once were a peak of memory of their own.
      const unstamped: number[] = [];
      for (let tag = 0; tag < written.names.length; tag++)
        if (Number.isNaN(written.stamps[tag * ROW_STAMP_FIELDS])) unstamped.push(tag);
      for (let start = 0; start < unstamped.length; start += STAT_SLICE) {
        const slice = unstamped.slice(start, start + STAT_SLICE);
        const stats = await statMany(slice.map((tag) => target(written.names[tag]!)));
        slice.forEach((tag, n) => {
          const stamp = stats.stamp(n);
          if (stamp) stamped(tag, stamp); // else NaN: a file gone already is never reused
        });
      }
      manifest = { out: outDir, files: outputRows(previous) };
      for (const [relative, { tag, files, ...table }] of tables)
        listTables.set(relative, {
          ...table,
          stamps: Array.from({ length: files }, (_, k) => rowStamp(written, tag + k)),
        });
      stage.done();
      if (accept && !accept(manifest.files)) {
        await abandon();
        return undefined;
      }
      // Swap: the old folder steps aside, the new one takes its name, the old one goes.
      const hadPrevious = await rename(outDir, previousDir).then(
        () => true,
        (error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT') return false;
          throw error;
        },
      );
      await rename(staging, outDir);
      moves.length = 0;
      settled = true;
      if (hadPrevious) await removeTree(previousDir);
      await removeTree(trash);
    } catch (error) {
      await abandon();
      throw error;
    }
    manifest.folders = await folderStamps(outDir, manifest.files.names);
    return {
      files: writtenCount + reused,
      bytes,
      reused,
      renderedItems,
      compressedSegments,
      manifest,
      lists: listTables,
    };
  };

  /**
   * The files this build takes from the previous output, their rows there marked (findReusable
   * marked the others'); `found` is false when a list taken by its table has no row there.
   */
  const reusedFiles = (previous: PreviousOutput | undefined): { names: string[]; found: boolean } => {
    const names: string[] = [];
    let found = previous !== undefined;
    let hint = 0;
    for (const relative of reusedLists.keys()) {
      const row = previous ? previous.find(relative, hint) : -1;
      if (row >= 0) {
        previous!.reused[row] = 1;
        hint = row + 1;
      } else found = false;
      names.push(relative);
    }
    for (const plan of [plans.media, plans.whole]) {
      if (!plan) continue;
      for (let k = 0; k < plan.files.length; k++) if (plan.tags[k]! < 0) names.push(plan.files[k]!);
    }
    return { names, found };
  };

  await Promise.all(handedOver);
  return { copyMedia, finish, abandon };
}

interface Placement {
  outDir: string;
  staging: string;
  /** The files taken from the previous output; `found`: each has its row in the previous manifest marked. */
  reused: { names: readonly string[]; found: boolean };
  /** The files this build wrote into the staging folder. */
  written: readonly string[];
  previous: PreviousOutput | undefined;
  /** [from, to] of every folder or file moved out of (or into) the previous output, to undo on failure. */
  moves: [string, string][];
  /** Where files of an adopted folder that changed or went are kept until the swap. */
  trash: string;
  ensureFolder: (file: string) => Promise<unknown>;
}

/**
 * Puts the reused files into the staging folder. A folder whose files are all reused, that holds
 * exactly the files the previous build wrote there (its stamp is unchanged: nothing was added or
 * removed since), is moved as a whole: one rename instead of a link per file, and nothing left to
 * delete afterwards. Other reused files are hard-linked one by one.
 */
async function placeReused(p: Placement): Promise<void> {
  const inStaging = (relative: string) => under(p.staging, relative);
  const inPrevious = (relative: string) => under(p.outDir, relative);
  const placeFile = async (relative: string) => {
    const file = inStaging(relative);
    await p.ensureFolder(file);
    await link(inPrevious(relative), file);
  };
  const previous = p.previous;
  if (!previous?.folders || !p.reused.found) {
    await forEachLimited(p.reused.names, WRITE_CONCURRENCY, placeFile);
    return;
  }
  // This build's files by folder: the reused first (numbered as in p.reused), then the written.
  const ours = [...p.reused.names, ...p.written];
  const isReused = (file: number) => file < p.reused.names.length;
  const newTree = folderTree(ours);
  const oldTree = folderTree(previous.rows.names);
  const previousFolders = previous.folders;
  const whole = new Map<string, Promise<boolean>>();
  const isWhole = (folder: string): Promise<boolean> => {
    let known = whole.get(folder);
    if (!known)
      whole.set(
        folder,
        (known = (async () => {
          const mine = newTree.get(folder)!;
          const theirs = oldTree.get(folder);
          const recorded = previousFolders.get(folder);
          // Every file of ours reused is a file of theirs (same path): as many, and all reused, they are the same files.
          if (
            !theirs ||
            !recorded ||
            mine.files.length !== theirs.files.length ||
            !mine.files.every(isReused) ||
            !sameMembers(mine.folders, theirs.folders)
          )
            return false;
          const stat = await lstat(inPrevious(folder)).catch(() => undefined);
          if (!stat?.isDirectory() || stat.mtimeMs !== recorded.mtimeMs || stat.ino !== recorded.ino) return false;
          for (const child of mine.folders) if (!(await isWhole(child))) return false;
          return true;
        })()),
      );
    return known;
  };
  let replaced = 0;
  /**
   * A folder of files only, mostly unchanged (100,000 pages after one edit), is taken over from the
   * previous output as a whole: the files that changed or went are moved aside (kept until the swap,
   * so that a failure can put everything back), the new ones moved in, and the folder moved into the
   * staging folder. A few renames instead of a link per unchanged file.
   */
  const adopt = async (folder: string): Promise<boolean> => {
    const mine = newTree.get(folder)!;
    const theirs = oldTree.get(folder);
    const recorded = previousFolders.get(folder);
    if (folder === '' || !theirs || !recorded || mine.folders.length > 0 || theirs.folders.length > 0) return false;
    const kept = mine.files.filter(isReused).length;
    if (kept < ADOPT_MIN_FILES || kept * 2 < mine.files.length) return false;
    const stat = await lstat(inPrevious(folder)).catch(() => undefined);
    if (!stat?.isDirectory() || stat.mtimeMs !== recorded.mtimeMs || stat.ino !== recorded.ino) return false;
    const move = async (from: string, to: string) => {
      await rename(from, to);
      p.moves.push([from, to]);
    };
    await mkdir(p.trash, { recursive: true });
    for (const row of theirs.files)
      if (!previous.reused[row])
        await move(inPrevious(previous.rows.names[row]!), path.join(p.trash, String(replaced++)));
    for (const file of mine.files) if (!isReused(file)) await move(inStaging(ours[file]!), inPrevious(ours[file]!));
    await rmdir(inStaging(folder)).catch(() => {});
    await p.ensureFolder(inStaging(folder));
    await move(inPrevious(folder), inStaging(folder));
    return true;
  };
  const files: string[] = [];
  const place = async (folder: string): Promise<void> => {
    if (await adopt(folder)) return;
    const { files: direct, folders } = newTree.get(folder)!;
    for (const file of direct) if (isReused(file)) files.push(ours[file]!);
    await forEachLimited(folders, WRITE_CONCURRENCY, async (child) => {
      if (!(await isWhole(child))) return place(child);
      const to = inStaging(child);
      await p.ensureFolder(to);
      await rename(inPrevious(child), to);
      p.moves.push([inPrevious(child), to]);
    });
  };
  await place('');
  await forEachLimited(files, WRITE_CONCURRENCY, placeFile);
}

/** Arrays, not sets: at 100,000 one-page folders the tree's size is what matters. */
interface TreeNode {
  /** The files directly in the folder, by their position in the list the tree was made from. */
  files: number[];
  folders: string[];
}

/** Folder (relative, '' for the root) → the files and folders directly in it (each file listed once). */
function folderTree(files: readonly string[]): Map<string, TreeNode> {
  const tree = new Map<string, TreeNode>([['', { files: [], folders: [] }]]);
  files.forEach((file, position) => {
    let child = file;
    for (let isFile = true; ; isFile = false) {
      const slash = child.lastIndexOf('/');
      const folder = slash < 0 ? '' : child.slice(0, slash);
      let node = tree.get(folder);
      const known = node !== undefined;
      if (!node) tree.set(folder, (node = { files: [], folders: [] }));
      if (isFile) node.files.push(position);
      else node.folders.push(child);
      if (known || folder === '') break;
      child = folder;
    }
  });
  return tree;
}

/** The folders that hold `files`, and their parents, without the root. */
function foldersOf(files: Iterable<string>): Set<string> {
  const folders = new Set<string>();
  for (const file of files) {
    for (let slash = file.lastIndexOf('/'); slash > 0; slash = file.lastIndexOf('/', slash - 1)) {
      const folder = file.slice(0, slash);
      if (folders.has(folder)) break;
      folders.add(folder);
    }
  }
  return folders;
}

function sameMembers(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  if (a.length === 1) return a[0] === b[0];
  const set = new Set(b);
  return a.every((item) => set.has(item));
}

/** The stamps of every folder holding output files, taken after the swap (their final state). */
async function folderStamps(outDir: string, files: Iterable<string>): Promise<Map<string, FileStamp>> {
  const folders = [...foldersOf(files)];
  const stamps = new Map<string, FileStamp>();
  await forEachLimited(folders, WRITE_CONCURRENCY, async (folder) => {
    const stat = await lstat(path.join(outDir, ...folder.split('/')));
    stamps.set(folder, { size: 0, mtimeMs: stat.mtimeMs, ino: stat.ino });
  });
  return stamps;
}

/**
 * The previous build's files of a list, when they still are the files its table describes: same
 * stamp (the previous output's files are only ever replaced, never modified), and for the list the
 * size the table adds up to. Otherwise every item is rendered (and a twin's every segment
 * compressed). The list writer checks the stamps again as it opens them.
 */
function previousListFile(
  file: string,
  table: ListTable | undefined,
): { table: ListTable; files: PreviousListFile } | undefined {
  if (!table || !hasStamp(file, table.stamps[0]) || table.stamps[0]!.size !== tableBytes(table)) return undefined;
  // The twins' stamps follow the list's, in the order of PRECOMPRESSED.
  const twins = PRECOMPRESSED.flatMap((suffix, i) => {
    const segments = table.twins?.[suffix];
    const stamp = table.stamps[i + 1];
    return segments && hasStamp(`${file}${suffix}`, stamp)
      ? [{ suffix, file: `${file}${suffix}`, stamp: stamp!, table: segments }]
      : [];
  });
  return { table, files: { file, stamp: table.stamps[0]!, twins } };
}

/** Whether `file` is a file that still has the stamp recorded for it (the build's own outputs are replaced, never modified). */
function hasStamp(file: string, stamp: FileStamp | undefined): boolean {
  const stat = lstatSync(file, { throwIfNoEntry: false });
  return stamp !== undefined && stat?.isFile() === true && sameStamp(stampOfStat(stat), stamp);
}

/** A body as chunks of bytes: a list's chunks one by one, any other body as one chunk. */
function* chunksOf(body: OutputFile['body']): Iterable<Uint8Array[]> {
  if (typeof body === 'function') for (const chunk of body()) yield [Buffer.from(String(chunk), 'utf8')];
  else yield [typeof body === 'string' ? Buffer.from(body, 'utf8') : body];
}
