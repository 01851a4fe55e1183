/**
 * Runs the load jobs of a build (issue 4). Large journals are spread over worker threads and the
 * main thread, one thread per core, in batches handed out as each thread finishes, so a slow
 * batch never leaves a core idle. The main thread takes batches too: it has little else to do
 * while loading, and one worker fewer is one V8 heap fewer. Small journals load in-thread only,
 * where starting a worker would cost more than it saves.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { runLoadJob, type LoadJob, type LoadResult } from './load-job.ts';
import type { WorkerRequest, WorkerResponse } from './load-worker.ts';

export interface LoadPoolOptions {
  /** Worker threads besides the main thread; 0 loads in-thread. Default: one per core but one, when there are enough files. */
  threads?: number;
  /** Called as each batch completes, in completion order. */
  onResults: (results: LoadResult[]) => void;
}

/** Below this many files the workers' start-up (about 150 ms each) outweighs the parallel parsing. */
const MIN_FILES_FOR_WORKERS = 1500;
const BATCH_SIZE = 250;
/** Batches queued per worker, so a worker never waits for the main thread between two batches. */
const IN_FLIGHT = 2;

export async function runLoadJobs(jobs: readonly LoadJob[], options: LoadPoolOptions): Promise<void> {
  const now = Date.now();
  const threads = options.threads ?? (jobs.length >= MIN_FILES_FOR_WORKERS ? Math.max(1, Math.min(availableParallelism() - 1, 8)) : 0);
  if (threads === 0) {
    for (let start = 0; start < jobs.length; start += BATCH_SIZE) {
      options.onResults(jobs.slice(start, start + BATCH_SIZE).map((job) => runLoadJob(job, now)));
    }
    return;
  }

  const batches: LoadJob[][] = [];
  for (let start = 0; start < jobs.length; start += BATCH_SIZE) batches.push(jobs.slice(start, start + BATCH_SIZE));
  const boot = new URL('./load-worker-boot.mjs', import.meta.url);
  const entry = new URL('./load-worker.ts', import.meta.url).href;
  const workers = Array.from({ length: Math.min(threads, batches.length) }, () => new Worker(boot, { workerData: { entry } }));
  let next = 0;
  const onMainThread = async () => {
    while (next < batches.length) {
      options.onResults(batches[next++]!.map((job) => runLoadJob(job, now)));
      await new Promise((resolve) => setImmediate(resolve)); // let the workers' results in
    }
  };
  try {
    await Promise.all([onMainThread(), ...workers.map((worker) => new Promise<void>((resolve, reject) => {
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
      worker.on('exit', (code) => reject(new Error(`a load worker stopped (exit code ${code}) before its work was done`)));
      send();
    }))]);
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}
