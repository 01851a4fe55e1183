/**
 * gzip of a streamed list in segments (issue 4: a build after one edit must not recompress the
 * whole 238 MB manuscripts list). Each segment (a fixed number of the renderer's chunks, so an edit
 * that keeps the order changes one segment) is compressed on its own as raw DEFLATE ended by a sync
 * flush, as pigz does; the segments are joined under one gzip header and closed by an empty final
 * block and the trailer (CRC-32 and length of the whole). The result is one ordinary gzip member
 * that every client decodes. A segment whose bytes were compressed by the previous build (same
 * SHA-1) is taken from the build cache instead of being compressed again, and segments are
 * compressed two at a time on the thread pool. Each segment starts with an empty dictionary: at
 * about a thousand records per segment that costs well under 0.1% of the size.
 */
import { createHash } from 'node:crypto';
import type { WriteStream } from 'node:fs';
import { once } from 'node:events';
import zlib from 'node:zlib';

/** The renderer's chunks per segment (render-api.ts: 256 records a chunk). */
const CHUNKS_PER_SEGMENT = 4;
/** Segments being compressed at once, in order. */
const IN_FLIGHT = 2;
/**
 * Header: magic, DEFLATE, no flags, no modification time (deterministic output), no extra flags,
 * operating system "unknown" (zlib would write the build machine's).
 */
const HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff]);
/** An empty final block with fixed codes: what zlib writes when a stream ends right after a flush. */
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);

/** Compressed segments by the SHA-1 of their bytes: the previous build's, and this build's for the next. */
export interface GzipSegments {
  readonly previous: ReadonlyMap<string, Uint8Array>;
  next: Map<string, Uint8Array>;
}

export function segmentedGzip(file: WriteStream, level: number, segments: GzipSegments) {
  let crc = 0;
  let length = 0;
  let pending: Buffer[] = [];
  const queue: Promise<Uint8Array>[] = [];
  const write = async (bytes: Uint8Array) => {
    if (!file.write(bytes)) await once(file, 'drain');
  };
  /** A segment's compressed bytes: the previous build's when it compressed the same bytes (same SHA-1). */
  const compress = (parts: readonly Buffer[], key: string): Promise<Uint8Array> => {
    const known = segments.previous.get(key) ?? segments.next.get(key);
    // Joined only to be compressed: after an edit nearly every segment is known (216 MB not copied).
    const deflated = known ? Promise.resolve(known) : new Promise<Uint8Array>((resolve, reject) =>
      zlib.deflateRaw(Buffer.concat(parts), { level, finishFlush: zlib.constants.Z_SYNC_FLUSH }, (error, result) => (error ? reject(error) : resolve(result))));
    return deflated.then((bytes) => {
      segments.next.set(key, bytes);
      return bytes;
    });
  };
  const flush = async () => {
    if (pending.length === 0) return;
    const parts = pending;
    pending = [];
    const hash = createHash('sha1');
    for (const part of parts) {
      hash.update(part);
      crc = zlib.crc32(part, crc);
      length += part.length;
    }
    const compressed = compress(parts, hash.digest('base64url'));
    compressed.catch(() => {}); // awaited in order below; an early failure must not go unhandled meanwhile
    queue.push(compressed);
    if (queue.length > IN_FLIGHT) await write(await queue.shift()!);
  };
  let started = false;
  return {
    async write(chunk: Buffer): Promise<void> {
      if (!started) {
        started = true;
        await write(HEADER);
      }
      pending.push(chunk);
      if (pending.length === CHUNKS_PER_SEGMENT) await flush();
    },
    async end(): Promise<void> {
      if (!started) await write(HEADER);
      await flush();
      while (queue.length > 0) await write(await queue.shift()!);
      const trailer = Buffer.alloc(8);
      trailer.writeUInt32LE(crc >>> 0, 0);
      trailer.writeUInt32LE(length % 2 ** 32, 4);
      await write(Buffer.concat([FINAL_BLOCK, trailer]));
      file.end();
    },
  };
}
