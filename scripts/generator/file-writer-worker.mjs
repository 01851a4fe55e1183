// The file writer's thread (issue 4, file-writer.ts): makes batches of small files one after the
// other with plain system calls, off the main thread. Plain JavaScript, so that it starts in
// milliseconds without the TypeScript loader.
import { constants, copyFileSync, linkSync, writeFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';

/** Why a hard link can be refused where a copy would work: then the PDF is copied (CopyMode). */
const LINK_REFUSED = new Set(['EXDEV', 'EPERM', 'EMLINK', 'ENOTSUP', 'EOPNOTSUPP', 'EACCES']);

function copy(from, to, mode) {
  if (mode === 'link') {
    try {
      linkSync(from, to);
      return;
    } catch (error) {
      if (!LINK_REFUSED.has(error.code)) throw error;
    }
  }
  copyFileSync(from, to, constants.COPYFILE_FICLONE);
}

parentPort.on('message', ({ batch, paths, bodies, sources }) => {
  try {
    for (let i = 0; i < paths.length; i++) {
      if (sources[i] === null) writeFileSync(paths[i], bodies[i]);
      else copy(sources[i], paths[i], bodies[i]);
    }
    parentPort.postMessage({ batch });
  } catch (error) {
    parentPort.postMessage({ batch, error: { message: error.message, code: error.code } });
  }
});
