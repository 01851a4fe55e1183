/**
 * The build cache: what the load stage learned about each content file, and what the
 * write stage wrote, so that a build after a small edit reads, parses and writes only what changed.
 *
 * - It lives outside the output folder (`.cache/journal-build/` by default) and is safe to delete
 *   at any time: without it the build is simply cold. `npm run clean` removes it.
 * - Entries are keyed by the file's content hash; size, mtime and inode only let the build skip
 *   reading a file whose stamp is unchanged (as git's index does).
 * - A fingerprint of the build code, the dependency versions, the Node version and the journal
 *   settings invalidates everything at once when any of them changes.
 * - Every frame carries a CRC-32: a damaged or truncated file is ignored as a whole, never trusted.
 * - Files are replaced by rename, so a build that stops half way leaves the previous cache intact.
 * - A cache file that cannot be written (a full disk, a read-only folder) is a warning, never a
 *   failure: the output is complete without it, and may already be swapped in (writeFrames).
 */
import { createHash, type Hash } from 'node:crypto';
import {
  closeSync,
  openSync,
  readSync,
  readdirSync,
  readFileSync,
  renameSync,
  mkdirSync,
  rmSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import zlib from 'node:zlib';
import type { FileStamp } from '../scan/stat-many.ts';
import { JoinedRows, ROW_STAMP_FIELDS, type OutputRows } from './output-rows.ts';
import { PreviousOutputReads, unframed, type ReadsByPath, type ReadsFrame } from './output-reads.ts';
import type { RecordValues } from '../reuse/record-values.ts';
import type { ListTable } from '../write/list-items.ts';
import type { Loaded } from '../../stages/load.ts';
import type { SetAsideFields } from '../load/set-aside.ts';
import type { VerifiedMedia } from '../../stages/media.ts';

/** Bump when the layout of the cache files changes. */
const CACHE_FORMAT = 15;
const OUTPUTS_FILE = 'outputs.bin';
const MEDIA_FILE = 'media.bin';
const LIST_TABLES_FILE = 'lists.bin';
const OUTPUT_READS_FILE = 'reads.bin';

export interface RecordEntry {
  file: string;
  /** Absent when the file was too recently modified for its stamp to be trusted. */
  stamp?: FileStamp;
  hash: string;
  /** A valid manuscript's record is the slim part; its long fields are here (packed-manuscript.ts). */
  loaded: Loaded;
  packed?: Uint8Array | SetAsideFields;
}

export interface OutputManifest {
  /** The output folder the files were written to (reuse is only safe from that folder). */
  out: string;
  /** Every file written, in the order of the outputs; files without a key have the key '' (listed, never reused). */
  files: OutputRows;
}

/**
 * The key of the sources the command line was compiled from (compile-cli.cjs): every file under
 * scripts/ and the packages compiled in, by content. Undefined when the sources run as they are
 * (the tests, or a checkout whose compiled copy is not current).
 */
declare const COMPILED_CODE_KEY: string | undefined;

/**
 * The cache's fingerprint: the build code (every module of the generator and the host renderers),
 * the parser and schema library versions, the Node version (the cache is V8-serialized) and the
 * journal settings. Any change to one of them starts from an empty cache.
 */
export function cacheFingerprint(journalBytes: Uint8Array | undefined): string {
  const hash = createHash('sha256').update(`format ${CACHE_FORMAT}\nnode ${process.version}\n`);
  // Compiled, the code's key covers its sources: reading and hashing them again (133 files) took
  // about 5 ms of every command, where `check` after an edit at 1,000 manuscripts takes under 0.2 s.
  if (typeof COMPILED_CODE_KEY === 'string') hash.update(`compiled ${COMPILED_CODE_KEY}\n`);
  else hashSources(hash);
  for (const dependency of ['yaml', 'zod']) {
    const manifest = fileURLToPath(new URL(`../../../../node_modules/${dependency}/package.json`, import.meta.url));
    hash.update(`${dependency} ${readVersion(manifest)}\n`);
  }
  hash.update('journal\n').update(journalBytes ?? new Uint8Array());
  return hash.digest('base64url');
}

/** Every module of the generator, the host renderers and what they share, into `hash`. */
function hashSources(hash: Hash): void {
  const scripts = fileURLToPath(new URL('../../../', import.meta.url));
  for (const folder of ['generator', 'hosts', 'shared']) {
    const dir = path.join(scripts, folder);
    // Sorted with forward slashes: the fingerprint must not depend on the platform or directory order.
    const names = readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .map((name) => name.split(path.sep).join('/'))
      .sort();
    for (const name of names) {
      if (!/\.(ts|mjs)$/.test(name)) continue;
      hash.update(`${folder}/${name}\n`).update(readFileSync(path.join(dir, name)));
    }
  }
}

function readVersion(manifest: string): string {
  try {
    return String((JSON.parse(readFileSync(manifest, 'utf8')) as { version?: unknown }).version);
  } catch {
    return 'unknown';
  }
}

/**
 * outputs.bin: frames of up to OUTPUT_ROWS_PER_FRAME files in columns (paths and keys
 * NUL-joined, stamps as numbers): no array or object per file to write or to read back: 200,000
 * files at 100,000 manuscripts, where an entry each costs tens of MB at the end of a cold build.
 * A frame's texts (about 50 KB each) are collected young: frames of 10,000 files made texts large
 * enough for the old generation, where they waited for a full collection (57 MB of a cold build's
 * peak at 100,000 manuscripts).
 */
type OutputFrame = [out: string, files: string, keys: string, stamps: Float64Array];
const OUTPUT_ROWS_PER_FRAME = 2_000;

export function readOutputManifest(dir: string, fingerprint: string): OutputManifest | undefined {
  const frames = readFrames<OutputFrame>(path.join(dir, OUTPUTS_FILE), fingerprint);
  if (!frames || frames.length === 0) return undefined;
  const files = JoinedRows.fromFrames(frames.map(([, names, keys, stamps]) => ({ names, keys, stamps })));
  return files && { out: frames[0]![0], files };
}

export function writeOutputManifest(dir: string, fingerprint: string, manifest: OutputManifest): CacheWarning {
  // Frames are made one at a time as they are written: 200,000 files at once were a peak of their own.
  const { files } = manifest;
  return writeFrames(dir, OUTPUTS_FILE, fingerprint, manifestFrames(manifest.out, files));
}

function* manifestFrames(out: string, files: OutputRows): Generator<OutputFrame> {
  const count = Math.max(1, Math.ceil(files.count / OUTPUT_ROWS_PER_FRAME));
  for (let i = 0; i < count; i++) {
    const start = i * OUTPUT_ROWS_PER_FRAME;
    const end = Math.min(files.count, start + OUTPUT_ROWS_PER_FRAME);
    const frameStamps = new Float64Array(Math.max(0, end - start) * ROW_STAMP_FIELDS);
    for (let row = start; row < end; row++)
      for (let f = 0; f < ROW_STAMP_FIELDS; f++)
        frameStamps[(row - start) * ROW_STAMP_FIELDS + f] = files.stampField(row, f);
    yield [out, files.joinedNames(start, end), files.joinedKeys(start, end), frameStamps];
  }
}

/**
 * Removes the manifest of the output and the reads recorded with it: both describe the output as
 * it is, and are written again once the new one is in place. The reads go too, so that reads from
 * an older output are never compared with a newer manifest: what their tokens were worth then
 * (record-values.ts) is only what the manifest's keys were made from if both come from one build.
 */
export function removeOutputManifest(dir: string): void {
  rmSync(path.join(dir, OUTPUTS_FILE), { force: true });
  rmSync(path.join(dir, OUTPUT_READS_FILE), { force: true });
}

/*
 * File layout: a header line `{"format":1,"fingerprint":"...","frames":N}\n`, then N frames of
 * [u32 length][u32 CRC-32][V8-serialized value]. Frames are read one at a time, so reading never
 * holds the whole file and its decoded values at once. N is padded with spaces to a width of its
 * own, so that it is written over once the last frame is: frames are made as they are written,
 * and how many there are is known only then.
 */

/** What a build says when a cache file could not be written; undefined when it was. */
export type CacheWarning = string | undefined;

/**
 * Writes a cache file whole, or not at all: on any failure to write it (most often a full disk)
 * the half-written file goes, the previous one stays, and the warning says why.
 */
export function writeFrames(dir: string, name: string, fingerprint: string, frames: Iterable<unknown>): CacheWarning {
  try {
    writeFramesOrThrow(dir, name, fingerprint, frames);
    return undefined;
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    const why = code === 'ENOSPC' || code === 'EDQUOT' ? `no space left on ${dir}` : message;
    return `the build cache could not be written (${why}): the output is complete; the next build does again what the cache would have spared it`;
  }
}

function writeFramesOrThrow(dir: string, name: string, fingerprint: string, frames: Iterable<unknown>): void {
  mkdirSync(dir, { recursive: true });
  const target = path.join(dir, name);
  const temporary = `${target}.${process.pid}.tmp`;
  const fd = openSync(temporary, 'w');
  try {
    const header = (count: number): string =>
      `{"format":${CACHE_FORMAT},"fingerprint":${JSON.stringify(fingerprint)},"frames":${String(count).padStart(10)}}\n`;
    writeSync(fd, header(0));
    let count = 0;
    for (const frame of frames) {
      const payload = v8.serialize(frame);
      const head = Buffer.alloc(8);
      head.writeUInt32LE(payload.length, 0);
      head.writeUInt32LE(zlib.crc32(payload), 4);
      writeSync(fd, head);
      writeSync(fd, payload);
      count++;
    }
    writeSync(fd, header(count), 0);
  } catch (error) {
    closeSync(fd);
    rmSync(temporary, { force: true });
    throw error;
  }
  try {
    closeSync(fd);
    renameSync(temporary, target);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

export function readFrames<T>(file: string, fingerprint: string): T[] | undefined {
  return withFile(file, (fd) => {
    const header = readHeader(fd, fingerprint);
    if (!header) return undefined;
    const frames: T[] = [];
    let position = header.length;
    const head = Buffer.alloc(8);
    for (let i = 0; i < header.frames; i++) {
      if (readSync(fd, head, 0, 8, position) !== 8) return undefined;
      const length = head.readUInt32LE(0);
      const payload = Buffer.allocUnsafe(length);
      if (readSync(fd, payload, 0, length, position + 8) !== length) return undefined;
      if (zlib.crc32(payload) !== head.readUInt32LE(4)) return undefined;
      frames.push(ownBytes(v8.deserialize(payload), payload.buffer) as T);
      position += 8 + length;
    }
    return frames;
  });
}

/**
 * `value` with each typed array that is a view of `frame` (the bytes it was read from) replaced by
 * a copy of its own. Node restores a typed array whose bytes are aligned in the frame as a view of
 * it, so one column kept the whole frame alive: at 100,000 imported manuscripts, about 300 MB of
 * frames were held to the end of every build after the first, beside the strings made from them.
 */
function ownBytes(value: unknown, frame: ArrayBufferLike): unknown {
  if (ArrayBuffer.isView(value)) {
    if (value.buffer !== frame) return value;
    if (Buffer.isBuffer(value)) return Buffer.from(value);
    if (value instanceof DataView)
      return new DataView(frame.slice(value.byteOffset, value.byteOffset + value.byteLength));
    return (value as unknown as { slice(): unknown }).slice();
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (typeof value[i] === 'object') value[i] = ownBytes(value[i], frame);
    return value;
  }
  if (value instanceof Map) {
    for (const [key, entry] of value) if (typeof entry === 'object') value.set(key, ownBytes(entry, frame));
    return value;
  }
  if (value !== null && typeof value === 'object' && !(value instanceof Set)) {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record))
      if (typeof record[key] === 'object') record[key] = ownBytes(record[key], frame);
  }
  return value;
}

/** The header line, when it is this format's and this fingerprint's: the frame count and the header's length in bytes. */
function readHeader(fd: number, fingerprint: string): { frames: number; length: number } | undefined {
  const first = Buffer.alloc(512);
  const read = readSync(fd, first, 0, first.length, 0);
  const newline = first.subarray(0, read).indexOf(0x0a);
  if (newline < 0) return undefined;
  const header = JSON.parse(first.subarray(0, newline).toString('utf8')) as {
    format?: unknown;
    fingerprint?: unknown;
    frames?: unknown;
  };
  if (header.format !== CACHE_FORMAT || header.fingerprint !== fingerprint || typeof header.frames !== 'number')
    return undefined;
  return { frames: header.frames, length: newline + 1 };
}

/** `read` on the open file; undefined when it cannot be opened or read, or is damaged beyond the checksums' reach. */
function withFile<T>(file: string, read: (fd: number) => T): T | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    return read(fd);
  } catch {
    // A header that is not JSON, a value V8 cannot read.
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** PDFs that passed the media checks, with their stamps (media.ts): in columns, one frame (about 5 MB at 100,000 PDFs). */
export function readVerifiedMedia(dir: string, fingerprint: string): VerifiedMedia | undefined {
  return readFrames<VerifiedMedia>(path.join(dir, MEDIA_FILE), fingerprint)?.[0];
}

export function writeVerifiedMedia(dir: string, fingerprint: string, verified: VerifiedMedia): CacheWarning {
  return writeFrames(dir, MEDIA_FILE, fingerprint, [verified]);
}

/** The lists' item tables (list-items.ts), by output path. */
export function readListTables(dir: string, fingerprint: string): Map<string, ListTable> {
  return readMap(dir, LIST_TABLES_FILE, fingerprint);
}

export function writeListTables(
  dir: string,
  fingerprint: string,
  tables: ReadonlyMap<string, ListTable>,
): CacheWarning {
  // A table is a few MB at 100,000 manuscripts: one per frame.
  return writeMap(dir, LIST_TABLES_FILE, fingerprint, tables, 1);
}

/** What each output read when it was last rendered (reuse.ts), by output path, and what the tokens named then. */
export function readOutputReads(dir: string, fingerprint: string): { outputs: ReadsByPath; values?: RecordValues } {
  const [head, ...rest] =
    readFrames<OutputReadsHead | ReadsFrame>(path.join(dir, OUTPUT_READS_FILE), fingerprint) ?? [];
  if (!isReadsHead(head)) return { outputs: new Map() };
  const { values } = head;
  return {
    outputs: new PreviousOutputReads(unframed(rest as ReadsFrame[])),
    ...(values ? { values } : {}),
  };
}

/**
 * The values first, then the reads' frames (output-reads.ts) as they are made: the values'
 * serialized copy (about 18 MB at 100,000 manuscripts) goes before the reads are packed.
 */
export function writeOutputReads(
  dir: string,
  fingerprint: string,
  reads: Iterable<ReadsFrame>,
  values: RecordValues | undefined,
): CacheWarning {
  function* frames(): Generator<OutputReadsHead | ReadsFrame> {
    yield values ? { values } : {};
    yield* reads;
  }
  return writeFrames(dir, OUTPUT_READS_FILE, fingerprint, frames());
}

/** The first frame of the reads' file. */
interface OutputReadsHead {
  values?: RecordValues;
}

function isReadsHead(frame: OutputReadsHead | ReadsFrame | undefined): frame is OutputReadsHead {
  return typeof frame === 'object' && !Array.isArray(frame) && !ArrayBuffer.isView(frame);
}

function readMap<V>(dir: string, name: string, fingerprint: string): Map<string, V> {
  return new Map(readFrames<[string, V][]>(path.join(dir, name), fingerprint)?.flat() ?? []);
}

function writeMap<V>(
  dir: string,
  name: string,
  fingerprint: string,
  map: ReadonlyMap<string, V>,
  perFrame: number,
): CacheWarning {
  const all = [...map];
  const frames: [string, V][][] = [];
  for (let start = 0; start < all.length; start += perFrame) frames.push(all.slice(start, start + perFrame));
  return writeFrames(dir, name, fingerprint, frames);
}
