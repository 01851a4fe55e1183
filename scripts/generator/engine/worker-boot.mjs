// A thread's start when the command line runs from its TypeScript sources (start-thread.ts), in
// plain JavaScript: worker threads inherit neither compiled code nor the TypeScript loader. It runs
// the thread named in its data (`boot: { name, entry }`) compiled, if a copy of the code as it is
// has been compiled (compiled-cli.cjs), or else through the TypeScript loader, registered here.
import { workerData } from 'node:worker_threads';
import { compiledEntry } from '../../compiled-cli.cjs';

const { name, entry } = workerData.boot;
const compiled = await compiledEntry(name);
if (compiled) {
  await import(compiled);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(entry);
}
