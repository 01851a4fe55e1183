// The file writer's thread (issue 4, file-writer.ts): makes batches of small files one after the
// other with plain system calls, off the main thread, and answers with each file's stamp (size,
// mtimeMs, ino), taken from the file it just made: the build records them for the next build
// instead of stamping 200,000 files again once all are written. Plain JavaScript, so that it
// starts in milliseconds without the TypeScript loader.
import { closeSync, constants, copyFileSync, fstatSync, linkSync, lstatSync, openSync, readSync, writeSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';

/** Why a hard link can be refused where a copy would work: then the PDF is copied (CopyMode). */
const LINK_REFUSED = new Set(['EXDEV', 'EPERM', 'EMLINK', 'ENOTSUP', 'EOPNOTSUPP', 'EACCES']);
/** Why a clone can be refused where a copy would work (ext4: ENOTSUP; another file system: EXDEV). */
const CLONE_REFUSED = new Set(['ENOTSUP', 'EOPNOTSUPP', 'EXDEV', 'EINVAL', 'ENOSYS', 'ENOTTY']);

/** Files smaller than this are copied through it; larger ones by the kernel's copy. */
const SMALL_FILE = 1 << 20;
const bytes = Buffer.allocUnsafe(SMALL_FILE);
/** Whether the files given here can be cloned: unknown until the first copy tries (all come from one folder to another). */
let clones;

/** A copy (see CopyMode in file-writer.ts) of `from` at `to`; returns what `lstat` says of `to`. */
function copy(from, to, mode) {
  if (mode === 'link') {
    try {
      linkSync(from, to);
      return lstatSync(to);
    } catch (error) {
      if (!LINK_REFUSED.has(error.code)) throw error;
    }
  }
  if (clones !== false) {
    try {
      copyFileSync(from, to, constants.COPYFILE_FICLONE_FORCE);
      clones = true;
      return lstatSync(to);
    } catch (error) {
      if (clones === true || !CLONE_REFUSED.has(error.code)) throw error;
      clones = false;
    }
  }
  return copyBytes(from, to);
}

/**
 * A small file read and written: on ext4 twice as fast as the kernel's copy (32 against 70 µs for a
 * PDF of a few KB), which also opens, stats and sets the mode of both files and tries a clone first.
 */
function copyBytes(from, to) {
  const fd = openSync(from, 'r');
  let length = 0;
  try {
    for (let read = 1; read > 0 && length < SMALL_FILE; length += read) read = readSync(fd, bytes, length, SMALL_FILE - length, length);
  } finally {
    closeSync(fd);
  }
  if (length < SMALL_FILE) return writeFile(to, bytes.subarray(0, length));
  copyFileSync(from, to);
  return lstatSync(to);
}

/** A file of these bytes (created, or emptied first); returns what `fstat` says of it once written. */
function writeFile(to, data) {
  const fd = openSync(to, 'w');
  try {
    for (let done = 0; done < data.byteLength;) done += writeSync(fd, data, done, data.byteLength - done);
    return fstatSync(fd);
  } finally {
    closeSync(fd);
  }
}

parentPort.on('message', ({ batch, paths, bodies, sources, texts }) => {
  try {
    const stamps = new Float64Array(paths.length * 3);
    for (let i = 0; i < paths.length; i++) {
      const stat = sources[i] === null ? writeFile(paths[i], bodies[i]) : copy(sources[i], paths[i], bodies[i]);
      stamps[i * 3] = stat.size;
      stamps[i * 3 + 1] = stat.mtimeMs;
      stamps[i * 3 + 2] = stat.ino;
    }
    // The buffer the batch's texts were encoded into goes back, to be filled again (file-writer.ts).
    parentPort.postMessage({ batch, stamps, texts }, texts ? [stamps.buffer, texts] : [stamps.buffer]);
  } catch (error) {
    parentPort.postMessage({ batch, error: { message: error.message, code: error.code } });
  }
});
