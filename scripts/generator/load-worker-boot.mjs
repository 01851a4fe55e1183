// Worker threads do not inherit the TypeScript loader of the main thread: register it, then
// run the worker module (scripts/generator/load-worker.ts). Plain JavaScript for that reason.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
