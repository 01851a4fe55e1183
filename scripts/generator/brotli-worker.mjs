// A brotli worker (issue 4, brotli-file.ts): compresses one file into another on a thread of its
// own, following the file while it is still being written. Plain JavaScript, so that it starts in
// milliseconds without the TypeScript loader. The file is read in pieces of a fixed size at fixed
// offsets, so the compressed bytes never depend on how reads or writes happen to fall.
import { closeSync, createWriteStream, openSync, readSync } from 'node:fs';
import { once } from 'node:events';
import { parentPort, workerData } from 'node:worker_threads';
import zlib from 'node:zlib';

const { source, target, params, piece } = workerData;

/** How much of the source is written (`available`), and its final size once known (`total`). */
const progress = { available: 0, total: undefined };
let wake = () => {};
parentPort.on('message', (message) => {
  if (message.available !== undefined) progress.available = Math.max(progress.available, message.available);
  if (message.total !== undefined) progress.total = message.total;
  wake();
});
/** Resolves once `bytes` more bytes from `position` are written, or the file is complete. */
async function ready(position) {
  while (progress.total === undefined && progress.available < position + piece) await new Promise((resolve) => (wake = resolve));
}

async function compress() {
  const out = createWriteStream(target);
  const brotli = zlib.createBrotliCompress({ params, chunkSize: 1 << 16 });
  brotli.pipe(out);
  const failed = new Promise((_, reject) => {
    out.on('error', reject);
    brotli.on('error', reject);
  });
  failed.catch(() => {});
  // One buffer for every piece: a piece is consumed once its write's callback runs, which each write
  // waits for; a new megabyte per piece waited for this thread's garbage collector instead.
  const buffer = Buffer.allocUnsafe(piece);
  let fd;
  try {
    for (let position = 0; ; position += piece) {
      await ready(position);
      fd ??= openSync(source, 'r');
      const length = Math.min(piece, (progress.total ?? Infinity) - position);
      if (length <= 0) break;
      let filled = 0;
      while (filled < length) {
        const read = readSync(fd, buffer, filled, length - filled, position + filled);
        if (read === 0) throw new Error(`${source} ended before its ${progress.total ?? 'announced'} bytes`);
        filled += read;
      }
      const taken = new Promise((resolve, reject) => brotli.write(buffer.subarray(0, filled), (error) => (error ? reject(error) : resolve())));
      await Promise.race([taken, failed]);
      if (length < piece) break;
    }
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  brotli.end();
  await Promise.race([once(out, 'close'), failed]);
  return out.bytesWritten;
}

compress().then(
  (bytes) => parentPort.postMessage({ bytes }),
  (error) => parentPort.postMessage({ error: { message: error.message, code: error.code } }),
);
