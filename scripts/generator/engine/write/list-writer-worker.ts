/**
 * The list writer's thread (list-writer.ts): it writes the API lists and their twins from the
 * chunks the main thread makes, reading the ranges taken from the previous build's lists itself.
 * The lists are written one chunk after the other, each list in order, several lists at once.
 */
import { closeSync, createWriteStream, fstatSync, openSync, readSync, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { workerData, type MessagePort } from 'node:worker_threads';
import zlib from 'node:zlib';
import { joinChunk, type ByteRange, type ChunkPart } from './list-items.ts';
import { gzipSegments, segmentedTwins, type SegmentCodec, type SegmentTable } from '../compress/segmented-twins.ts';
import { sameStamp, stampOfStat, type FileStamp } from '../scan/stat-many.ts';

export interface ListWriterSetup {
  gzipLevel: number;
  brotli: zlib.BrotliOptions;
}

/** A file of the previous build, as the main thread found it: the file its table describes. */
export interface PreviousFile {
  file: string;
  stamp: FileStamp;
}

/**
 * The previous build's file of a list (the chunks' ranges are read from it), and those of its twins
 * with their tables (their segments are taken from them instead of being compressed again).
 */
export interface PreviousListFile extends PreviousFile {
  twins: (PreviousFile & { suffix: string; table: SegmentTable })[];
}

export type ListWriterRequest =
  | { list: number; open: { file: string; precompress: boolean; previous?: PreviousListFile } }
  | { list: number; chunk: ChunkPart[]; key?: string }
  | { list: number; end: true }
  /** Stop every list where it is: its files are closed, never completed. */
  | { stop: true };

export type ListWriterResponse =
  /** The oldest chunk of `list` not yet reported was written. */
  | { list: number; taken: true }
  /** The list is written: the sizes of its files and the tables of its twins, by suffix ('', '.gz', '.br'). */
  | { list: number; sizes: Record<string, number>; twins: Record<string, SegmentTable>; compressed: number }
  | { list: number; error: { message: string; code?: string } }
  | { stopped: true };

interface OpenList {
  files: { suffix: string; file: WriteStream }[];
  sinks: {
    write(bytes: Buffer, key?: string): Promise<void>;
    end(): Promise<{ tables: SegmentTable[]; compressed: number } | void>;
  }[];
  /** The suffixes of the twins made in segments, in the order of their tables. */
  segmented: string[];
  /** The previous files, open: the chunks' ranges are read from the list, known segments from the twins. */
  previous: { fd: number; file: string }[];
  /** Each message of this list runs after the one before. */
  queue: Promise<void>;
  /** Every file closed: listened for from the start, since a small file may close before its list ends. */
  closed: Promise<unknown>;
  failed: Promise<never>;
}

/** A previous file, open, if it still is what the main thread found (the build's own output, replaced, never modified). */
function openPrevious(previous: PreviousFile): number {
  const fd = openSync(previous.file, 'r');
  if (!sameStamp(stampOfStat(fstatSync(fd)), previous.stamp)) {
    closeSync(fd);
    throw new Error(`${previous.file} changed while the build was running`);
  }
  return fd;
}

function read(previous: { fd: number; file: string }, range: ByteRange): Buffer {
  const buffer = Buffer.allocUnsafe(range.length);
  readInto(previous, range, buffer, 0);
  return buffer;
}

/** Reads `range` of a previous file into `into` from `at`. */
function readInto(
  previous: { fd: number; file: string },
  { position, length }: ByteRange,
  into: Uint8Array,
  at: number,
): void {
  for (let done = 0; done < length;) {
    const bytes = readSync(previous.fd, into, at + done, length - done, position + done);
    if (bytes === 0) throw new Error(`${previous.file} ended before its recorded length`);
    done += bytes;
  }
}

/**
 * The list writer: `handle` takes each request in order, and `post` gets each answer. The thread
 * runs one (below); a list writer whose lists are small runs one on its own thread (list-writer.ts).
 */
export function listWriterCore(
  setup: ListWriterSetup,
  post: (message: ListWriterResponse) => void,
): (request: ListWriterRequest) => void {
  /*
   * The gzip twin is made in segments (segmented-twins.ts), each taken from the previous twin when its
   * items are unchanged. The brotli twin is one stream per list, compressed whole on the thread pool
   * while the list is written: Node's public zlib cannot give a brotli encoder the place in the stream
   * where it starts (BROTLI_PARAM_STREAM_OFFSET is not among the parameters it accepts), and without
   * it segments compressed on their own do not join into one stream (the stream header, the static
   * dictionary's distances and the last distances used all depend on what came before). A list whose
   * key is unchanged keeps its `.br` as it is (write.ts); a changed list's is compressed again: at
   * 100,000 manuscripts, the 216 MB manuscripts list in 2.3 to 3.3 s of one core, alongside the rest
   * of the build.
   */
  const codecs = new Map<string, SegmentCodec>([['.gz', gzipSegments(setup.gzipLevel)]]);

  const lists = new Map<number, OpenList>();
  /** Set by a stop: what fails afterwards (a write into a file just closed) is the stop's doing, not reported. */
  let stopping = false;

  function open(list: number, request: { file: string; precompress: boolean; previous?: PreviousListFile }): OpenList {
    const files = [{ suffix: '', file: createWriteStream(request.file) }];
    const toFile = (file: Writable) => ({
      write: async (bytes: Buffer) => {
        if (!file.write(bytes)) await once(file, 'drain');
      },
      end: async () => void file.end(),
    });
    const sinks: OpenList['sinks'] = [toFile(files[0]!.file)];
    const previous: OpenList['previous'] = [];
    const segmented = request.precompress ? [...codecs.keys()] : [];
    try {
      if (request.previous) previous.push({ fd: openPrevious(request.previous), file: request.previous.file });
      // Known segments: those of the previous twins made the same way (a twin with no table is left alone).
      const known = new Map<string, { at: number; position: number; length: number }>();
      for (const twin of request.previous?.twins ?? []) {
        if (!segmented.includes(twin.suffix)) continue;
        const at = previous.push({ fd: openPrevious(twin), file: twin.file }) - 1;
        let position = twin.table.start;
        twin.table.keys.split('\n').forEach((key, i) => {
          const length = twin.table.lengths[i]!;
          if (!known.has(key)) known.set(key, { at, position, length });
          position += length;
        });
      }
      if (request.precompress) {
        const twins = segmented.map((suffix) => ({
          suffix,
          codec: codecs.get(suffix)!,
          file: createWriteStream(`${request.file}${suffix}`),
        }));
        files.push(...twins);
        sinks.push(
          segmentedTwins(twins, (key) => {
            const segment = known.get(key);
            return segment && read(previous[segment.at]!, segment);
          }),
        );
      }
    } catch (error) {
      for (const { fd } of previous) closeSync(fd);
      for (const { file } of files) file.destroy();
      throw error;
    }
    /** Streams whose failure fails the list: its files, and the brotli stream when there is one. */
    const streams: { on(event: 'error', listener: (error: Error) => void): unknown }[] = [];
    if (request.precompress) {
      const file = createWriteStream(`${request.file}.br`);
      const compress = zlib.createBrotliCompress(setup.brotli);
      compress.pipe(file);
      files.push({ suffix: '.br', file });
      sinks.push(toFile(compress));
      streams.push(compress);
    }
    streams.push(...files.map(({ file }) => file));
    const failed = new Promise<never>((_, reject) => {
      for (const stream of streams) stream.on('error', reject);
    });
    failed.catch(() => {}); // raced with each step
    const closed = Promise.all(files.map(({ file }) => once(file, 'close')));
    closed.catch(() => {}); // raced with `failed` in finish
    const opened: OpenList = { files, sinks, segmented, previous, queue: Promise.resolve(), closed, failed };
    lists.set(list, opened);
    return opened;
  }

  async function finish(list: number, opened: OpenList): Promise<void> {
    const ended = await Promise.race([Promise.all(opened.sinks.map((sink) => sink.end())), opened.failed]);
    await Promise.race([opened.closed, opened.failed]);
    const sizes: Record<string, number> = {};
    for (const { suffix, file } of opened.files) sizes[suffix] = file.bytesWritten;
    const twins: Record<string, SegmentTable> = {};
    const segments = ended.find((result) => result !== undefined);
    opened.segmented.forEach((suffix, i) => (twins[suffix] = segments!.tables[i]!));
    await close(list);
    post({ list, sizes, twins, compressed: segments?.compressed ?? 0 });
  }

  /** Closes the list's files (complete or not) and the previous files. */
  function close(list: number): Promise<unknown> {
    const opened = lists.get(list);
    if (!opened) return Promise.resolve();
    lists.delete(list);
    for (const { fd } of opened.previous) closeSync(fd);
    for (const { file } of opened.files) file.destroy();
    return opened.closed.catch(() => {});
  }

  return (request: ListWriterRequest) => {
    if ('stop' in request) {
      stopping = true;
      void Promise.all([...lists.keys()].map(close)).then(() => post({ stopped: true }));
      return;
    }
    const { list } = request;
    const fail = (error: NodeJS.ErrnoException) => {
      if (stopping) return;
      void close(list).then(() =>
        post({ list, error: { message: error.message, ...(error.code ? { code: error.code } : {}) } }),
      );
    };
    if ('open' in request) {
      try {
        open(list, request.open);
      } catch (error) {
        fail(error as NodeJS.ErrnoException);
      }
      return;
    }
    const opened = lists.get(list);
    if (!opened) return; // failed, or stopped: what was still on its way is dropped
    opened.queue = opened.queue
      .then(async () => {
        if (lists.get(list) !== opened) return; // failed or stopped meanwhile
        if ('end' in request) return finish(list, opened);
        const bytes = joinChunk(request.chunk, (range, into, at) => {
          if (opened.previous.length === 0) throw new Error('a list chunk names the previous file, which is not open');
          readInto(opened.previous[0]!, range, into, at);
        });
        await Promise.race([Promise.all(opened.sinks.map((sink) => sink.write(bytes, request.key))), opened.failed]);
        post({ list, taken: true });
      })
      .catch(fail);
  };
}

/**
 * The thread's one task (list-writer.ts): a list writer answering the requests that come through
 * `port`, until the port is closed. Lists come as a stream of chunks, not as tasks: piscina hands a
 * task's port over as it is.
 */
export default function writeListsOnThread(port: MessagePort): Promise<void> {
  const handle = listWriterCore((workerData as { setup: ListWriterSetup }).setup, (message) =>
    port.postMessage(message),
  );
  port.on('message', handle);
  return new Promise((resolve) => port.once('close', resolve));
}
