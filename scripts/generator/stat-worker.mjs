// A stat worker (issue 4, stat-many.ts): `lstat` of a slice of paths, answered as numbers in one
// transferable array. Plain JavaScript, so that it starts in milliseconds without the TypeScript
// loader; the layout of the answer is documented (and typed) in stat-many.ts.
import { lstatSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

const { paths, fields } = workerData;
const list = paths.split('\0'); // no path holds a NUL
const out = new Float64Array(list.length * fields);
for (let i = 0; i < list.length; i++) {
  const stat = lstatSync(list[i], { throwIfNoEntry: false });
  if (!stat) continue; // kind 0: missing
  out[i * fields] = stat.isFile() ? 1 : stat.isSymbolicLink() ? 2 : 3;
  out[i * fields + 1] = stat.size;
  out[i * fields + 2] = stat.mtimeMs;
  out[i * fields + 3] = stat.ino;
}
parentPort.postMessage(out, [out.buffer]);
