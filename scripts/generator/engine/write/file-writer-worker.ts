/**
 * The file writer's thread (file-writer.ts): makes batches of small files one after the other with
 * plain system calls, off the main thread, and answers with each file's stamp (size, mtimeMs, ino),
 * taken from the file it just made: the build records them for the next build instead of stamping
 * 200,000 files again once all are written. It makes a page's deferred parts (abstract-text.ts) as
 * it writes the page, and counts the batches it has written where the main thread can read them at
 * once (file-writer.ts: how far behind it is). A writer given few files makes them on its own
 * thread with the same code (batchWriter), without starting this one. Each batch is a task of the
 * writer's pool of one thread (start-thread.ts).
 */
import {
  closeSync,
  constants,
  copyFileSync,
  fstatSync,
  linkSync,
  lstatSync,
  openSync,
  readSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { workerData } from 'node:worker_threads';
import { makeDeferredText } from '../../render/abstract-text.ts';

/** Why a hard link can be refused where a copy would work: then the PDF is copied (CopyMode). */
const LINK_REFUSED = new Set(['EXDEV', 'EPERM', 'EMLINK', 'ENOTSUP', 'EOPNOTSUPP', 'EACCES']);
/** Why a clone can be refused where a copy would work (ext4: ENOTSUP; another file system: EXDEV). */
const CLONE_REFUSED = new Set(['ENOTSUP', 'EOPNOTSUPP', 'EXDEV', 'EINVAL', 'ENOSYS', 'ENOTTY']);

/** Files smaller than this are copied through it; larger ones by the kernel's copy. */
const SMALL_FILE = 1 << 20;

/**
 * How a PDF enters the output: `copy` makes a copy, so that an editor overwriting a PDF in place
 * cannot change the output before a build has checked it: a copy-on-write clone where the file
 * system can (Btrfs, XFS, APFS; each writer thread tries once), else the bytes read and written
 * (on ext4 twice as fast as the kernel's copy: 32 against 70 µs a PDF; files of 1 MiB or more are
 * copied by the kernel). `link` (a build whose output is deployed and thrown away, as in CI) makes
 * a hard link to the checked file instead, about 15 µs on ext4. Where a link cannot be made
 * (another file system, one without links) the PDF is copied.
 */
export type CopyMode = 'copy' | 'link';

/** A batch as the writer's thread receives it (file-writer-worker.ts). */
export interface FileBatch {
  paths: string[];
  /** Each file's bytes; for a copy, its CopyMode. */
  bodies: (Uint8Array | CopyMode)[];
  /** The file each copies; null for a file of bytes. */
  sources: (string | null)[];
  /** For each deferred part, in order: the file's index, its maker, and where its source starts and ends in the file's bytes. */
  deferred: number[];
}

/**
 * A batch written: each file's stamp as size, mtimeMs and ino, three numbers per file; or the first
 * failure, as its message and code (an error sent from a thread would lose its code).
 */
export type BatchAnswer = { stamps: Float64Array } | { error: { message: string; code?: string } };

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code ?? '';

/**
 * Writes batches (FileBatch) one after the other, answering each (BatchAnswer). Its buffers and
 * what it learned of the file system (whether clones work) are its own.
 */
export function batchWriter(): (batch: FileBatch) => BatchAnswer {
  const bytes = Buffer.allocUnsafe(SMALL_FILE);
  /** Whether the files given here can be cloned: unknown until the first copy tries (all come from one folder to another). */
  let clones: boolean | undefined;
  /** Where a page with deferred parts is put together; grown when a page needs more. */
  let page = Buffer.allocUnsafe(SMALL_FILE);

  /** A copy (see CopyMode) of `from` at `to`; returns what `lstat` says of `to`. */
  function copy(from: string, to: string, mode: CopyMode): Stats {
    if (mode === 'link') {
      try {
        linkSync(from, to);
        return lstatSync(to);
      } catch (error) {
        if (!LINK_REFUSED.has(codeOf(error))) throw error;
      }
    }
    if (clones !== false) {
      try {
        copyFileSync(from, to, constants.COPYFILE_FICLONE_FORCE);
        clones = true;
        return lstatSync(to);
      } catch (error) {
        if (clones === true || !CLONE_REFUSED.has(codeOf(error))) throw error;
        clones = false;
      }
    }
    return copyBytes(from, to);
  }

  /**
   * A small file read and written: on ext4 twice as fast as the kernel's copy (32 against 70 µs for a
   * PDF of a few KB), which also opens, stats and sets the mode of both files and tries a clone first.
   */
  function copyBytes(from: string, to: string): Stats {
    const fd = openSync(from, 'r');
    let length = 0;
    try {
      for (let read = 1; read > 0 && length < SMALL_FILE; length += read)
        read = readSync(fd, bytes, length, SMALL_FILE - length, length);
    } finally {
      closeSync(fd);
    }
    if (length < SMALL_FILE) return writeFile(to, bytes.subarray(0, length));
    copyFileSync(from, to);
    return lstatSync(to);
  }

  /** A file of these bytes (created, or emptied first); returns what `fstat` says of it once written. */
  function writeFile(to: string, data: Uint8Array): Stats {
    const fd = openSync(to, 'w');
    try {
      for (let done = 0; done < data.byteLength;) done += writeSync(fd, data, done, data.byteLength - done);
      return fstatSync(fd);
    } finally {
      closeSync(fd);
    }
  }

  /**
   * A page's bytes with its deferred parts made: `parts` holds, for each, its maker and where its
   * source starts and ends in `body` (file-writer.ts, FileBatch).
   */
  function withPartsMade(body: Uint8Array, parts: readonly number[]): Uint8Array {
    let at = 0;
    let from = 0;
    const append = (length: number) => {
      if (at + length <= page.length) return;
      const larger = Buffer.allocUnsafe(Math.max(page.length * 2, at + length));
      page.copy(larger, 0, 0, at);
      page = larger;
    };
    const copyOf = (end: number) => {
      append(end - from);
      page.set(body.subarray(from, end), at);
      at += end - from;
    };
    // A page names some parts twice (its summary, in its description and in Open Graph's): made once.
    const madeBefore: { maker: number; source: Uint8Array; made: string | Uint8Array }[] = [];
    for (let k = 0; k < parts.length; k += 3) {
      copyOf(parts[k + 1]!);
      const maker = parts[k]!;
      const source = body.subarray(parts[k + 1]!, parts[k + 2]!);
      let made = madeBefore.find(
        (before) => before.maker === maker && Buffer.compare(before.source, source) === 0,
      )?.made;
      if (made === undefined) {
        made = makeDeferredText(maker, source);
        madeBefore.push({ maker, source, made });
      }
      if (typeof made === 'string') {
        // UTF-8 takes at most three bytes per UTF-16 code unit.
        append(made.length * 3);
        at += page.write(made, at);
      } else {
        append(made.byteLength);
        page.set(made, at);
        at += made.byteLength;
      }
      from = parts[k + 2]!;
    }
    copyOf(body.byteLength);
    return page.subarray(0, at);
  }

  return (batch) => {
    try {
      return { stamps: writeBatch(batch) };
    } catch (error) {
      return { error: { message: (error as Error).message, ...(codeOf(error) ? { code: codeOf(error) } : {}) } };
    }
  };

  function writeBatch({ paths, bodies, sources, deferred }: FileBatch): Float64Array {
    const stamps = new Float64Array(paths.length * 3);
    let next = 0;
    for (let i = 0; i < paths.length; i++) {
      const source = sources[i];
      const body = bodies[i]!;
      let stat: Stats | undefined;
      if (typeof source === 'string') stat = copy(source, paths[i]!, body as CopyMode);
      else {
        // This file's deferred parts, as maker, start and end, three numbers each.
        const parts: number[] = [];
        for (; next < deferred.length && deferred[next] === i; next += 4)
          parts.push(deferred[next + 1]!, deferred[next + 2]!, deferred[next + 3]!);
        stat = writeFile(paths[i]!, parts.length > 0 ? withPartsMade(body as Uint8Array, parts) : (body as Uint8Array));
      }
      stamps[i * 3] = stat?.size ?? NaN;
      stamps[i * 3 + 1] = stat?.mtimeMs ?? NaN;
      stamps[i * 3 + 2] = stat?.ino ?? NaN;
    }
    return stamps;
  }
}

/** The thread's own writer: one pool of one thread, whose buffers live as long as it does. */
let threadWriter: ((batch: FileBatch) => BatchAnswer) | undefined;

/** A task of the writer's thread (file-writer.ts): one batch, then one more counted as written. */
export default function writeOnThread(batch: FileBatch): BatchAnswer {
  threadWriter ??= batchWriter();
  const answer = threadWriter(batch);
  // Batches written, for the thread that hands them over to see how far behind this one is.
  Atomics.add(new Int32Array((workerData as { written: SharedArrayBuffer }).written), 0, 1);
  return answer;
}
