/**
 * One content file through the load stage, with the build cache: a file whose size,
 * modification time and inode match what the cache recorded is not read at all; a file that
 * was touched but holds the same bytes (same content hash) is not parsed again; anything else is
 * read, hashed, parsed and validated. Runs in the load workers and, for small journals, in-thread.
 */
import { createHash } from 'node:crypto';
import { closeSync, lstatSync, openSync, readSync } from 'node:fs';
import type { SourceFile } from '../../stages/discover.ts';
import { loadRecordFrom, unreadable, type Loaded } from '../../stages/load.ts';
import { tooLargeFile } from '../../stages/oversized-file.ts';
import type { Problem } from '../../model/problems.ts';
import { type ManuscriptRecord } from '../../model/records.ts';
import { packManuscript } from './packed-manuscript.ts';
import { sameStamp, stampOfStat, type FileStamp } from '../scan/stat-many.ts';
import { RACY_MS } from '../scan/stat-many.ts';

export interface LoadJob {
  /** Position in the build's list of files: results come back in any order. */
  index: number;
  source: Pick<SourceFile, 'collection' | 'key' | 'file' | 'absolutePath'>;
  /** What the cache knows about this path, if anything. */
  cached?: { stamp?: FileStamp; hash: string };
  /**
   * The file's stamp as discovery took it, before this job reads it: recorded as it is (a file
   * changed since has another stamp next time), so the file is not stamped a second time
   * (250,000 `lstat` calls at 100,000 manuscripts, about a second of a cold build's CPU).
   */
  scanned?: FileStamp;
}

export type LoadResult =
  | { index: number; kind: 'unchanged'; stamp?: FileStamp }
  | { index: number; kind: 'loaded'; stamp?: FileStamp; hash: string; loaded: Loaded; packed?: Uint8Array };

/** Whether a stamp of this modification time is old enough to be trusted by the next build (see RACY_MS). */
export function isTrusted(mtimeMs: number, now: number): boolean {
  return now - mtimeMs > RACY_MS;
}

/** `stamp` when it is old enough to be trusted by the next build, else undefined (see RACY_MS). */
export function trustedStamp(stamp: FileStamp | undefined, now: number): FileStamp | undefined {
  return stamp && isTrusted(stamp.mtimeMs, now) ? stamp : undefined;
}

/** Both absent (neither trusted), or both present and equal. */
export function sameOptionalStamp(a: FileStamp | undefined, b: FileStamp | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && sameStamp(a, b));
}

export function contentHash(bytes: Uint8Array): string {
  return createHash('sha1').update(bytes).digest('base64url');
}

/** Grown as needed and never shrunk: a content file is a few kilobytes. */
let readBuffer = Buffer.allocUnsafe(64 * 1024);

/**
 * A file's bytes, in a buffer this module reuses: valid until the next call, so the caller decodes
 * and hashes them and keeps nothing of them. `readFileSync` also stats the file and allocates a
 * buffer for each, a quarter of its time a file (docs/performance.md). A file larger than any
 * record is not read into it (the buffer would keep its size to the end): its problem instead.
 */
function readWhole(file: string, absolutePath: string): Uint8Array | Problem {
  const fd = openSync(absolutePath, 'r');
  try {
    const tooLarge = tooLargeFile(file, fd);
    if (tooLarge) return tooLarge;
    let length = 0;
    for (;;) {
      if (length === readBuffer.length) {
        const larger = Buffer.allocUnsafe(readBuffer.length * 2);
        readBuffer.copy(larger, 0, 0, length);
        readBuffer = larger;
      }
      const read = readSync(fd, readBuffer, length, readBuffer.length - length, null);
      if (read === 0) return readBuffer.subarray(0, length);
      length += read;
    }
  } finally {
    closeSync(fd);
  }
}

/** The stamp of a file, or undefined when it cannot be read or is too recent to be trusted. */
export function stampOf(absolutePath: string, now: number): FileStamp | undefined {
  try {
    const stat = lstatSync(absolutePath);
    return trustedStamp(stampOfStat(stat), now);
  } catch {
    return undefined;
  }
}

export function runLoadJob(job: LoadJob, now: number): LoadResult {
  const { source, cached, index } = job;
  const stamp = job.scanned ? trustedStamp(job.scanned, now) : stampOf(source.absolutePath, now);
  if (stamp && cached?.stamp && sameStamp(stamp, cached.stamp)) return { index, kind: 'unchanged', stamp };

  let bytes: Uint8Array | Problem;
  try {
    bytes = readWhole(source.file, source.absolutePath);
  } catch (error) {
    bytes = unreadable(source.file, error);
  }
  if (!(bytes instanceof Uint8Array)) {
    const loaded: Loaded = {
      problems: [bytes],
      invalid: { collection: source.collection, origin: { file: source.file, key: source.key, at: {} } },
    };
    return { index, kind: 'loaded', hash: '', loaded };
  }
  const hash = contentHash(bytes);
  // Touched but not changed (a checkout, a save without edits): the cached result stands.
  if (cached && cached.hash === hash) return { index, kind: 'unchanged', ...(stamp ? { stamp } : {}) };
  const loaded = loadRecordFrom(source, bytes, hash);
  if (source.collection === 'manuscripts' && loaded.record) {
    // Packed here, on the worker: the main thread receives (and keeps) the compact form only.
    const { slim, packed } = packManuscript(loaded.record as ManuscriptRecord);
    return {
      index,
      kind: 'loaded',
      ...(stamp ? { stamp } : {}),
      hash,
      loaded: { ...loaded, record: slim as ManuscriptRecord },
      packed,
    };
  }
  return { index, kind: 'loaded', ...(stamp ? { stamp } : {}), hash, loaded };
}
