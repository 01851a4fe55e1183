// Pagefind, on a thread of its own (search-index.ts): given each language's records, it answers
// each language's bundle of files, or Pagefind's errors. Plain JavaScript and an ES module, as
// Pagefind's package is: the compiled command line runs as CommonJS in a vm context, from which an
// `import()` goes through an experimental loader that prints a warning on every build.
import { parentPort, workerData } from 'node:worker_threads';
import * as pagefind from 'pagefind';

/** Pagefind's ready-made interfaces, which the pages do not load (search-index.ts). */
const UNUSED_BUNDLE_FILE = /^pagefind-(ui|modular-ui|component-ui|highlight)\.(js|css)$/;

class PagefindErrors extends Error {}

/** One language's bundle: its files' paths and bytes. */
async function bundleOf(records) {
  const created = await pagefind.createIndex({});
  const { index } = created;
  if (!index) throw new PagefindErrors(created.errors.join('; '));
  try {
    // One at a time: the service answers in order, and the order makes the index's bytes.
    for (const record of records) {
      const added = await index.addCustomRecord(record);
      if (added.errors.length > 0) throw new PagefindErrors(added.errors.join('; '));
    }
    const written = await index.getFiles();
    if (written.errors.length > 0) throw new PagefindErrors(written.errors.join('; '));
    return written.files.filter((file) => !UNUSED_BUNDLE_FILE.test(file.path));
  } finally {
    await index.deleteIndex().catch(() => {});
  }
}

try {
  const bundles = [];
  for (const records of JSON.parse(workerData.groups)) bundles.push(await bundleOf(records));
  // Copied, not transferred: Pagefind's bytes may be views on a buffer Node shares between many.
  parentPort.postMessage({ bundles });
} catch (error) {
  // Pagefind's own words for an operator; anything else is a bug, with its stack.
  parentPort.postMessage(error instanceof PagefindErrors ? { errors: error.message } : { bug: String(error.stack) });
} finally {
  // Its service is a process of its own, which would keep this thread running.
  await pagefind.close().catch(() => {});
}
