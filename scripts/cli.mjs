// The command line's entry point, as `npm run <command>` starts it: plain JavaScript, so that it
// starts in milliseconds. It runs cli.ts compiled (compiled-cli.mjs: once per change of the code),
// or, if that cannot be done, through the TypeScript loader registered in this process (rather
// than through `tsx`'s own command, which runs the script in a second process).
//
// A build on Linux (and an export, which builds into a folder of its own) runs in a child process
// instead, with settings that can only be made before a process starts (issue 4). Deciding it
// here, before the loader and the command's modules load, costs one Node start (about 50 ms)
// rather than two starts of the whole command line.
// - glibc gives every thread that allocates its own malloc arena, and keeps in it what the load
//   workers and the compression threads freed: at 100,000 manuscripts that was 160 MB of the
//   build's peak (988 MiB with the default, 826 MiB with two arenas). With one, the threads waited
//   on its lock: the system time of a cold build doubled for 20 MB less.
// - glibc raises its threshold for serving an allocation from its own mapping (freed to the system
//   at once) up to 32 MB as large blocks are freed, so the lists' buffers and the compression
//   threads' blocks end up in the arenas, kept after they are freed. A fixed 128 KB (its initial
//   value) took the cold build's peak from 985 to 952 and from 1,003 to 933 MiB in two pairs of
//   runs, for about 2 s more CPU.
// - A young generation of 32 MB semi-spaces (V8's default is 16): a page's text lives until its
//   file is written, long enough to be promoted and collected again with the records. It saved
//   about 10 s of CPU in garbage collection at 100,000 manuscripts for no measurable memory
//   (64 MB saved 15 s but added 100 MB).
// - `gc()`, for one full collection once loading is done (cli.ts, runBuild).
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { compiledCli } from './compiled-cli.mjs';

const [command] = process.argv.slice(2);
if (
  (command === 'build' || command === 'export') &&
  process.platform === 'linux' &&
  process.env.MALLOC_ARENA_MAX === undefined
) {
  const child = spawn(
    process.execPath,
    ['--max-semi-space-size=32', '--expose-gc', ...process.execArgv, ...process.argv.slice(1)],
    {
      stdio: 'inherit',
      env: { ...process.env, MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' },
    },
  );
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.once('error', (error) => {
    console.error(error);
    process.exitCode = 3;
  });
  child.once('exit', (code, signal) => {
    process.exitCode = code ?? 128 + (signal ? constants.signals[signal] : 0);
  });
} else {
  const compiled = await compiledCli();
  if (compiled) {
    // Errors name the TypeScript sources' lines, as under the loader.
    process.setSourceMapsEnabled(true);
    await import(compiled);
  } else {
    const { register } = await import('tsx/esm/api');
    register();
    await import('./cli.ts');
  }
}
