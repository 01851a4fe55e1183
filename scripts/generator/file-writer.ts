/**
 * Writes many small files (the landing pages: 100,000 at 100,000 manuscripts) on a thread of their
 * own (issue 4). Through the thread pool each file was an open, a write and a close, each a trip
 * back to the main thread, and a CPU profile of the cold build showed the main thread, which also
 * renders the pages and the lists, spending seconds on them. Here the main thread hands over
 * batches (the rendered bytes are transferred, not copied) and goes on rendering; the writer
 * thread makes the system calls one after the other, which costs nothing in parallelism: files
 * created in one folder are serialized by the file system anyway.
 */
import { Worker } from 'node:worker_threads';

/** Files per message, and messages in flight before `write` waits. */
const BATCH = 64;
const IN_FLIGHT = 4;

export interface FileWriter {
  /** Queues a file; resolves once it is handed over (not written): `close` waits for all. */
  write(absolutePath: string, bytes: Uint8Array): Promise<void>;
  close(): Promise<void>;
  /** Stops the thread at once (after a failure elsewhere). */
  abort(): Promise<void>;
}

export function createFileWriter(): FileWriter {
  const worker = new Worker(new URL('./file-writer-worker.mjs', import.meta.url));
  const waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  const inFlight: Promise<void>[] = [];
  let failure: Error | undefined;
  let next = 0;
  let paths: string[] = [];
  let bodies: Uint8Array[] = [];
  worker.on('message', ({ batch, error }: { batch: number; error?: { message: string; code?: string } }) => {
    const settle = waiting.get(batch)!;
    waiting.delete(batch);
    if (!error) return settle.resolve();
    failure ??= Object.assign(new Error(error.message), { code: error.code });
    settle.reject(failure);
  });
  worker.on('error', (error) => {
    failure ??= error;
    for (const settle of waiting.values()) settle.reject(error);
    waiting.clear();
  });
  const send = async () => {
    if (paths.length === 0) return;
    const batch = next++;
    const done = new Promise<void>((resolve, reject) => waiting.set(batch, { resolve, reject }));
    done.catch(() => {}); // awaited below, or by close
    worker.postMessage({ batch, paths, bodies }, bodies.map((body) => body.buffer as ArrayBuffer));
    paths = [];
    bodies = [];
    inFlight.push(done);
    if (inFlight.length > IN_FLIGHT) await inFlight.shift();
  };
  return {
    async write(absolutePath, bytes) {
      if (failure) throw failure;
      paths.push(absolutePath);
      // A buffer of its own, so that it can be transferred (a small Buffer is a view on a shared pool).
      bodies.push(bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes));
      if (paths.length === BATCH) await send();
    },
    async close() {
      try {
        await send();
        await Promise.all(inFlight);
        if (failure) throw failure;
      } finally {
        await worker.terminate();
      }
    },
    async abort() {
      failure ??= new Error('writing the pages was stopped');
      await worker.terminate();
      // Whatever waits for a batch learns that it will never be written, rather than waiting forever.
      for (const settle of waiting.values()) settle.reject(failure);
      waiting.clear();
    },
  };
}
