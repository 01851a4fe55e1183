// A thread's start when the command line runs from its TypeScript sources (start-thread.ts), in
// plain JavaScript: worker threads inherit neither compiled code nor the TypeScript loader. It
// registers the loader here and hands each task to the default export of the thread named in its
// data (`boot: { entry }`). No top-level await: piscina requires a task's module first, and a module
// that awaits is then loaded a second time by import().
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const entry = import(workerData.boot.entry);

export default async function runTask(task) {
  return (await entry).default(task);
}
