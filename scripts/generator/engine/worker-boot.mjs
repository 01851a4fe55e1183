// A TypeScript worker's start (workers.ts, list-writer.ts, file-writer.ts), in plain JavaScript: worker threads
// inherit neither the command line's compiled code nor its TypeScript loader. It runs the worker
// named in its data (`boot: { name, entry }`) as the command line compiled it (compiled-cli.mjs),
// or else through the TypeScript loader, registered here.
import { workerData } from 'node:worker_threads';
import { compiledEntry } from '../../compiled-cli.mjs';

const { name, entry } = workerData.boot;
const compiled = await compiledEntry(name);
if (compiled) {
  await import(compiled);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(entry);
}
