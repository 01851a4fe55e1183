// A load worker's start (workers.ts), in plain JavaScript: worker threads inherit neither the
// command line's compiled code nor its TypeScript loader. It runs load-worker.ts as the command line
// compiled it (compiled-cli.mjs), or else through the TypeScript loader, registered here.
import { workerData } from 'node:worker_threads';
import { compiledEntry } from '../compiled-cli.mjs';

const compiled = await compiledEntry('load-worker');
if (compiled) {
  await import(compiled);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(workerData.entry);
}
