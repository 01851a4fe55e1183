/**
 * The lists' gzip twins in segments: a build after one edit must not recompress the whole 238 MB
 * manuscripts list. The list is cut into segments of a fixed number of the renderer's chunks, so an
 * edit that keeps the order changes one segment; each segment is compressed on its own, on the
 * thread pool, as raw DEFLATE ended by a sync flush (as pigz does), and the segments are joined
 * under one gzip header and closed by an empty final block and the trailer (CRC-32 and length of the
 * whole): one ordinary gzip member.
 *
 * The sink records where each segment lies in each twin (SegmentTable): the next build takes a
 * segment with the same key (same items) from the previous build's twin by byte range instead of
 * compressing it again (list-writer-worker.ts). Each segment starts with an empty dictionary: at
 * about a thousand records per segment that costs 0.1% of the gzip's size (0.5% at 1,000
 * manuscripts: 365,195 against 363,265 bytes for one stream).
 *
 * Brotli is not made this way (list-writer-worker.ts says why): the codec interface keeps the
 * segment's offset in the stream for a format whose pieces depend on it.
 */
import { createHash } from 'node:crypto';
import type { WriteStream } from 'node:fs';
import { once } from 'node:events';
import zlib from 'node:zlib';

/** The renderer's chunks per segment (render/api.ts: 256 records a chunk). */
const CHUNKS_PER_SEGMENT = 4;
/** Segments being compressed at once, in order. */
const IN_FLIGHT = 2;
/**
 * Header: magic, DEFLATE, no flags, no modification time (deterministic output), no extra flags,
 * operating system "unknown" (zlib would write the build machine's).
 */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff]);
/** An empty final block with fixed codes: what zlib writes when a stream ends right after a flush. */
const GZIP_FINAL_BLOCK = Buffer.from([0x03, 0x00]);

/** Where a twin's segments lie in its file, in order: each one's key and compressed length. */
export interface SegmentTable {
  /** The keys (SegmentCodec.key), newline-joined (a key never holds one). */
  keys: string;
  lengths: Uint32Array;
  /** Where the first segment starts (after the head). */
  start: number;
}

/** A previous twin's segment by its key: its compressed bytes, when there is one. */
export type KnownSegments = (key: string) => Uint8Array | undefined;

/** A format whose stream can be made of segments compressed on their own. */
export interface SegmentCodec {
  /** The bytes before the first segment. */
  head: Uint8Array;
  /** The cache key of a segment: its bytes' digest (see segmentedTwins) and whatever else its compressed bytes depend on. */
  key(hash: string, offset: number): string;
  /** The segment, starting `offset` bytes into the stream, compressed. */
  compress(segment: Buffer, offset: number): Promise<Uint8Array>;
  /** The bytes after the last segment, given the CRC-32 and the length of the whole. */
  tail(crc: number, length: number): Uint8Array;
}

export function gzipSegments(level: number): SegmentCodec {
  return {
    head: GZIP_HEADER,
    key: (hash) => `gz ${hash}`,
    compress: (segment) =>
      new Promise<Uint8Array>((resolve, reject) =>
        zlib.deflateRaw(segment, { level, finishFlush: zlib.constants.Z_SYNC_FLUSH }, (error, result) =>
          error ? reject(error) : resolve(result),
        ),
      ),
    tail: (crc, length) => {
      const trailer = Buffer.alloc(8);
      trailer.writeUInt32LE(crc >>> 0, 0);
      trailer.writeUInt32LE(length % 2 ** 32, 4);
      return Buffer.concat([GZIP_FINAL_BLOCK, trailer]);
    },
  };
}

/**
 * A sink for a list's chunks that writes each twin (`file` in `codec`'s format), taking the segments
 * `known` has instead of compressing them. A segment's digest is the SHA-1 of its chunks' keys when
 * each came with one (list-items.ts, chunkKeys: equal keys, equal bytes), else of its bytes: made
 * once for all the twins. `end` ends every twin's file stream, and gives each twin's table and how
 * many segments were compressed (the others were known).
 */
export function segmentedTwins(
  twins: readonly { file: WriteStream; codec: SegmentCodec }[],
  known: KnownSegments = () => undefined,
) {
  let crc = 0;
  let length = 0;
  let pending: Buffer[] = [];
  /** The pending chunks' keys, while every one had a key. */
  let pendingKeys: string[] | undefined = [];
  /** Each segment's compressed bytes, one promise per twin, in order. */
  const queue: Promise<Uint8Array>[][] = [];
  const tables = twins.map(({ codec }) => ({
    keys: [] as string[],
    lengths: [] as number[],
    start: codec.head.length,
  }));
  let compressed = 0;
  const write = async (file: WriteStream, bytes: Uint8Array) => {
    if (!file.write(bytes)) await once(file, 'drain');
  };
  const writeAll = (pieces: readonly Uint8Array[]) => Promise.all(twins.map(({ file }, i) => write(file, pieces[i]!)));
  /** A segment's compressed bytes: the previous build's when it compressed the same bytes at a place as good. */
  const compress = (twin: number, segment: () => Buffer, key: string, offset: number): Promise<Uint8Array> => {
    tables[twin]!.keys.push(key);
    const bytes = known(key);
    if (bytes) return Promise.resolve(bytes);
    compressed++;
    return twins[twin]!.codec.compress(segment(), offset);
  };
  const writeSegment = async (pieces: readonly Uint8Array[]) => {
    pieces.forEach((piece, i) => tables[i]!.lengths.push(piece.length));
    await writeAll(pieces);
  };
  const flush = async () => {
    if (pending.length === 0) return;
    const parts = pending;
    const keys = pendingKeys;
    const offset = length;
    pending = [];
    pendingKeys = [];
    const hash = createHash('sha1').update(keys ? 'keys\n' : 'bytes\n');
    for (const part of parts) {
      if (!keys) hash.update(part);
      crc = zlib.crc32(part, crc);
      length += part.length;
    }
    // Each key with its length first: a key may hold any character.
    if (keys) hash.update(keys.map((key) => `${key.length}:${key}`).join(''));
    const digest = hash.digest('base64url');
    // Joined only to be compressed: after an edit nearly every segment is known (216 MB not copied).
    let joined: Buffer | undefined;
    const segment = () => (joined ??= Buffer.concat(parts));
    const compressed = twins.map(({ codec }, i) => compress(i, segment, codec.key(digest, offset), offset));
    for (const each of compressed) each.catch(() => {}); // awaited in order below; an early failure must not go unhandled meanwhile
    queue.push(compressed);
    if (queue.length > IN_FLIGHT) await writeSegment(await Promise.all(queue.shift()!));
  };
  let started = false;
  const start = async () => {
    if (started) return;
    started = true;
    await writeAll(twins.map(({ codec }) => codec.head));
  };
  return {
    /** A chunk, with its key when it has one (see above). */
    async write(chunk: Buffer, key?: string): Promise<void> {
      await start();
      pending.push(chunk);
      if (key === undefined) pendingKeys = undefined;
      else pendingKeys?.push(key);
      if (pending.length === CHUNKS_PER_SEGMENT) await flush();
    },
    async end(): Promise<{ tables: SegmentTable[]; compressed: number }> {
      await start();
      await flush();
      while (queue.length > 0) await writeSegment(await Promise.all(queue.shift()!));
      await writeAll(twins.map(({ codec }) => codec.tail(crc, length)));
      for (const { file } of twins) file.end();
      return {
        tables: tables.map((table) => ({
          keys: table.keys.join('\n'),
          lengths: Uint32Array.from(table.lengths),
          start: table.start,
        })),
        compressed,
      };
    },
  };
}
