/**
 * A load worker's task: a batch of load jobs, run off the main thread so that both cores parse
 * YAML (the build's hot spot) while the main thread receives, resolves and writes. A journal too
 * small for workers runs its batches in-thread with the same function (workers.ts).
 */
import { runLoadJob, type LoadJob, type LoadResult } from './load-job.ts';

export interface LoadBatch {
  jobs: LoadJob[];
  now: number;
}

export default function loadBatch({ jobs, now }: LoadBatch): LoadResult[] {
  return jobs.map((job) => runLoadJob(job, now));
}
