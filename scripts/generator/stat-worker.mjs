// A stat worker (issue 4, stat-many.ts): `lstat` of many files, answered as numbers in transferable
// arrays. Plain JavaScript, so that it starts in milliseconds without the TypeScript loader; the
// layout of the answers is documented (and typed) in stat-many.ts. Two kinds of work:
// - `paths`: a slice of paths (statMany), answered in one array;
// - `folders`: whole folders listed and stamped (scanFolders), claimed one at a time from a counter
//   shared with the other workers, each answered as soon as it is done.
import { lstatSync, readdirSync } from 'node:fs';
import { sep } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';

const { fields } = workerData;

/** kind (0 missing, 1 file, 2 symbolic link, 3 other, 4 folder), size, mtimeMs, ino of each path. */
function stamp(prefix, names) {
  const out = new Float64Array(names.length * fields);
  for (let i = 0; i < names.length; i++) {
    const stat = lstatSync(prefix + names[i], { throwIfNoEntry: false });
    if (!stat) continue;
    out[i * fields] = stat.isFile() ? 1 : stat.isSymbolicLink() ? 2 : stat.isDirectory() ? 4 : 3;
    out[i * fields + 1] = stat.size;
    out[i * fields + 2] = stat.mtimeMs;
    out[i * fields + 3] = stat.ino;
  }
  return out;
}

if (workerData.paths !== undefined) {
  const out = stamp('', workerData.paths.split('\0')); // no path holds a NUL
  parentPort.postMessage(out, [out.buffer]);
} else {
  const { folders, recursive } = workerData;
  const next = new Int32Array(workerData.next);
  for (let f = Atomics.add(next, 0, 1); f < folders.length; f = Atomics.add(next, 0, 1)) {
    const pending = [folders[f]];
    while (pending.length > 0) {
      const folder = pending.pop();
      let names;
      try {
        names = readdirSync(folder);
      } catch {
        parentPort.postMessage({ folder });
        continue;
      }
      names.sort(); // by UTF-16 code units, the order of every list the build reports
      const values = stamp(folder + sep, names);
      if (recursive[f]) for (let i = names.length - 1; i >= 0; i--) if (values[i * fields] === 4) pending.push(folder + sep + names[i]);
      parentPort.postMessage({ folder, names: names.join('\0'), values }, [values.buffer]);
    }
  }
  parentPort.postMessage({ done: true });
}
