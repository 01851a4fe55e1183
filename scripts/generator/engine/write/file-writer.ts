/**
 * Makes many small files (the landing pages and the PDFs: 100,000 each at 100,000 manuscripts) on
 * a thread of their own. Through the thread pool each file was an open, a write and a
 * close, or a link, each a trip back to the main thread, and a CPU profile of the cold build showed
 * the main thread, which also renders the pages and the lists, spending seconds on them (2 s for
 * the links alone). Here the main thread hands over batches and goes on rendering; the writer
 * thread makes the system calls one after the other, which costs nothing in parallelism: files
 * created in one folder are serialized by the file system anyway. A build keeps one writer for
 * the pages and two for the PDFs (write.ts), since they go to different folders.
 *
 * A page's text is encoded into its batch's one buffer, shared with the thread and filled again
 * once the batch is written: an encoding per page into a buffer of its own took twice as long (0.7
 * against 0.3 s for 100,000 pages of 5,600 characters) and gave the garbage collector 100,000
 * buffers. Handing over the text instead, to be encoded on the writer's thread, cost the main
 * thread as much in copying (a page with Cyrillic names is held at two bytes per character) as the
 * encoding it saved. A page may come as its parts (render/pages.ts), each encoded where it lands.
 * A part that is a DeferredText (a landing page's abstract as HTML, and its summary) is made on the
 * thread: its source bytes are copied into the batch's buffer, and the thread puts the text it
 * makes of them in their place (abstract-text.ts says why). When the thread is behind, this one
 * makes the part instead, where it would otherwise soon wait (writeText).
 *
 * The thread answers each batch with the stamps of the files it made, for the build cache
 * (`stamped`): taken from each file as it is made, not by stamping 200,000 files once all are.
 *
 * A writer given few files (IN_THREAD_FILES) makes them on this thread once it is closed, with the
 * thread's own code (batchWriter), and never starts the thread.
 */
import { startPool, type ThreadPool } from '../start-thread.ts';
import { ownsItsBuffer } from '../../../shared/movable-bytes.ts';
import type { FileStamp } from '../scan/stat-many.ts';
import type { DeferredText } from '../../../shared/output-file.ts';
import { batchWriter, type BatchAnswer, type CopyMode, type FileBatch } from './file-writer-worker.ts';

export type { CopyMode, FileBatch };

/** Files per message, and messages in flight before `write` waits. */
const BATCH = 64;
const IN_FLIGHT = 4;
/** The buffer a batch's texts are encoded into (a text that cannot fit gets one of its own). */
const BATCH_BYTES = 1 << 20;
const textBuffer = () => Buffer.from(new SharedArrayBuffer(BATCH_BYTES));

/** A batch made up and not yet written: what the thread is given, and what this one keeps of it. */
interface HeldBatch {
  batch: FileBatch;
  transfer: ArrayBuffer[];
  tags: number[];
  texts?: Buffer;
}
/**
 * Files a writer holds before it starts its thread; a writer closed with no more than these makes
 * them on this thread. A thread's start is about 0.1 s of CPU (Node's own start and the modules),
 * and a file made here 30 to 40 µs of this thread's time: the sample journal's build (101 files
 * over three writers) spent more on starting them than on everything it wrote (0.61 to 0.75 s of
 * user CPU before, 0.29 to 0.42 s with the list writer's small lists also kept here). At 1,000
 * manuscripts (1,000 pages, 1,005 PDFs over two writers) the threads still pay off in wall time:
 * all on this thread, five alternating cold builds took 1.22 to 1.96 s against 0.89 to 1.84 s with
 * the threads, for 0.15 s less CPU.
 */
const IN_THREAD_FILES = 256;

/**
 * Each file's `tag` (the caller's number for it) is handed to `stamped` with the file's stamp once
 * it is made, as `fstat` (or for a link, `lstat`) said it right after; a negative tag is not.
 */
export interface FileWriter {
  /** Queues a file; resolves once it is handed over (not written): `close` waits for all. */
  write(absolutePath: string, bytes: Uint8Array, tag?: number): Promise<void>;
  /**
   * Queues a file of this text (or of these parts one after the other), as UTF-8; resolves as
   * `write`. Each text is encoded on its own: one that ends inside a surrogate pair gets U+FFFD
   * there, as TextEncoder would (a landing page's parts are whole texts: lines, tags, a summary,
   * never a text cut in two). A DeferredText is made on the writer's thread.
   */
  writeText(absolutePath: string, text: string | readonly (string | DeferredText)[], tag?: number): Promise<void>;
  /** Queues a copy of `from` (see CopyMode); resolves once handed over, as `write`. */
  copy(from: string, absolutePath: string, mode: CopyMode, tag?: number): Promise<void>;
  /**
   * Tells the writer that about `files` files are coming: with more than it would make on this
   * thread (IN_THREAD_FILES), its thread starts now, while the caller does other work, rather than
   * once the first batches wait for it.
   */
  expect(files: number): void;
  close(): Promise<void>;
  /** Stops the thread at once (after a failure elsewhere). */
  abort(): Promise<void>;
}

export interface FileWriterOptions {
  /**
   * Hand every batch over as soon as it is full, however many the thread has yet to make: for copies
   * (a path and a source each, no bytes), queued while the caller goes on to work that holds its
   * thread for seconds. Otherwise `write`, `writeText` and `copy` wait while IN_FLIGHT batches are.
   */
  unbounded?: boolean;
  /**
   * How many batches waiting for the thread make it behind, so that deferred parts are made on
   * this thread instead (writeText); IN_FLIGHT by default, 0 for every one (the tests).
   */
  behindAt?: number;
  /** Files held before the thread starts (IN_THREAD_FILES by default); 0 starts it with the first batch (the tests). */
  inThreadFiles?: number;
}

export function createFileWriter(
  stamped: (tag: number, stamp: FileStamp) => void = () => {},
  options: FileWriterOptions = {},
): FileWriter {
  // Started with the first batch: a thread costs about 0.1 s of CPU and 10 MB to start, and after
  // one edit the PDFs' writers have nothing to write. At the start of a cold build's write stage
  // memory is at its peak.
  let pool: ThreadPool | undefined;
  /** Batches held, not yet sent: no thread has been started (IN_THREAD_FILES). */
  let held: HeldBatch[] = [];
  let heldFiles = 0;
  const inFlight: Promise<void>[] = [];
  let failure: Error | undefined;
  let next = 0;
  /** The batch being filled: each file's path, its bytes (for a copy, the CopyMode), and the file it copies (null for a write). */
  let paths: string[] = [];
  let bodies: (Uint8Array | CopyMode)[] = [];
  let sources: (string | null)[] = [];
  let tags: number[] = [];
  /** The batch's deferred parts: file, maker, and where the source lies in the file's bytes, four numbers each. */
  let deferred: number[] = [];
  /**
   * Where the batch's texts are encoded, and how much of it they fill. Shared with the thread, which
   * reads the pages from it where they are: it is filled again once its batch is written.
   */
  let texts: Buffer = textBuffer();
  let used = 0;
  /**
   * Text buffers whose batch is written, to be filled again. A new buffer of this size is memory the
   * kernel has to find and clear: 600 MB of pages at 100,000 manuscripts, about a second of the
   * kernel's time in a cold build.
   */
  const spare: Buffer[] = [];
  const encoder = new TextEncoder();
  /**
   * How many batches the thread has written, counted by the thread itself: this thread learns of
   * each from its answer only once it waits, so this is what tells it how far behind the thread is.
   */
  const batchesWritten = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  /** A batch written (here or on the thread): its files' stamps to `stamped`, its text buffer to `spare`. */
  const settle = ({ tags: batchTags, texts: batchTexts }: HeldBatch, answer: BatchAnswer) => {
    if (batchTexts) spare.push(batchTexts);
    if ('error' in answer)
      throw (failure ??= Object.assign(new Error(answer.error.message), { code: answer.error.code }));
    const { stamps } = answer;
    batchTags.forEach((tag, i) => {
      if (tag >= 0) stamped(tag, { size: stamps[i * 3]!, mtimeMs: stamps[i * 3 + 1]!, ino: stamps[i * 3 + 2]! });
    });
  };
  const thread = () =>
    (pool ??= startPool('file-writer-worker', new URL('./file-writer-worker.ts', import.meta.url), {
      minThreads: 1,
      maxThreads: 1,
      // Every batch goes to the thread at once: it never waits for this one, which holds its
      // thread for long stretches while it renders.
      concurrentTasksPerWorker: Infinity,
      workerData: { written: batchesWritten.buffer },
    }));
  const post = (item: HeldBatch) => {
    const done = thread()
      .run(item.batch, { transferList: item.transfer })
      .then(
        (answer: BatchAnswer) => settle(item, answer),
        (error: Error) => {
          throw (failure ??= error);
        },
      );
    done.catch(() => {}); // awaited by write or close
    inFlight.push(done);
  };
  const send = async () => {
    if (paths.length === 0) return;
    next++;
    // A buffer of its own is transferred; the texts' buffer is shared.
    const transfer = [
      ...new Set(
        bodies.flatMap((body) => (typeof body !== 'string' && body.buffer instanceof ArrayBuffer ? [body.buffer] : [])),
      ),
    ];
    const item: HeldBatch = {
      batch: { paths, bodies, sources, deferred },
      transfer,
      tags,
      ...(used > 0 ? { texts } : {}),
    };
    if (!pool && heldFiles + paths.length <= (options.inThreadFiles ?? IN_THREAD_FILES)) {
      held.push(item);
      heldFiles += paths.length;
    } else {
      for (const early of held) post(early);
      held = [];
      post(item);
    }
    paths = [];
    bodies = [];
    sources = [];
    tags = [];
    deferred = [];
    if (used > 0) texts = spare.pop() ?? textBuffer();
    used = 0;
    if (!options.unbounded && pool && inFlight.length > IN_FLIGHT) await inFlight.shift();
  };
  /** The batches held, made on this thread (the writer is closed with few files). */
  const writeHeld = () => {
    const writeBatch = batchWriter();
    for (const item of held) if (!failure) settle(item, writeBatch(item.batch));
    held = [];
  };
  const queue = async (absolutePath: string, body: Uint8Array | CopyMode, source: string | null, tag = -1) => {
    if (failure) throw failure;
    paths.push(absolutePath);
    bodies.push(body);
    sources.push(source);
    tags.push(tag);
    if (paths.length === BATCH) await send();
  };
  return {
    write(absolutePath, bytes, tag) {
      // A buffer of its own, so that it can be transferred (a small Buffer is a view on a shared pool).
      return queue(absolutePath, ownsItsBuffer(bytes) ? bytes : new Uint8Array(bytes), null, tag);
    },
    async writeText(absolutePath, text, tag) {
      // When the thread is behind (as many batches waiting for it as may be in flight), this one
      // would soon wait for it: it makes the deferred parts itself instead, so the thread catches
      // up sooner (at 100,000 manuscripts on a disk, the pages' thread was the last one
      // busy, for seconds, while this one waited).
      const behind = !options.unbounded && next - Atomics.load(batchesWritten, 0) >= (options.behindAt ?? IN_FLIGHT);
      const parts =
        typeof text === 'string'
          ? [text]
          : behind
            ? text.map((part) => (typeof part === 'string' ? part : part.make()))
            : text;
      // UTF-8 takes at most three bytes per UTF-16 code unit; a deferred part's source is copied.
      let bound = 0;
      for (const part of parts)
        bound +=
          typeof part === 'string'
            ? part.length * 3
            : part instanceof Uint8Array
              ? part.byteLength
              : part.source.byteLength;
      if (bound > BATCH_BYTES)
        return queue(
          absolutePath,
          Buffer.concat(parts.map((part) => (part instanceof Uint8Array ? part : encoder.encode(String(part))))),
          null,
          tag,
        );
      while (used + bound > texts.length) await send();
      const start = used;
      for (const part of parts) {
        if (typeof part === 'string') {
          used += texts.write(part, used);
        } else if (!(part instanceof Uint8Array)) {
          deferred.push(paths.length, part.maker, used - start, used - start + part.source.byteLength);
          texts.set(part.source, used);
          used += part.source.byteLength;
        } else {
          texts.set(part, used);
          used += part.byteLength;
        }
      }
      return queue(absolutePath, texts.subarray(start, used), null, tag);
    },
    copy(from, absolutePath, mode, tag) {
      return queue(absolutePath, mode, from, tag);
    },
    expect(files) {
      if (files > (options.inThreadFiles ?? IN_THREAD_FILES)) thread();
    },
    async close() {
      try {
        await send();
        if (!pool) writeHeld();
        await Promise.all(inFlight);
        if (failure) throw failure;
      } finally {
        await pool?.destroy();
      }
    },
    async abort() {
      failure ??= new Error('writing the pages was stopped');
      held = [];
      // Whatever waits for a batch learns that it will never be written, rather than waiting forever.
      await pool?.destroy();
    },
  };
}
