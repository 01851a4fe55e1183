// The command line's entry point, as `npm run <command>` starts it: plain JavaScript, so that it
// starts in milliseconds. It runs cli.ts compiled (compile-cli.cjs: at install, and by `build` when
// scripts/ changed since) while the compiled copy is current, or else through the TypeScript loader
// registered in this process (rather than through `tsx`'s own command, which runs the script in a
// second process): never code older than the sources.
//
// CommonJS, as are the modules it loads: an ES module entry starts Node's ES module loader
// first, and makes a module of each built-in module it imports (that of node:fs reads every export,
// its streams included). That was about 6 ms of every command: `check` after one edit at 1,000
// manuscripts took 140 ms against 146 (medians of 20 alternating pairs).
//
// A large journal's build on Linux runs in a child process with settings that can only be given
// when a process starts (build-process.cjs says which and why); a small one runs here.
'use strict';
const { unsupportedNode } = require('./node-version.cjs');

async function main() {
  const tooOld = unsupportedNode(process.versions.node);
  if (tooOld) {
    console.error(tooOld);
    process.exitCode = 1;
    return;
  }
  const { buildProcess } = require('./build-process.cjs');
  const child = buildProcess(process.argv.slice(2), process.env, process.platform);
  if (child) {
    startChild(child);
    return;
  }
  const { compiledCliFor } = require('./compile-cli.cjs');
  const compiled = await compiledCliFor(process.argv[2]);
  if (compiled) {
    require(compiled);
  } else {
    const { register } = await import('tsx/esm/api');
    register();
    await import('./cli.ts');
  }
}

/** Runs the command in a child process with `settings`, passing signals on and taking its exit code. */
function startChild(settings) {
  // Loaded only here: with the network modules it loads, about 2 ms of every other command's start.
  const { spawn } = require('node:child_process');
  const { constants } = require('node:os');
  const started = spawn(process.execPath, [...settings.execArgv, ...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, ...settings.env },
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => started.kill(signal));
  started.once('error', (error) => {
    console.error(error);
    process.exitCode = 3;
  });
  started.once('exit', (code, signal) => {
    process.exitCode = code ?? 128 + (signal ? constants.signals[signal] : 0);
  });
}

main().catch((error) => {
  // As an uncaught error would end it: its report, and exit code 1.
  console.error(error);
  process.exitCode = 1;
});
