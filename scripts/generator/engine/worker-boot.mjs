// A thread's start when the command line runs from its TypeScript sources (start-thread.ts), in
// plain JavaScript: worker threads inherit neither compiled code nor the TypeScript loader. It
// registers the loader here and hands the pool the default export of the thread named in its data
// (`boot: { entry }`).
import { workerData } from 'node:worker_threads';

const { register } = await import('tsx/esm/api');
register();
export default (await import(workerData.boot.entry)).default;
