// Reads a few files of a served output as fast as it can, until told to stop (a line on stdin);
// then prints, as JSON, what it saw. Each round reads every file, and names what it read by a short
// hash of each file's bytes (`-` for a file that is not there), joined: the round's combination.
// Rounds alternate between two ways of reading:
//
//   moment    the output is opened once (a change of directory into it, which follows a link once),
//             and the files are read there: what the output was at that moment, as a copy made
//             with `rsync dist/ ...` or `tar -C dist` reads it;
//   requests  each file is opened by its whole path, as a server answers one request after another:
//             a link on the way is followed anew for each file.
//
// For each way it prints how many rounds saw each combination, and the changes of combination with
// the time each was first seen (milliseconds, performance.timeOrigin + performance.now()).
// Plain JavaScript, in a process of its own, so that it reads while the build keeps its own thread busy.
//
//   node test/helpers/site-poller.mjs <served folder or link> <file listing the relative paths>
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setImmediate } from 'node:timers';

const [served, listing] = process.argv.slice(2);
const folder = path.resolve(served);
const relatives = readFileSync(listing, 'utf8').split('\n').filter(Boolean);
let stop = false;
process.stdin.once('data', () => (stop = true));

const hashOf = (file) => {
  try {
    return createHash('sha1').update(readFileSync(file)).digest('hex').slice(0, 12);
  } catch (error) {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return '-';
    throw error;
  }
};
const ways = {
  moment: () => {
    try {
      process.chdir(folder);
    } catch {
      return 'missing';
    }
    return relatives.map((relative) => hashOf(relative)).join(' ');
  },
  requests: () => relatives.map((relative) => hashOf(path.join(folder, relative))).join(' '),
};
const seen = Object.fromEntries(Object.keys(ways).map((way) => [way, { counts: {}, changes: [], last: undefined }]));
let rounds = 0;
const now = () => performance.timeOrigin + performance.now();
const poll = () => {
  for (let i = 0; i < 100 && !stop; i++) {
    for (const [way, read] of Object.entries(ways)) {
      const combination = read();
      const record = seen[way];
      record.counts[combination] = (record.counts[combination] ?? 0) + 1;
      if (combination !== record.last) record.changes.push([now(), combination]);
      record.last = combination;
    }
    rounds++;
  }
  if (!stop) return setImmediate(poll);
  process.chdir('/');
  const report = Object.fromEntries(
    Object.entries(seen).map(([way, { counts, changes }]) => [way, { counts, changes }]),
  );
  process.stdout.write(`${JSON.stringify({ rounds, ...report })}\n`);
};
process.stdout.write('polling\n');
poll();
