// Polls paths under a served folder as a server would open them, as fast as it can, until told to
// stop (a line on stdin); then prints, as JSON, how many rounds it made, how many found the folder
// missing or replaced while they ran (the instant of a swap: between its two renames there is no
// folder), and every path found missing in a round that saw one and the same folder throughout.
// Plain JavaScript, in a process of its own, so that it polls while the build keeps its own thread busy.
//
//   node test/helpers/tree-poller.mjs <served folder> <file listing the relative paths to poll>
import { existsSync, readFileSync, statSync } from 'node:fs';
import { setImmediate } from 'node:timers';

const [folder, listing] = process.argv.slice(2);
const relatives = readFileSync(listing, 'utf8').split('\n').filter(Boolean);
let stop = false;
process.stdin.once('data', () => (stop = true));
let rounds = 0;
let swapping = 0;
const missing = new Map();
const inode = () => statSync(folder, { throwIfNoEntry: false })?.ino;
const poll = () => {
  for (let i = 0; i < 200 && !stop; i++) {
    rounds++;
    const before = inode();
    const gone = relatives.filter((relative) => !existsSync(`${folder}/${relative}`));
    if (before === undefined || inode() !== before) swapping++;
    else for (const relative of gone) missing.set(relative, (missing.get(relative) ?? 0) + 1);
  }
  if (stop) process.stdout.write(`${JSON.stringify({ rounds, swapping, missing: Object.fromEntries(missing) })}\n`);
  else setImmediate(poll);
};
process.stdout.write('polling\n');
poll();
