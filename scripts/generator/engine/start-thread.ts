/**
 * How the engine starts its threads (the load workers, the lists' writer, the files' writer): each
 * kind as a pool of piscina, whose tasks are its module's default export. Compiled
 * (compile-cli.cjs), a thread runs its own compiled file from the copy of the command line that
 * starts it: the same code, started as CommonJS with nothing else loaded first. Through
 * worker-boot.mjs, each thread loaded the ES module loader and the TypeScript loader: a load thread
 * answered its first batch after 52 to 60 ms and 56 to 65 ms of CPU, against 36 to 39 ms and 39 to
 * 42 ms. Run from the sources (the tests, a checkout whose compiled copy is not current), or when
 * the copy was compiled again since this command started (`npm run build` after an edit, while
 * `npm run dev` runs), it starts through worker-boot.mjs.
 *
 * piscina rather than tinypool: tinypool is an ES module only, and the compiled command line
 * requires the packages it leaves as imports (compile-cli.cjs).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Piscina } from 'piscina';
import type { ENTRIES } from '../../compile-cli.cjs';
import type * as WorkerThreads from 'node:worker_threads';
import type { MessageChannel } from 'node:worker_threads';

export type ThreadPool = Piscina;
export type PoolOptions = NonNullable<ConstructorParameters<typeof Piscina>[0]>;

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

/**
 * A pool of the threads `name`, whose first module is `source` (its default export runs each task),
 * with `options` (workerData and all). piscina is loaded with the first pool: a `check` starts none.
 */
export function startPool(name: ThreadName, source: URL, options: PoolOptions = {}): ThreadPool {
  const { Piscina: Pool } = createRequire(import.meta.url)('piscina') as { Piscina: typeof Piscina };
  const compiled =
    typeof COMPILED_CODE_DIR === 'string' && typeof COMPILED_CODE_ID === 'string'
      ? compiledThreadFile(COMPILED_CODE_DIR, COMPILED_CODE_ID, name)
      : undefined;
  // Task timings are recorded for piscina's histograms unless told not to: nothing here reads them.
  options = { recordTiming: false, ...options };
  if (compiled) return new Pool({ ...options, filename: compiled });
  const workerData: unknown = options.workerData ?? {};
  return new Pool({
    ...options,
    filename: fileURLToPath(new URL('./worker-boot.mjs', import.meta.url)),
    workerData: { ...(workerData as object), boot: { name, entry: source.href } },
  });
}

/** A channel to a task as it runs; node:worker_threads is loaded with the first pool or channel. */
export function messageChannel(): MessageChannel {
  return new (createRequire(import.meta.url)('node:worker_threads') as typeof WorkerThreads).MessageChannel();
}
