// The command line's entry point, as `npm run <command>` starts it: plain JavaScript, so that it
// starts in milliseconds. It runs cli.ts compiled (compiled-cli.mjs: once per change of the code,
// then from V8's code cache), or, if that cannot be done, through the TypeScript loader registered
// in this process (rather than through `tsx`'s own command, which runs the script in a second
// process).
//
// A large journal's build on Linux runs in a child process with settings that can only be given
// when a process starts (build-process.mjs says which and why); a small one runs here.
import { constants } from 'node:os';
import { buildProcess } from './build-process.mjs';
import { runCompiledCli } from './compiled-cli.mjs';

const child = buildProcess(process.argv.slice(2), process.env, process.platform);
if (child) {
  // Loaded only here: with the network modules it loads, about 2 ms of every other command's start.
  const { spawn } = await import('node:child_process');
  const started = spawn(process.execPath, [...child.execArgv, ...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, ...child.env },
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => started.kill(signal));
  started.once('error', (error) => {
    console.error(error);
    process.exitCode = 3;
  });
  started.once('exit', (code, signal) => {
    process.exitCode = code ?? 128 + (signal ? constants.signals[signal] : 0);
  });
} else if (!(await runCompiledCli())) {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./cli.ts');
}
