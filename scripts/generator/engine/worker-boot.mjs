// A thread's start when the command line runs from its TypeScript sources (start-thread.ts), in
// plain JavaScript: worker threads inherit neither compiled code nor the TypeScript loader. It runs
// the thread named in its data (`boot: { entry }`) through the TypeScript loader, registered here.
import { workerData } from 'node:worker_threads';

const { register } = await import('tsx/esm/api');
register();
await import(workerData.boot.entry);
