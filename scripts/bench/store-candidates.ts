/**
 * Measures the candidates for one store of what the build keeps between runs (docs/store.md), each
 * step in a child process of its own, on the entries of a synthetic journal made in memory
 * (store-dataset.ts):
 *
 *   write    every entry, as a cold build would
 *   stamps   open, and read every file's stamp and hash (a check that finds nothing changed)
 *   one      open, and read one manuscript's stamp and record (a check after an edit)
 *   update   replace that manuscript's entry
 *   long     read 2,400 manuscripts' long fields (pages rendered again after an author's edit)
 *   open     open, and read one stamp
 *
 * and, for the stores with a plain Node module, a fresh `node` that loads it, opens the store, reads
 * one stamp, then every stamp (entry by entry, and from the columns), against a bare `node`: what a
 * store adds to the least a `check` costs. CPU time is reported besides wall time: on a shared
 * machine it moves far less.
 *
 *   tsx scripts/bench/store-candidates.ts [--size 100000] [--dir FOLDER] [--modules FOLDER]
 *       [--candidates today,lmdb,sqlite] [--repeat 11] [--fresh-only]
 *
 * --fresh-only measures only the fresh processes, on the stores the last run wrote.
 * --modules names a folder whose node_modules has better-sqlite3 (not a dependency: it compiles at
 * install, docs/store.md); a candidate whose package is missing is skipped.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import v8 from 'node:v8';
import {
  CANDIDATES,
  LISTING,
  loadCandidate,
  missingPackage,
  writeTodayListing,
  type CandidateName,
} from './store-backends.ts';
import { makeEntries, pathOf, pickManuscripts, readEntries, saveEntries, type StoreEntry } from './store-dataset.ts';

const STEPS = ['write', 'stamps', 'one', 'update', 'long', 'open'] as const;
type Step = (typeof STEPS)[number];
const REREAD = 2_400;

interface Measured {
  ms: number;
  cpuMs: number;
  peakMiB: number;
  /** The process's peak before the step (the dataset alone, for `write`). */
  beforeMiB: number;
  result: unknown;
}

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '100000' },
    dir: { type: 'string' },
    modules: { type: 'string' },
    candidates: { type: 'string', default: CANDIDATES.join(',') },
    repeat: { type: 'string', default: '11' },
    'fresh-only': { type: 'boolean', default: false },
    child: { type: 'string' },
    step: { type: 'string' },
  },
});
const size = Number(values.size);
const work = path.resolve(values.dir ?? path.join(os.tmpdir(), `store-candidates-${size}`));
const datasetFile = path.join(work, 'entries.bin');
const probeFile = path.join(work, 'probe.bin');

interface ProbeData {
  one: StoreEntry;
  many: string[];
  hashes: [string, string][];
}

if (values.child) runChild(values.child as CandidateName, values.step as Step);
else main();

function runChild(name: CandidateName, step: Step): void {
  const candidate = loadCandidate(name, values.modules);
  const dir = path.join(work, name);
  const probe = v8.deserialize(readFileSync(probeFile)) as ProbeData;
  const hashes = new Map(probe.hashes);
  const entries = step === 'write' || (step === 'update' && name === 'today') ? readEntries(datasetFile) : [];
  if (step !== 'write') candidate.before?.(dir);
  const beforeMiB = peakMiB();
  const file = pathOf(probe.one);
  const cpu = process.cpuUsage();
  const start = performance.now();
  const result = {
    write: () => candidate.write(dir, entries),
    stamps: () => candidate.readStamps(dir),
    one: () => Boolean(candidate.readOne(dir, file)),
    update: () => candidate.updateOne(dir, probe.one, () => entries),
    long: () => candidate.readLong(dir, probe.many, path.join(work, 'content'), hashes),
    open: () => Boolean(candidate.open(dir, file)),
  }[step]();
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  const measured: Measured = {
    ms,
    cpuMs: (used.user + used.system) / 1000,
    peakMiB: peakMiB(),
    beforeMiB,
    result: result ?? null,
  };
  process.stdout.write(`${JSON.stringify(measured)}\n`);
}

/**
 * The process's own peak resident memory. Not resourceUsage().maxRSS: Linux keeps that across the
 * exec from the parent's fork, so a child of a large parent starts at the parent's size.
 */
function peakMiB(): number {
  const peak = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return peak ? Math.round(Number(peak[1]) / 1024) : Math.round(process.resourceUsage().maxRSS / 1024);
}

function main(): void {
  mkdirSync(work, { recursive: true });
  prepare();
  const names = values.candidates.split(',') as CandidateName[];
  const report: Record<string, unknown> = {
    size,
    load: os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' '),
  };
  console.log(`${size} manuscripts in ${work}; load ${String(report.load)}`);
  for (const name of names) {
    const missing = missingPackage(name, values.modules);
    if (missing) {
      console.log(`${name.padEnd(7)} skipped: ${missing} is not installed (give its folder with --modules)`);
      continue;
    }
    if (values['fresh-only']) {
      if (name !== 'today') freshOpen(name, Number(values.repeat));
      continue;
    }
    rmSync(path.join(work, name), { recursive: true, force: true });
    if (name === 'today') writeTodayListing(path.join(work, name), readEntries(datasetFile));
    const steps: Record<string, unknown> = {};
    for (const step of STEPS) {
      const measured = child(name, step);
      steps[step] = measured;
      console.log(
        `${name.padEnd(7)} ${step.padEnd(7)} ${measured.ms.toFixed(1).padStart(9)} ms  cpu ${measured.cpuMs.toFixed(0).padStart(6)} ms  peak ${String(measured.peakMiB).padStart(5)} MiB (before ${measured.beforeMiB})`,
      );
      if (step === 'write') {
        const disk = diskUse(path.join(work, name));
        steps.disk = disk;
        console.log(
          `${name.padEnd(7)} disk    ${(disk.bytes / 2 ** 20).toFixed(1)} MiB (${(disk.allocated / 2 ** 20).toFixed(1)} MiB allocated)`,
        );
      }
    }
    if (name !== 'today') steps.fresh = freshOpen(name, Number(values.repeat));
    report[name] = steps;
  }
  writeFileSync(path.join(work, `store-candidates-${size}.json`), `${JSON.stringify(report, null, 2)}\n`);
}

/** The entries, and the probe every candidate reads with, made once per size and folder. */
function prepare(): void {
  if (existsSync(datasetFile) && existsSync(probeFile)) return;
  const start = performance.now();
  const entries = makeEntries(size);
  const many = pickManuscripts(entries, REREAD);
  const one = pickManuscripts(entries, 1)[0]!;
  // Today a build reads the long fields again from the files: the ones read are written for it.
  const folder = path.join(work, 'content', 'manuscripts');
  mkdirSync(folder, { recursive: true });
  for (const entry of many) writeFileSync(path.join(folder, entry.name), entry.text!);
  const probe: ProbeData = {
    one: {
      ...one,
      stamp: [one.stamp[0] + 1, one.stamp[1] + 1000, one.stamp[2]],
    },
    many: many.map(pathOf),
    hashes: many.map((entry) => [pathOf(entry), entry.hash]),
  };
  writeFileSync(probeFile, v8.serialize(probe));
  for (const entry of entries) delete entry.text;
  saveEntries(datasetFile, entries);
  console.log(`made ${entries.length} entries in ${((performance.now() - start) / 1000).toFixed(1)} s`);
}

function child(name: CandidateName, step: Step): Measured {
  const args = [
    '--import',
    'tsx',
    process.argv[1]!,
    '--size',
    String(size),
    '--dir',
    work,
    '--child',
    name,
    '--step',
    step,
  ];
  if (values.modules) args.push('--modules', values.modules);
  const run = spawnSync(process.execPath, args, {
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  if (run.status !== 0) throw new Error(`${name} ${step} failed:\n${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as Measured;
}

function diskUse(dir: string): { bytes: number; allocated: number } {
  let bytes = 0;
  let allocated = 0;
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const stat = statSync(path.join(dir, name));
    // The listing beside today's index is the bench's: a check has it from its scan.
    if (!stat.isFile() || name === LISTING) continue;
    bytes += stat.size;
    allocated += stat.blocks * 512;
  }
  return { bytes, allocated };
}

/**
 * A fresh `node` that loads the store's module, opens the store, reads one stamp, then every stamp, against a bare
 * `node`, alternating, `repeat` times each. CPU (user + system, the whole process) moves far less
 * than wall time on a shared machine; the parts are timed in the process.
 */
function freshOpen(name: Exclude<CandidateName, 'today'>, repeat: number) {
  const probe = v8.deserialize(readFileSync(probeFile)) as ProbeData;
  const file = JSON.stringify(pathOf(probe.one));
  const modules = JSON.stringify(path.join(values.modules ?? process.cwd(), 'package.json'));
  const dir = path.join(work, name);
  const [load, openStore, read, readAll, readColumns] =
    name === 'lmdb'
      ? [
          `const { open } = req('lmdb');`,
          `const root = open({ path: ${JSON.stringify(path.join(dir, 'store.lmdb'))}, compression: false });`,
          `const stamps = root.openDB({ name: 'stamps', encoding: 'binary' }); const found = stamps.getBinary(${file});`,
          `let count = 0; for (const { key, value } of stamps.getRange()) count += key.length > 0 && value.readDoubleLE(0) >= 0 ? 1 : 0;`,
          `const columns = root.openDB({ name: 'columns', encoding: 'binary' }); let columnCount = 0;
           for (const c of ['authors', 'volumes', 'manuscripts', 'media']) { const value = columns.getBinary('stamps:' + c); const n = value.readUInt32LE(0);
             const stamps = new Float64Array(value.buffer.slice(value.byteOffset + 4, value.byteOffset + 4 + n * 24)); const texts = value.toString('utf8', 4 + n * 24);
             columnCount += stamps.length / 3 + (texts.length > 0 ? 0 : 1); } root.close();`,
        ]
      : [
          `const Database = req('better-sqlite3');`,
          `const db = new Database(${JSON.stringify(path.join(dir, 'store.sqlite'))}); db.pragma('journal_mode = WAL');`,
          `const found = db.prepare('SELECT size FROM stamps WHERE path = ?').get(${file});`,
          `let count = 0; for (const row of db.prepare('SELECT path, size, mtime, ino, hash FROM stamps').raw().iterate()) count += row[0].length > 0 && row[1] >= 0 ? 1 : 0;`,
          `const get = db.prepare('SELECT value FROM columns WHERE name = ?'); let columnCount = 0;
           for (const c of ['authors', 'volumes', 'manuscripts', 'media']) { const value = get.get('stamps:' + c).value; const n = value.readUInt32LE(0);
             const stamps = new Float64Array(value.buffer.slice(value.byteOffset + 4, value.byteOffset + 4 + n * 24)); const texts = value.toString('utf8', 4 + n * 24);
             columnCount += stamps.length / 3 + (texts.length > 0 ? 0 : 1); } db.close();`,
        ];
  const cpu = `const cpu = () => { const used = process.cpuUsage(); return (used.user + used.system) / 1000; };`;
  const script = `${cpu} const req = require('node:module').createRequire(${modules});
    const marks = [[cpu(), performance.now()]];
    ${load} marks.push([cpu(), performance.now()]);
    ${openStore} marks.push([cpu(), performance.now()]);
    ${read} marks.push([cpu(), performance.now()]);
    ${readAll} marks.push([cpu(), performance.now()]);
    ${readColumns} marks.push([cpu(), performance.now()]);
    if (!found || count === 0 || count !== columnCount) process.exit(2);
    process.stdout.write(JSON.stringify({ marks, cpu: cpu() }));`;
  const columns: Record<string, number[]> = {
    node: [],
    withStore: [],
    load: [],
    open: [],
    read: [],
    readAll: [],
    columns: [],
  };
  for (let i = 0; i < repeat; i++) {
    columns.node!.push(
      (
        JSON.parse(timedRun(['-e', `${cpu} process.stdout.write(JSON.stringify({ cpu: cpu() }))`]).stdout) as {
          cpu: number;
        }
      ).cpu,
    );
    const run = JSON.parse(timedRun(['-e', script]).stdout) as {
      marks: [number, number][];
      cpu: number;
    };
    columns.withStore!.push(run.cpu);
    ['load', 'open', 'read', 'readAll', 'columns'].forEach((part, k) =>
      columns[part]!.push(run.marks[k + 1]![0] - run.marks[k]![0]),
    );
  }
  const summary = Object.fromEntries(Object.entries(columns).map(([part, cpuMs]) => [part, spread(cpuMs)]));
  const text = (part: string) =>
    `${summary[part]!.median.toFixed(1)} (${summary[part]!.low.toFixed(1)}-${summary[part]!.high.toFixed(1)})`;
  console.log(
    `${name.padEnd(7)} fresh   CPU ms, medians of ${repeat}: node ${text('node')}, node + ${name} ${text('withStore')}; in it: load the module ${text('load')}, open ${text('open')}, read one stamp ${text('read')}, then every stamp ${text('readAll')}, or every stamp from the columns ${text('columns')}`,
  );
  return summary;
}

function timedRun(args: string[]): { ms: number; stdout: string } {
  const start = performance.now();
  const run = spawnSync(process.execPath, args, { encoding: 'utf8' });
  const ms = performance.now() - start;
  if (run.status !== 0) throw new Error(`node ${args.join(' ')} failed:\n${run.stderr}`);
  return { ms, stdout: run.stdout };
}

function spread(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    median: sorted[Math.floor(sorted.length / 2)]!,
    low: sorted[0]!,
    high: sorted.at(-1)!,
  };
}
