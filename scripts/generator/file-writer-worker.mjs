// The file writer's thread (issue 4, file-writer.ts): makes batches of small files one after the
// other with plain system calls, off the main thread. Plain JavaScript, so that it starts in
// milliseconds without the TypeScript loader.
import { closeSync, constants, copyFileSync, linkSync, openSync, readSync, writeFileSync } from 'node:fs';
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

function copy(from, to, mode) {
  if (mode === 'link') {
    try {
      linkSync(from, to);
      return;
    } catch (error) {
      if (!LINK_REFUSED.has(error.code)) throw error;
    }
  }
  if (clones !== false) {
    try {
      copyFileSync(from, to, constants.COPYFILE_FICLONE_FORCE);
      clones = true;
      return;
    } catch (error) {
      if (clones === true || !CLONE_REFUSED.has(error.code)) throw error;
      clones = false;
    }
  }
  copyBytes(from, to);
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
  if (length >= SMALL_FILE) copyFileSync(from, to);
  else writeFileSync(to, bytes.subarray(0, length));
}

parentPort.on('message', ({ batch, paths, bodies, sources, texts }) => {
  try {
    for (let i = 0; i < paths.length; i++) {
      if (sources[i] === null) writeFileSync(paths[i], bodies[i]);
      else copy(sources[i], paths[i], bodies[i]);
    }
    // The buffer the batch's texts were encoded into goes back, to be filled again (file-writer.ts).
    parentPort.postMessage({ batch, texts }, texts ? [texts] : []);
  } catch (error) {
    parentPort.postMessage({ batch, error: { message: error.message, code: error.code } });
  }
});
