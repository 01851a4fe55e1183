// The file writer's thread (issue 4, file-writer.ts): writes batches of small files one after the
// other with plain system calls, off the main thread. Plain JavaScript, so that it starts in
// milliseconds without the TypeScript loader.
import { writeFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';

parentPort.on('message', ({ batch, paths, bodies }) => {
  try {
    for (let i = 0; i < paths.length; i++) writeFileSync(paths[i], bodies[i]);
    parentPort.postMessage({ batch });
  } catch (error) {
    parentPort.postMessage({ batch, error: { message: error.message, code: error.code } });
  }
});
