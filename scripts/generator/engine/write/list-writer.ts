/**
 * The API lists are written by a thread of their own (small lists excepted: IN_THREAD_BYTES). This thread makes each list's
 * chunks (list-items.ts): items rendered, and ranges of the previous build's list for the items
 * that did not change; the list writer's thread (list-writer-worker.ts) reads those ranges, writes
 * the list, and compresses its twins in segments (segmented-twins.ts).
 *
 * After one edit at 100,000 manuscripts nearly every chunk is a range: this thread sends a few
 * hundred small messages and goes on, while the other writes 216 MB and its twins. Written from
 * here, each chunk needed this thread for a moment, and the steps of the build that follow hold it
 * for hundreds of milliseconds at a time: the lists had to be written before the build went on.
 */
import type { MessagePort } from 'node:worker_threads';
import { messageChannel, startPool, type ThreadPool } from '../start-thread.ts';
import type { ChunkPart } from './list-items.ts';
import { ownsItsBuffer } from '../../../shared/movable-bytes.ts';
import {
  listWriterCore,
  type ListWriterRequest,
  type ListWriterResponse,
  type ListWriterSetup,
  type PreviousListFile,
} from './list-writer-worker.ts';
import type { SegmentTable } from '../compress/segmented-twins.ts';

export type { ListWriterSetup, PreviousListFile };

/** A list written: the sizes of its files and the tables of its twins, by suffix ('', '.gz', '.br'). */
export interface WrittenList {
  sizes: Record<string, number>;
  twins: Record<string, SegmentTable>;
  /** Segments compressed; the others were taken from the previous twins. */
  compressed: number;
}

/**
 * A list of fewer bytes than this is written on this thread, with the thread's own code
 * (listWriterCore), and the thread is started only for a larger one. Its start is about 0.1 s of
 * CPU, more than this thread spends on a list of a few MB: the compression runs on the thread pool
 * either way, and after an edit the ranges of the previous list are read in one call each. At
 * 1,000 manuscripts the lists are 2.4 MB; at 10,000 the manuscripts list is 22 MB.
 */
const IN_THREAD_BYTES = 8 << 20;
/** Bytes of a list's chunks sent and not yet written: enough to keep the thread busy, few enough to bound memory. */
const BYTES_IN_FLIGHT = 4 << 20;
/**
 * The thread's young generation, in MB. It holds the chunks' wrappers and keys, never many at once;
 * it would otherwise take the command line's (semi-spaces of 32 MB, cli.cjs), sized for the records.
 */
const YOUNG_GENERATION_MB = 16;

export interface ListRequest {
  file: string;
  /** Also write the `.gz` and `.br` twins. */
  precompress: boolean;
  /** The previous build's files of the list: the chunks' ranges and known segments are read from them. */
  previous?: PreviousListFile;
}

export interface ListWriter {
  /**
   * Writes one list from its chunks (with their keys, when they have them: segmented-twins.ts). A
   * chunk of one part that is a whole buffer of its own is handed over: it moves to the thread.
   * `handedOver` is called once every chunk is sent, or as soon as the thread has as many bytes as
   * it may have waiting (BYTES_IN_FLIGHT): the caller may then take its thread for other work.
   */
  write(
    request: ListRequest,
    chunks: Iterable<ChunkPart[]>,
    keys: Iterator<string> | undefined,
    handedOver?: () => void,
  ): Promise<WrittenList>;
  /** Stops every list where it is, its files closed: for a write that is abandoned. */
  stop(): Promise<void>;
  close(): Promise<void>;
}

export interface ListWriterOptions {
  /** Lists of fewer bytes than this are written on this thread (IN_THREAD_BYTES by default; 0: none, for the tests). */
  inThreadBytes?: number;
}

export function createListWriter(setup: ListWriterSetup, options: ListWriterOptions = {}): ListWriter {
  const inThreadBytes = options.inThreadBytes ?? IN_THREAD_BYTES;
  let lists = 0;
  /** Per list: its end (or failure), and a wake-up for each chunk written. */
  const open = new Map<number, { done(written: WrittenList): void; failed(error: Error): void; taken(): void }>();
  /** Called when a writer (the thread, or the one on this thread) has stopped (ListWriter.stop). */
  const stopped: (() => void)[] = [];
  let broken: Error | undefined;
  const breakAll = (error: Error) => {
    broken ??= error;
    for (const list of open.values()) list.failed(error);
    open.clear();
    for (const resolve of stopped.splice(0)) resolve();
  };
  const answer = (response: ListWriterResponse) => {
    if ('stopped' in response) return stopped.shift()?.();
    const list = open.get(response.list);
    if (!list) return;
    if ('taken' in response) return list.taken();
    open.delete(response.list);
    if ('sizes' in response)
      list.done({ sizes: response.sizes, twins: response.twins, compressed: response.compressed });
    else list.failed(Object.assign(new Error(response.error.message), { code: response.error.code }));
  };
  /** The thread, started with the first list too large for this one, and the port its one task listens on. */
  let pool: ThreadPool | undefined;
  let port: MessagePort | undefined;
  const thread = () => {
    if (port) return port;
    pool = startPool('list-writer-worker', new URL('./list-writer-worker.ts', import.meta.url), {
      minThreads: 1,
      maxThreads: 1,
      // Its one task is written with streams: the thread's event loop must never be held waiting for another.
      atomics: 'disabled',
      workerData: { setup },
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    const channel = messageChannel();
    channel.port1.on('message', answer);
    pool
      .run(channel.port2, { transferList: [channel.port2] })
      .then(() => breakAll(new Error('the list writer stopped before its work was done')), breakAll);
    return (port = channel.port1);
  };
  /** The same work on this thread, for the small lists; its answers come as the thread's would, after the call. */
  let here: ((request: ListWriterRequest) => void) | undefined;
  const local = () => (here ??= listWriterCore(setup, (response) => queueMicrotask(() => answer(response))));

  return {
    async write(request, chunks, keys, handedOver = () => {}) {
      if (broken) throw broken;
      const list = lists++;
      // The first chunks, up to the bytes a list may have to be written here: a list that ends
      // before is (its ranges of the previous list count as the bytes they are).
      const iterator = chunks[Symbol.iterator]();
      const first: { made: ChunkPart[]; key: string | undefined }[] = [];
      let firstBytes = 0;
      let ended = false;
      while (firstBytes < inThreadBytes) {
        const next = iterator.next();
        if (next.done) {
          ended = true;
          break;
        }
        first.push({ made: next.value, key: keys?.next().value });
        for (const part of next.value) firstBytes += part instanceof Uint8Array ? part.byteLength : part.length;
      }
      const onThread = !ended;
      const send = onThread
        ? (message: ListWriterRequest, transfer: ArrayBuffer[] = []) => thread().postMessage(message, transfer)
        : (message: ListWriterRequest) => local()(message);
      /** The bytes of each chunk sent and not yet written, oldest first. */
      const inFlight: number[] = [];
      let bytesInFlight = 0;
      let wake = () => {};
      let failure: Error | undefined;
      const result = new Promise<WrittenList>((resolve, reject) => {
        open.set(list, {
          done: resolve,
          failed: (error) => {
            failure = error;
            reject(error);
            wake();
          },
          taken: () => {
            bytesInFlight -= inFlight.shift() ?? 0;
            wake();
          },
        });
      });
      result.catch(() => {}); // awaited below, after the last chunk is sent
      send({ list, open: request });
      const all = function* () {
        yield* first;
        for (let next = iterator.next(); !next.done; next = iterator.next())
          yield { made: next.value, key: keys?.next().value };
      };
      for (const { made, key } of all()) {
        if (failure) break;
        const keyed = key !== undefined ? { key } : {};
        let bytes = 0;
        for (const part of made) if (part instanceof Uint8Array) bytes += part.byteLength;
        if (made.every((part) => part instanceof Uint8Array)) {
          // A chunk rendered here (a cold build): one buffer of its own (splicedChunks makes each
          // chunk so), which moves to the other thread as it is; other parts are copied into one
          // first, since they may be views on buffers the build still holds.
          const [only] = made as Uint8Array[];
          const joined = made.length === 1 && ownsItsBuffer(only!) ? only! : Buffer.concat(made as Uint8Array[]);
          send(
            { list, chunk: [joined], ...keyed },
            onThread && ownsItsBuffer(joined) ? [joined.buffer as ArrayBuffer] : [],
          );
        } else {
          // Ranges of the previous list (after an edit), and the few bytes between them: copied with the message.
          send({ list, chunk: made, ...keyed });
        }
        inFlight.push(bytes);
        bytesInFlight += bytes;
        if (bytesInFlight > BYTES_IN_FLIGHT) handedOver();
        while (bytesInFlight > BYTES_IN_FLIGHT && !failure) await new Promise<void>((resolve) => (wake = resolve));
      }
      if (!failure) send({ list, end: true });
      handedOver();
      return result;
    },
    stop: async () => {
      if (!broken) {
        const writers = [
          ...(port ? [(message: ListWriterRequest) => port!.postMessage(message)] : []),
          ...(here ? [here] : []),
        ];
        await Promise.all(
          writers.map(
            (send) =>
              new Promise<void>((resolve) => {
                stopped.push(resolve);
                send({ stop: true });
              }),
          ),
        );
      }
      const error = new Error('writing the lists was stopped');
      for (const list of open.values()) list.failed(error);
      open.clear();
    },
    close: async () => {
      port?.close();
      await pool?.destroy();
    },
  };
}
