// A stat worker (stat-many.ts): `lstat` of many files, answered as numbers in transferable
// arrays. Plain JavaScript, so that it starts in milliseconds without the TypeScript loader; the
// layout of the answers is documented (and typed) in stat-many.ts. Three kinds of work:
// - `paths`: a slice of paths (statMany), answered in one array;
// - `magic`: a slice of paths whose first bytes are compared (startsWithMany), answered in one array;
// - `folders`: whole folders listed and stamped (scanFolders), claimed one at a time from a counter
//   shared with the other workers, each answered as soon as it is done; a large folder is answered
//   twice, with its names as soon as they are listed (`share`), then once it is stamped (`stamped`);
//   a worker with no folder left may take chunks of the large folders still being stamped (`help`);
//   each root is answered once more when every folder under it is (`walked`).
import { parentPort, workerData } from 'node:worker_threads';
import { keptListings, STAT_FIELDS, stampInto, stampShared, startsWithInto, walkFolders } from './stat-walk.mjs';

if (workerData.magic !== undefined) {
  const paths = workerData.magic.paths.split('\0');
  const out = new Uint8Array(paths.length);
  startsWithInto(out, paths, workerData.magic.bytes);
  parentPort.postMessage(out, [out.buffer]);
} else if (workerData.paths !== undefined) {
  const paths = workerData.paths.split('\0'); // no path holds a NUL
  const out = new Float64Array(paths.length * STAT_FIELDS);
  stampInto(out, '', paths);
  parentPort.postMessage(out, [out.buffer]);
} else {
  const { folders, recursive, keep } = workerData;
  const kept = workerData.listings ? keptListings(workerData.listings) : undefined;
  const next = new Int32Array(workerData.next);
  for (let f = Atomics.add(next, 0, 1); f < folders.length; f = Atomics.add(next, 0, 1)) {
    // A large folder's names go to the main thread as soon as they are listed, so that it can take a
    // share of the stamps (stat-walk.mjs, stampShared): then only its completion is posted.
    const shared = new Set();
    walkFolders(
      folders[f],
      recursive[f],
      (folder, listing) => {
        if (!listing) return parentPort.postMessage({ folder });
        if (shared.has(folder)) return parentPort.postMessage({ folder, stamped: true });
        parentPort.postMessage({ folder, names: listing.joined, count: listing.count, values: listing.values }, [
          listing.values.buffer,
        ]);
      },
      (folder, { joined, starts, values, control, prefix }) => {
        shared.add(folder);
        parentPort.postMessage({ folder, share: { names: joined, starts, values, control, prefix } });
      },
      keep[f] ? kept : undefined,
    );
    // Every folder under this root was answered above: one waiting for a folder found under it need
    // not wait for the other roots (stat-many.ts).
    parentPort.postMessage({ walked: f });
  }
  // No folder left to claim: take chunks of the large folders the other workers are still stamping,
  // if the main thread hands them over, until it stops this thread.
  parentPort.on('message', ({ help }) => {
    try {
      stampShared(help.values, help.prefix, help.names, help.starts, help.control);
    } catch {
      // Marked in the folder's control: the worker that listed it fails the scan (walkFolders).
    }
  });
  parentPort.postMessage({ done: true });
}
