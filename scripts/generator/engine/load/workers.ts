/**
 * Runs the load jobs of a build. Large journals are spread over worker threads, one per
 * core, in batches handed out as each worker finishes, so a slow batch never leaves a core idle.
 * The main thread does not parse: its heap holds every record, and V8 grows a heap in proportion
 * to what it holds, so parsing garbage there cost more memory (measured: 300 MB at 100,000
 * manuscripts) than a worker's own small heap. Small journals load in-thread, where starting
 * workers would cost more than it saves.
 */
import { availableParallelism } from 'node:os';
import { startPool } from '../start-thread.ts';
import type { LoadJob, LoadResult } from './load-job.ts';
import loadBatch, { type LoadBatch } from './load-worker.ts';

export interface LoadPoolOptions {
  /** Worker threads; 0 loads in-thread. Default: one per core, when there are enough files. */
  threads?: number;
  /** Called as each batch completes, in completion order. */
  onResults: (results: LoadResult[]) => void;
}

/**
 * Below this many files the workers' start-up (booting Node and loading the load job's modules,
 * about 40 ms of CPU each) and their parsing from cold code outweigh the parallel parsing. In-thread,
 * a file takes 50 to 75 µs (read, plain YAML, zod): at 1,000 manuscripts (2,505 files) a cold build
 * took 1.08 s loading in-thread against 1.19 s on two workers (docs/performance.md). They
 * pay off from about 6,000 files.
 */
const MIN_FILES_FOR_WORKERS = 6_000;
const BATCH_SIZE = 250;
/** Batches queued per worker, so a worker never waits for the main thread between two batches. */
const IN_FLIGHT = 2;

export async function runLoadJobs(jobs: readonly LoadJob[], options: LoadPoolOptions): Promise<void> {
  const now = Date.now();
  const threads =
    options.threads ?? (jobs.length >= MIN_FILES_FOR_WORKERS ? Math.max(1, Math.min(availableParallelism(), 8)) : 0);
  const batches: LoadBatch[] = [];
  for (let start = 0; start < jobs.length; start += BATCH_SIZE)
    batches.push({ jobs: jobs.slice(start, start + BATCH_SIZE), now });
  // No files to load (all unchanged since the cache) starts no thread either.
  const workers = Math.min(threads, batches.length);
  if (workers === 0) {
    for (const batch of batches) options.onResults(loadBatch(batch));
    return;
  }
  const pool = startPool('load-worker', new URL('./load-worker.ts', import.meta.url), {
    minThreads: workers,
    maxThreads: workers,
    concurrentTasksPerWorker: IN_FLIGHT,
  });
  try {
    await Promise.all(batches.map(async (batch) => options.onResults((await pool.run(batch)) as LoadResult[])));
  } finally {
    await pool.destroy();
  }
}
