/**
 * The write stage, fast: the staging folder (stages/write.ts) is filled in parallel (file creation, not bytes, is what costs at
 * 100,000 pages). The lists come first (startSite), as soon as the journal is ordered: this thread
 * makes their chunks, with the items unchanged since the previous build named as ranges of its
 * list (list-items.ts), and the list writer's thread writes them and their twins, compressed in
 * segments (list-writer.ts, segmented-twins.ts). The PDFs follow as soon as they are checked
 * (copyMedia), copied or linked by two file writers' threads (file-writer.ts), handed over without
 * back-pressure. Then (finish) the pages are rendered here and written by a third. A
 * file whose inputs are unchanged since the previous build (same key, see OutputFile.key, or for a
 * PDF the same source stamp) is left where it is in the previous output instead of being written
 * again: the staging folder then holds only what changed, and the commit moves it in and removes the
 * files the output no longer has (stages/write.ts, patch). A build that reuses nothing swaps the
 * whole staging folder in. The output's files are only ever replaced, never modified.
 */

import { mkdir } from 'node:fs/promises';
import path from 'node:path';

import type { OutputManifest } from '../cache/cache.ts';
import { OutputRowsBuilder, rowFinder, rowStamp, type OutputRows } from '../cache/output-rows.ts';
import type { MediaCopy } from '../../stages/media.ts';

import { framingOf, type OutputFile } from '../../../shared/output-file.ts';

import { statMany, type FileStamp } from '../scan/stat-many.ts';
import { createFileWriter } from './file-writer.ts';
import { chunkKeys, keyed, splicedChunks, type ListTable } from './list-items.ts';
import { createListWriter } from './list-writer.ts';
import { silentProgress } from '../../progress.ts';
import {
  BROTLI_OPTIONS,
  GZIP_LEVEL,
  type RenderAt,
  type SiteWriter,
  type WriteOptions,
  type WriteStats,
} from './write-contract.ts';

export type { SiteWriter, WriteOptions, WriteStats };
export { BROTLI_OPTIONS, GZIP_LEVEL };
import { stageOutput } from '../../stages/write.ts';
import { isNoSpace, noSpaceError } from '../../../shared/no-space.ts';
import {
  type FilePlan,
  type PreviousOutput,
  STAT_SLICE,
  fileCount,
  filePlan,
  mediaKey,
  relativesOf,
  under,
} from './reusable-files.ts';
import { staleFiles } from './stale-files.ts';
import { chunksOf, hasStamp, previousListFile } from './previous-lists.ts';

/**
 * PDFs to put into the output from which a second thread shares them. A thread's start is about
 * 50 ms of CPU, the time of 1,500 copies: at 1,000 manuscripts, two threads started for 1,005 PDFs
 * while the lists were compressed and the pages' thread started, on two cores.
 */
const SECOND_MEDIA_WRITER_FROM = 5_000;

/** What a build stopped by a full disk did (shared/no-space.ts). */
const NO_SPACE_OUTCOME = 'build stopped; the output is unchanged';

/**
 * Begins writing the output with the lists (the precompressed outputs), whose compression is the
 * longest single task of a build after an edit: it runs while the build checks the PDFs
 * and renders the pages. Nothing outside the staging folder changes until `finish` swaps it in.
 */
export async function startSite(
  outDir: string,
  streamed: readonly OutputFile[],
  options: WriteOptions = {},
): Promise<SiteWriter> {
  const staged = await stageOutput(outDir, options.swapSteps).catch((error: unknown) => {
    throw isNoSpace(error) ? noSpaceError(path.dirname(outDir), NO_SPACE_OUTCOME, error) : error;
  });
  const staging = staged.folder;
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
  // with the stamps the scan took when the build started (200,000 files at 100,000 manuscripts).
  const reusedLists = new Map<string, { key: string; stamp: FileStamp }>();
  // Nothing is reused without the scan's listing: the update in place finds the files to remove there.
  for (const output of options.previousOutput ? streamed : []) {
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
    const first = written.count;
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

  // The pages and the PDFs go to different folders: a thread for the pages, two for the PDFs
  // (file-writer.ts). A copy is mostly the kernel's time (about 100 µs on ext4): on one thread the
  // copies were the last thing a cold build waited for, by 2 s at 100,000 PDFs.
  const writer = createFileWriter(stamped);
  // With no previous output to take them from, every page is written: the pages' thread starts
  // now, on the core this one leaves idle while it checks the PDFs and the references. Started
  // with the first pages, its start (about 0.1 s of CPU, with the PDFs' threads starting too) held
  // this thread up for 75 to 100 ms of a 1.1 s cold build at 1,000 manuscripts.
  if (!options.previousManifest) writer.expect(options.filesAtFinish ?? 0);
  // The PDFs are handed over without back-pressure: they begin while this thread is busy for a second
  // or more at a time (the references, the pages), and a writer fed a few batches at a time would
  // wait. The loop that hands them over (copyMedia) awaits each hand-over, so it advances with the
  // pages' loop; handing all over in one go made the build no faster (docs/performance.md).
  const mediaWriters = [createFileWriter(stamped, { unbounded: true }), createFileWriter(stamped, { unbounded: true })];
  /** Set once the output was swapped in, or the write abandoned: there is nothing left to undo. */
  let settled = false;
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
      ? previousListFile(under(outDir, output.path), options.previousLists?.get(output.path), framingOf(items))
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
   * their chunks.
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
        copies.map((copy) => ({ path: copy.to, key: mediaKey(copy) })),
        options.previousOutput,
      ));
      const mode = options.linkMedia === true ? 'link' : 'copy';
      const made: number[] = [];
      for (let i = 0; i < copies.length; i++) {
        if (plan.rows[i]! >= 0) reused++;
        else made.push(i);
      }
      // Each writer takes one half, in order: the PDFs of a folder mostly go to one thread, as files
      // created in one folder wait for each other (the folder's lock). A second thread only for
      // enough PDFs (SECOND_MEDIA_WRITER_FROM).
      const half = Math.ceil(made.length / (made.length >= SECOND_MEDIA_WRITER_FROM ? mediaWriters.length : 1));
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
    await staged.discard();
  };

  /** Every file of the output, in the order of the outputs: reused ones with their previous rows, written ones with their stamps. */
  const outputRows = (previous: PreviousOutput | undefined): OutputRowsBuilder => {
    const count = fileCount(streamed) + (plans.media?.files.length ?? 0) + (plans.whole?.files.length ?? 0);
    // Rows of their own: those written, and the lists taken as they are; the others point into `previous`.
    const rows = new OutputRowsBuilder(count, written.count + reusedLists.size);
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
    render: RenderAt = () => undefined,
  ): Promise<WriteStats | undefined> => {
    const stage = (options.progress ?? silentProgress).stage('write', streamed.length + whole.length + mediaCount);
    let manifest: OutputManifest;
    try {
      const mediaDone = (media ?? Promise.resolve()).then(() => stage.advance(mediaCount));
      const previous = readPreviousOutput();
      const plan = (plans.whole = await filePlan(outDir, previous, whole, options.previousOutput));
      if (previous) options.reusePlanned?.();
      // Pages while the PDFs are still being made: they go to different folders, and creating files
      // in one folder is serialized by the file system (one lock per folder). The pages are rendered
      // here, one after the other, and made by the file writer's thread.
      const pages = (async () => {
        let first = 0;
        for (const [index, output] of whole.entries()) {
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
            const text = render(index) ?? (typeof body === 'function' ? [...body()] : body);
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
      await listWriterClosed;
      streamed.forEach(() => stage.advance());
      // The files no writer stamped (the lists and their twins), in slices: 200,000 absolute paths
      // at once were a peak of memory of their own.
      const unstamped: number[] = [];
      for (let tag = 0; tag < written.count; tag++) if (Number.isNaN(written.stampField(tag, 0))) unstamped.push(tag);
      for (let start = 0; start < unstamped.length; start += STAT_SLICE) {
        const slice = unstamped.slice(start, start + STAT_SLICE);
        const stats = await statMany(slice.map((tag) => target(written.name(tag))));
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
      // Files are reused only where the scan listed the previous output (reusedLists, findReusable).
      if (reused === 0 || !options.previousOutput) await staged.swap();
      else {
        const placed = written.names();
        const removed = await staleFiles(outDir, options.previousOutput, () => reusedFiles(plans, reusedLists), placed);
        // From here on the staging folder stays if anything fails: once the update has begun, the
        // next command finishes it from there (shared/folder-patch.ts).
        settled = true;
        await staged.patch({ removed, placed });
      }
      settled = true;
    } catch (error) {
      // A full disk is said in one line: the threads' errors name no file, only the system call.
      // Told before the staging folder goes, which frees the inodes it took.
      const full = isNoSpace(error) ? noSpaceError(path.dirname(outDir), NO_SPACE_OUTCOME, error) : undefined;
      await abandon();
      throw full ?? error;
    }
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

  await Promise.all(handedOver);
  return { copyMedia, finish, abandon };
}

/** The files the output takes as they are from the previous output, in no particular order. */
function* reusedFiles(
  plans: { media?: FilePlan; whole?: FilePlan },
  reusedLists: ReadonlyMap<string, unknown>,
): Generator<string> {
  yield* reusedLists.keys();
  for (const plan of [plans.media, plans.whole]) {
    if (!plan) continue;
    for (let k = 0; k < plan.files.length; k++) if (plan.rows[k]! >= 0) yield plan.files[k]!;
  }
}
