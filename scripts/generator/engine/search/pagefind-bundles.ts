/**
 * Pagefind's bundles for one shard of the search index (search-index.ts), made by its service
 * process, on this thread: the work is the service's, in a process of its own, and this thread only
 * sends it the records and takes its files.
 *
 * Pagefind's `close()` kills its service process without waiting for it to exit, and keeps the
 * process to itself. Until a process that exited is waited for, it stays in the process table (a
 * zombie): so the service is learnt of as Node starts it (the `child_process` diagnostics channel),
 * and the shard is done only once it has exited and been waited for.
 *
 * A build that stops (a problem found while Pagefind works) stops its shard too: its service is
 * closed at once, and nothing more is asked of Pagefind's module, which would start another.
 */
import type { ChildProcess } from 'node:child_process';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import { arch } from 'node:os';
import path from 'node:path';
import type * as Pagefind from 'pagefind';
import { Stopped } from '../../../shared/stopped.ts';

/** One file of a bundle: its path in the bundle, and its bytes. */
export interface BundleFile {
  path: string;
  content: Uint8Array;
}

/** Pagefind's ready-made interfaces, which the pages do not load (search-index.ts). */
const UNUSED_BUNDLE_FILE = /^pagefind-(ui|modular-ui|component-ui|highlight)\.(js|css)$/;

/** Pagefind's own errors, for an operator, as opposed to a bug. */
class PagefindErrors extends Error {}

/** The last indexing asked for: Pagefind's module has one service a process, which `close()` ends for all. */
let queue: Promise<unknown> = Promise.resolve();

/**
 * Each group's bundle, in the groups' order, by one service process, which has exited when this
 * returns or throws. Pagefind's own errors stop the build with a sentence for an operator. Two
 * builds in one process (the tests) index one after the other. Once `signal` is aborted, the
 * service is closed and this throws its reason.
 */
export function pagefindBundles(
  groups: readonly (readonly Pagefind.CustomRecord[])[],
  signal: AbortSignal = new AbortController().signal,
): Promise<BundleFile[][]> {
  const bundles = queue.then(() => bundlesByOneService(groups, signal));
  queue = bundles.catch(() => {});
  return bundles;
}

async function bundlesByOneService(
  groups: readonly (readonly Pagefind.CustomRecord[])[],
  signal: AbortSignal,
): Promise<BundleFile[][]> {
  signal.throwIfAborted();
  // Started without its program, Pagefind prints its own stack traces before it fails.
  const missing = missingProgram();
  if (missing) throw searchStopped(missing);
  // An ES module alone: imported, not required, in the compiled command line too.
  const pagefind = await import('pagefind');
  signal.throwIfAborted();
  const started: ChildProcess[] = [];
  const onStart = (message: unknown) => started.push((message as { process: ChildProcess }).process);
  subscribe('child_process', onStart);
  // Its requests in flight fail at once ("backend closed"), and the shard with them.
  const onAbort = () => void pagefind.close();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    const bundles: BundleFile[][] = [];
    for (const records of groups) bundles.push(await bundleOf(pagefind, records, signal));
    return bundles;
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw error instanceof PagefindErrors ? searchStopped(error.message) : error;
  } finally {
    signal.removeEventListener('abort', onAbort);
    unsubscribe('child_process', onStart);
    await pagefind.close();
    // Any other process started on this thread meanwhile is its starter's to wait for.
    await Promise.all(started.filter(isPagefindService).map(exited));
  }
}

/**
 * One language's bundle: its files' paths and bytes. Each request first checks `signal`: one made
 * once the service was closed would start another.
 */
async function bundleOf(
  pagefind: typeof Pagefind,
  records: readonly Pagefind.CustomRecord[],
  signal: AbortSignal,
): Promise<BundleFile[]> {
  signal.throwIfAborted();
  const created = await pagefind.createIndex({});
  const { index } = created;
  if (!index) throw new PagefindErrors(created.errors.join('; '));
  try {
    // One at a time: the service answers in order, and the order makes the index's bytes.
    for (const record of records) {
      signal.throwIfAborted();
      const added = await index.addCustomRecord(record);
      if (added.errors.length > 0) throw new PagefindErrors(added.errors.join('; '));
    }
    signal.throwIfAborted();
    const written = await index.getFiles();
    if (written.errors.length > 0) throw new PagefindErrors(written.errors.join('; '));
    return written.files
      .filter((file) => !UNUSED_BUNDLE_FILE.test(file.path))
      .map((file) => ({
        path: file.path,
        // A buffer of its own: a small file's bytes are a view on a buffer Node shares between many,
        // which the write stage could not hand to its thread.
        content: new Uint8Array(file.content),
      }));
  } finally {
    if (!signal.aborted) await index.deleteIndex().catch(() => {});
  }
}

/**
 * Why Pagefind's program cannot be started, looked for as Pagefind looks for it (its
 * resolveBinary.js: a `..._BINARY_PATH` variable, else its package for this platform), or
 * undefined when it is there to run.
 */
function missingProgram(): string | undefined {
  const named = process.env['PAGEFIND_EXTENDED_BINARY_PATH'] || process.env['PAGEFIND_BINARY_PATH'];
  let program = named;
  if (!program) {
    const platform = `${process.platform === 'win32' ? 'windows' : process.platform}-${process.env['npm_config_arch'] || arch()}`;
    const suffix = process.platform === 'win32' ? '.exe' : '';
    const resolve = createRequire(import.meta.url).resolve;
    for (const name of ['pagefind_extended', 'pagefind']) {
      try {
        program = resolve(`@pagefind/${platform}/bin/${name}${suffix}`);
        break;
      } catch {
        // Not installed for this platform: the next name, or the sentence below.
      }
    }
    if (!program) return `its program for ${platform} is not installed`;
  }
  try {
    accessSync(program, constants.X_OK);
    return undefined;
  } catch (error) {
    return `its program ${program} cannot be run (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
  }
}

/** Pagefind's service (`pagefind --service`, or its extended build's), as opposed to another program. */
function isPagefindService(child: ChildProcess): boolean {
  return path.basename(child.spawnfile ?? '').startsWith('pagefind') && child.spawnargs.includes('--service');
}

/** Settles once `child` has exited and been waited for (or could not start at all). */
function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  // Pagefind lets its process go (unref): waited for here, it must keep Node running until then.
  child.ref();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  });
}

/**
 * Pagefind's own errors, for an operator: most often its binary for this platform is missing (an
 * install without optional dependencies).
 */
function searchStopped(errors: string): Stopped {
  return new Stopped(
    `The search index could not be made (Pagefind: ${errors || 'no reason given'}): reinstall with \`npm ci\` so that its binary for this platform is present, or set \`search: false\` in content/journal.yaml.`,
  );
}
