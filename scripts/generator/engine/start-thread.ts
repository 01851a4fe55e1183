/**
 * How the engine starts a thread of its own (a load worker, the lists' writer, the files' writer).
 * Compiled (compiled-cli.cjs), a thread runs its own compiled file, from the copy of the command line
 * that starts it: the same code, started as CommonJS with nothing else loaded first. Through
 * worker-boot.mjs, each thread loaded the ES module loader and compiled-cli.cjs with the crypto
 * module, and computed the compiled copy's key again: a load thread answered its first batch after
 * 52 to 60 ms and 56 to 65 ms of CPU, against 36 to 39 ms and 39 to 42 ms. Run from the sources
 * (the tests, or where esbuild cannot run), it starts through worker-boot.mjs.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as WorkerThreads from 'node:worker_threads';
import type { Worker, WorkerOptions } from 'node:worker_threads';
import type { ENTRIES } from '../../compiled-cli.cjs';

let workerThreads: typeof WorkerThreads | undefined;
/**
 * Node's worker_threads module, loaded when the first thread starts: 1.6 ms of a `check` after an
 * edit at 1,000 manuscripts, which starts none.
 */
function threads(): typeof WorkerThreads {
  return (workerThreads ??= createRequire(import.meta.url)('node:worker_threads') as typeof WorkerThreads);
}

/** Starts a thread of plain JavaScript (`file`: a module of its own, as worker-boot.mjs is). */
export function startPlainThread(file: URL, options: WorkerOptions = {}): Worker {
  return new (threads().Worker)(file, options);
}

/** The compiled copy's folder, defined by compiled-cli.cjs as it compiles; undefined in the sources. */
declare const COMPILED_CODE_DIR: string | undefined;

/** A thread's entry, as compiled-cli.cjs lists them (ENTRIES), the command line's own aside. */
export type ThreadName = Exclude<keyof typeof ENTRIES, 'cli'>;

/** Starts the thread `name`, whose first module is `source`, with `options` (workerData and all). */
export function startThread(name: ThreadName, source: URL, options: WorkerOptions = {}): Worker {
  // A copy is gone only if three newer ones were compiled since this command started (other
  // checkouts sharing node_modules): the thread then starts through worker-boot.mjs, with the code
  // as it is now.
  const compiled = typeof COMPILED_CODE_DIR === 'string' ? path.join(COMPILED_CODE_DIR, `${name}.cjs`) : undefined;
  if (compiled && existsSync(compiled)) return new (threads().Worker)(compiled, options);
  const workerData: unknown = options.workerData ?? {};
  return startPlainThread(new URL('./worker-boot.mjs', import.meta.url), {
    ...options,
    workerData: { ...(workerData as object), boot: { name, entry: source.href } },
  });
}
