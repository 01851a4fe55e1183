// A brotli worker (issue 4, brotli-file.ts): compresses one written file into another on a thread
// of its own. Plain JavaScript, so that it starts in milliseconds without the TypeScript loader.
// The file is read in pieces of a fixed size, so the compressed bytes never depend on how reads
// happen to fall.
import { closeSync, createWriteStream, openSync, readSync } from 'node:fs';
import { once } from 'node:events';
import { parentPort, workerData } from 'node:worker_threads';
import zlib from 'node:zlib';

const { source, target, params, piece } = workerData;

async function compress() {
  const out = createWriteStream(target);
  const brotli = zlib.createBrotliCompress({ params, chunkSize: 1 << 16 });
  brotli.pipe(out);
  const failed = new Promise((_, reject) => {
    out.on('error', reject);
    brotli.on('error', reject);
  });
  failed.catch(() => {});
  const fd = openSync(source, 'r');
  // One buffer for every piece: a piece is consumed once its write's callback runs, which each write
  // waits for; a new megabyte per piece waited for this thread's garbage collector instead.
  const buffer = Buffer.allocUnsafe(piece);
  try {
    for (let position = 0; ; ) {
      let filled = 0;
      while (filled < piece) {
        const read = readSync(fd, buffer, filled, piece - filled, position + filled);
        if (read === 0) break;
        filled += read;
      }
      if (filled > 0) {
        const taken = new Promise((resolve, reject) => brotli.write(buffer.subarray(0, filled), (error) => (error ? reject(error) : resolve())));
        await Promise.race([taken, failed]);
      }
      position += filled;
      if (filled < piece) break;
    }
  } finally {
    closeSync(fd);
  }
  brotli.end();
  await Promise.race([once(out, 'close'), failed]);
  return out.bytesWritten;
}

compress().then(
  (bytes) => parentPort.postMessage({ bytes }),
  (error) => parentPort.postMessage({ error: { message: error.message, code: error.code } }),
);
