/**
 * Brotli of a file on a thread of its own (issue 4), following the file while it is written.
 * Through the thread pool, brotli needs the main thread for every 16 KB it outputs; while the main
 * thread checked references and PDFs and rendered pages, the 216 MB manuscripts list took 6 to 7 s
 * to compress instead of 3.7 s. Here it runs at its own pace, from the first megabyte written.
 */
import { Worker } from 'node:worker_threads';
import type zlib from 'node:zlib';

/** Bytes read at a time: the compressed bytes depend on the pieces, so they are always the same size. */
const PIECE = 1 << 20;
const BROTLI_WORKER = new URL('./brotli-worker.mjs', import.meta.url);

export interface BrotliFile {
  /** The source holds at least `bytes` bytes now. */
  written(bytes: number): void;
  /** The source is complete, `bytes` long. */
  complete(bytes: number): void;
  /** The compressed size, once `target` is written; rejected when `signal` aborts, or on `stop`. */
  result: Promise<number>;
  /** Stops at once (the source will not be completed). */
  stop(): void;
}

/** Starts compressing `source` (being written: see BrotliFile) into `target`. */
export function brotliFile(source: string, target: string, options: zlib.BrotliOptions, signal?: AbortSignal): BrotliFile {
  const worker = new Worker(BROTLI_WORKER, { workerData: { source, target, params: options.params, piece: PIECE }, execArgv: [] });
  let stop = () => {};
  const result = new Promise<number>((resolve, reject) => {
    stop = () => {
      void worker.terminate().then(() => reject(new Error(`compressing ${target} was stopped`)));
    };
    if (signal?.aborted) return stop();
    signal?.addEventListener('abort', stop, { once: true });
    worker.once('message', ({ bytes, error }: { bytes?: number; error?: { message: string; code?: string } }) => {
      signal?.removeEventListener('abort', stop);
      void worker.terminate();
      if (error) reject(Object.assign(new Error(error.message), { code: error.code }));
      else resolve(bytes!);
    });
    worker.once('error', (error) => {
      signal?.removeEventListener('abort', stop);
      reject(error);
    });
  });
  result.catch(() => {}); // the caller awaits it; a failure before then must not go unhandled
  return {
    written: (bytes) => worker.postMessage({ available: bytes }),
    complete: (bytes) => worker.postMessage({ total: bytes }),
    result,
    stop: () => stop(),
  };
}
