/**
 * Brotli of a written file on a thread of its own (issue 4). Through the thread pool, brotli needs
 * the main thread for every 16 KB it outputs; while the main thread checked references and PDFs and
 * rendered pages, the 216 MB manuscripts list took 6 to 7 s to compress instead of 3.7 s. Here it
 * runs at its own pace, whatever the main thread does.
 */
import { Worker } from 'node:worker_threads';
import type zlib from 'node:zlib';

/** Bytes read at a time: the compressed bytes depend on the pieces, so they are always the same size. */
const PIECE = 1 << 20;
const BROTLI_WORKER = new URL('./brotli-worker.mjs', import.meta.url);

/** Compresses `source` into `target`; resolves with the compressed size. Stopped (and rejected) when `signal` aborts. */
export function brotliFile(source: string, target: string, options: zlib.BrotliOptions, signal?: AbortSignal): Promise<number> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error(`compressing ${target} was stopped`));
    const worker = new Worker(BROTLI_WORKER, { workerData: { source, target, params: options.params, piece: PIECE }, execArgv: [] });
    const stop = () => {
      void worker.terminate().then(() => reject(new Error(`compressing ${target} was stopped`)));
    };
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
}
