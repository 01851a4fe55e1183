/**
 * A load worker: runs batches of load jobs off the main thread, so both cores parse
 * YAML (the build's hot spot) while the main thread receives, resolves and writes.
 */
import { parentPort } from 'node:worker_threads';
import { runLoadJob, type LoadJob, type LoadResult } from './load-job.ts';

export interface WorkerRequest {
  batch: number;
  jobs: LoadJob[];
  now: number;
}

export interface WorkerResponse {
  batch: number;
  results: LoadResult[];
}

parentPort?.on('message', (request: WorkerRequest) => {
  const results = request.jobs.map((job) => runLoadJob(job, request.now));
  parentPort!.postMessage({ batch: request.batch, results } satisfies WorkerResponse);
});
