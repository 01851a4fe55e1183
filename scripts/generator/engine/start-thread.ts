/**
 * How the engine starts a thread of its own (a load worker, the lists' writer, the files' writer).
 * Compiled (compile-cli.cjs), a thread runs its own compiled file, from the copy of the command line
 * that starts it: the same code, started as CommonJS with nothing else loaded first. Through
 * worker-boot.mjs, each thread loaded the ES module loader and the TypeScript loader: a load thread
 * answered its first batch after 52 to 60 ms and 56 to 65 ms of CPU, against 36 to 39 ms and 39 to
 * 42 ms. Run from the sources (the tests, a checkout whose compiled copy is not current), or when
 * the copy was compiled again since this command started (`npm run build` after an edit, while
 * `npm run dev` runs), it starts through worker-boot.mjs.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as WorkerThreads from 'node:worker_threads';
import type { Worker, WorkerOptions } from 'node:worker_threads';
import type { ENTRIES } from '../../compile-cli.cjs';

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

/** The compiled copy's folder and the compile's id, defined by compile-cli.cjs as it compiles; undefined in the sources. */
declare const COMPILED_CODE_DIR: string | undefined;
declare const COMPILED_CODE_ID: string | undefined;

/** A thread's entry, as compile-cli.cjs lists them (ENTRIES), the command line's own aside. */
export type ThreadName = Exclude<keyof typeof ENTRIES, 'cli'>;

/**
 * The compiled file of the thread `name` in the compiled copy's folder `dir`, while that folder
 * holds the compile `id` (its stamp says which); undefined once it was compiled again or removed:
 * a thread of another compile could speak another protocol than the command line that starts it.
 */
export function compiledThreadFile(dir: string, id: string, name: ThreadName): string | undefined {
  try {
    const stamp = JSON.parse(readFileSync(path.join(dir, 'stamp.json'), 'utf8')) as { id?: unknown };
    return stamp.id === id ? path.join(dir, `${name}.cjs`) : undefined;
  } catch {
    return undefined;
  }
}

/** Starts the thread `name`, whose first module is `source`, with `options` (workerData and all). */
export function startThread(name: ThreadName, source: URL, options: WorkerOptions = {}): Worker {
  const compiled =
    typeof COMPILED_CODE_DIR === 'string' && typeof COMPILED_CODE_ID === 'string'
      ? compiledThreadFile(COMPILED_CODE_DIR, COMPILED_CODE_ID, name)
      : undefined;
  if (compiled) return new (threads().Worker)(compiled, options);
  const workerData: unknown = options.workerData ?? {};
  return startPlainThread(new URL('./worker-boot.mjs', import.meta.url), {
    ...options,
    workerData: { ...(workerData as object), boot: { name, entry: source.href } },
  });
}
