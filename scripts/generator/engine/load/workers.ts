/**
 * Runs the load jobs of a build. Large journals are spread over worker threads, one per
 * core, in batches handed out as each worker finishes, so a slow batch never leaves a core idle.
 * The main thread does not parse: its heap holds every record, and V8 grows a heap in proportion
 * to what it holds, so parsing garbage there cost more memory (measured: 300 MB at 100,000
 * manuscripts) than a worker's own small heap. Small journals load in-thread, where starting
 * workers would cost more than it saves.
 */
import { availableParallelism } from 'node:os';
import { startThread } from '../start-thread.ts';
import { runLoadJob, type LoadJob, type LoadResult } from './load-job.ts';
import type { WorkerRequest, WorkerResponse } from './load-worker.ts';

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
  if (threads === 0) {
    for (let start = 0; start < jobs.length; start += BATCH_SIZE) {
      options.onResults(jobs.slice(start, start + BATCH_SIZE).map((job) => runLoadJob(job, now)));
    }
    return;
  }

  const batches: LoadJob[][] = [];
  for (let start = 0; start < jobs.length; start += BATCH_SIZE) batches.push(jobs.slice(start, start + BATCH_SIZE));
  const entry = new URL('./load-worker.ts', import.meta.url);
  const workers = Array.from({ length: Math.min(threads, batches.length) }, () => startThread('load-worker', entry));
  let next = 0;
  try {
    await Promise.all([
      ...workers.map(
        (worker) =>
          new Promise<void>((resolve, reject) => {
            let pending = 0;
            const send = () => {
              while (pending < IN_FLIGHT && next < batches.length) {
                const batch = next++;
                worker.postMessage({ batch, jobs: batches[batch]!, now } satisfies WorkerRequest);
                pending++;
              }
              if (pending === 0) resolve();
            };
            worker.on('message', (response: WorkerResponse) => {
              pending--;
              try {
                options.onResults(response.results);
              } catch (error) {
                reject(error);
                return;
              }
              send();
            });
            worker.on('error', reject);
            worker.on('exit', (code) =>
              reject(new Error(`a load worker stopped (exit code ${code}) before its work was done`)),
            );
            send();
          }),
      ),
    ]);
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}
