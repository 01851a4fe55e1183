/**
 * What a reader of dist/ can see while the site is rebuilt, and after a build killed with `kill -9`
 * at any moment. A process of its own (test/helpers/site-poller.mjs) reads the manuscripts' list,
 * a landing page that the rebuild changes, one it adds and one it removes, as fast as it can, while
 * the content is switched between two versions and built again and again, the command line each
 * time, some builds killed at a random moment and followed by the next command (`check`).
 *
 * With `build --atomic`, dist is a link switched to each whole new output: every set of files read
 * at one moment (the output opened once, as a copy is made) is the old site or the new one. Without
 * it, the update in place lets a reader find some new files beside old ones, until the update, or
 * the next command after a kill, ends: that window is measured and printed, not asserted.
 */
import { spawn } from 'node:child_process';
import { watch } from 'node:fs';
import { createHash } from 'node:crypto';
import { cp, lstat, readdir, readFile, readlink, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { build } from '../scripts/generator/build.ts';
import { projectPaths } from '../scripts/project.ts';
import { createWorkspace, REPO_ROOT, type Workspace } from './helpers/workspace.ts';

const POLLER = path.join(REPO_ROOT, 'test/helpers/site-poller.mjs');
const HELD = path.join(REPO_ROOT, 'test/helpers/held-swap.ts');
const TSX = import.meta.resolve('tsx');
const CLI = path.join(REPO_ROOT, 'scripts/cli.cjs');
/** Builds that run to their end, then builds killed at a random moment, for each way of building. */
const REBUILDS = 6;
const KILLS = 16;
/** Then builds killed at each step of the update of the build's folder and of the link's switch, this many times each. */
const HELD_KILLS = 1;
/** The list, a page the edit changes, the page of a manuscript added, the page of one removed. */
const POLLED = ['api/manuscripts/index.json', 'manuscripts/3.html', 'manuscripts/40.html', 'manuscripts/12.html'];

let ws: Workspace | undefined;
afterEach(async () => {
  await ws?.dispose();
  ws = undefined;
});

const now = () => performance.timeOrigin + performance.now();
const hash = (bytes: Buffer) => createHash('sha1').update(bytes).digest('hex').slice(0, 12);

/** Every file under `folder` (relative, sorted) with a hash of its bytes. */
async function tree(folder: string): Promise<string> {
  const names = await readdir(folder, { recursive: true, withFileTypes: true });
  const files: string[] = [];
  for (const entry of names) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    files.push(`${path.relative(folder, file)} ${hash(await readFile(file))}`);
  }
  return files.sort().join('\n');
}

/** The combination the poller names a site by: each polled file's hash, or `-` when absent. */
async function combinationOf(folder: string): Promise<string> {
  const parts: string[] = [];
  for (const relative of POLLED) parts.push(await readFile(path.join(folder, relative)).then(hash, () => '-'));
  return parts.join(' ');
}

interface Seen {
  counts: Record<string, number>;
  changes: [number, string][];
}
interface PollerReport {
  rounds: number;
  moment: Seen;
  requests: Seen;
}

async function startPoller(root: string, served: string): Promise<() => Promise<PollerReport>> {
  const listing = path.join(root, 'polled.txt');
  await writeFile(listing, POLLED.join('\n'));
  const child = spawn(process.execPath, [POLLER, served, listing], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  return async () => {
    const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.stdin.end('stop\n');
    await ended;
    return JSON.parse(out.split('\n')[1]!) as PollerReport;
  };
}

/**
 * When a build is killed: `after` milliseconds after its start, or after its staging folder appears
 * (the moment it begins to write: `.dist-staging-<pid>`, or `.build-staging-<pid>` in `.dist-versions`).
 */
type KillAt = { after: number; from: 'start' | 'staging' };

/** Runs the command line in `root`; killed with SIGKILL at `kill`. Returns its exit code, its length, and when it began to write. */
async function cli(
  root: string,
  args: string[],
  kill?: KillAt,
): Promise<{ code: number | null; ms: number; stderr: string; staging?: number }> {
  const started = now();
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let timer: NodeJS.Timeout | undefined;
  let staging: number | undefined;
  const killLater = () => (timer = setTimeout(() => child.kill('SIGKILL'), kill!.after));
  if (kill?.from === 'start') killLater();
  const onEntry = (_: string, name: string | null) => {
    if (staging !== undefined || !name || !/staging-\d+$/.test(name)) return;
    staging = now() - started;
    if (kill?.from === 'staging') killLater();
  };
  const watchers = [root, path.join(root, '.dist-versions')].flatMap((folder) => {
    try {
      return [watch(folder, onEntry)];
    } catch {
      return []; // no such folder (yet)
    }
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', (exit) => resolve(exit)));
  clearTimeout(timer);
  for (const watcher of watchers) watcher.close();
  return { code, ms: now() - started, stderr, ...(staging === undefined ? {} : { staging }) };
}

/** Runs a build in a child (test/helpers/held-swap.ts) until it reports the step, then kills it with SIGKILL; `never`: to its end. */
async function killHeld(root: string, step: string): Promise<void> {
  const child = spawn(process.execPath, ['--import', TSX, HELD, 'build', root, step], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('held ')) resolve();
    });
    child.once('exit', () =>
      step === 'never' && out.includes('done')
        ? resolve()
        : reject(new Error(`the build ended before its step ${step}: ${out}\n${err}`)),
    );
  });
  child.kill('SIGKILL');
  await ended;
}

/**
 * A workspace whose content/ is version A, with version B beside it (one manuscript's title
 * edited, one added with its PDF, one removed with its PDF), and the complete output of each.
 */
async function twoVersions() {
  ws = await createWorkspace();
  const { root, paths } = ws;
  const other = path.join(root, 'content-other');
  await cp(paths.content, other, { recursive: true });
  const orchids = await readFile(path.join(other, 'manuscripts/orchids.yaml'), 'utf8');
  await writeFile(
    path.join(other, 'manuscripts/orchids.yaml'),
    orchids.replace('Orchids of Galičica', 'Orchids of Mount Galičica'),
  );
  await writeFile(
    path.join(other, 'manuscripts/mosses.yaml'),
    orchids.replace('id: 3', 'id: 40').replace(/orchids/g, 'mosses'),
  );
  await cp(path.join(other, 'media/pdfs/orchids.pdf'), path.join(other, 'media/pdfs/mosses.pdf'));
  await rm(path.join(other, 'manuscripts/beetles.json'));
  await rm(path.join(other, 'media/pdfs/beetles.pdf'));
  const expected: { tree: string; combination: string }[] = [];
  for (const [content, out] of [
    ['content', 'expected-a'],
    ['content-other', 'expected-b'],
  ] as const) {
    const expectedPaths = projectPaths(root, { content, out, cache: `.cache/${out}` });
    expect((await build(expectedPaths, 'build', { warnExampleDomains: false })).ok).toBe(true);
    expected.push({ tree: await tree(expectedPaths.out), combination: await combinationOf(expectedPaths.out) });
    await rm(expectedPaths.out, { recursive: true });
  }
  // Each polled file differs between the two versions, or is there in one only.
  const [a, b] = expected.map(({ combination }) => combination.split(' '));
  expect(a!.every((part, k) => part !== b![k])).toBe(true);
  /** Puts the other version of the content in place. */
  const flip = async () => {
    const aside = path.join(root, 'content-aside');
    await rename(paths.content, aside);
    await rename(other, paths.content);
    await rename(aside, other);
  };
  return { root, out: paths.out, expected, flip };
}

/** The windows in which the reader saw a combination that is neither site: when each began, and its length (ms). */
function mixedWindows(changes: [number, string][], sites: readonly string[]): { at: number; ms: number }[] {
  const windows: { at: number; ms: number }[] = [];
  let since: number | undefined;
  for (const [at, combination] of changes) {
    const whole = sites.includes(combination);
    if (!whole && since === undefined) since = at;
    if (whole && since !== undefined) {
      windows.push({ at: since, ms: at - since });
      since = undefined;
    }
  }
  return windows;
}

const summary = (windows: { ms: number }[]) => {
  const sorted = windows.map(({ ms }) => ms).sort((x, y) => x - y);
  const at = (q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : 0);
  return `${windows.length} windows, median ${at(0.5).toFixed(1)} ms, max ${at(1).toFixed(1)} ms`;
};

/**
 * Builds A, then alternates the versions: REBUILDS builds to their end, then KILLS builds killed
 * at a random moment of a build's length, each followed by `check`. After each kill the output is
 * checked whole against both versions; the reader runs throughout. Returns what it saw.
 */
async function rebuildAndKill(atomic: boolean) {
  const { root, out, expected, flip } = await twoVersions();
  const args = atomic ? ['build', '--atomic'] : ['build'];
  const first = await cli(root, args);
  expect(first.code, first.stderr).toBe(0);
  const stopPoller = await startPoller(root, out);
  const lengths: number[] = [];
  const writing: number[] = [];
  for (let n = 0; n < REBUILDS; n++) {
    await flip();
    const run = await cli(root, args);
    expect(run.code, run.stderr).toBe(0);
    lengths.push(run.ms);
    // From the moment it began to write to its end: the part of a build that changes anything.
    if (run.staging !== undefined) writing.push(run.ms - run.staging);
  }
  const median = (values: number[]) => values.sort((x, y) => x - y)[Math.floor(values.length / 2)]!;
  const length = median(lengths);
  const written = median(writing);
  const kills: { kill: string; found: string; leftovers: string[] }[] = [];
  const steps = atomic ? ['ready', 'set-aside', 'published', 'made', 'switched'] : ['ready', 'set-aside', 'published'];
  const held = steps.flatMap((step) => Array.from({ length: HELD_KILLS }, () => step));
  const killsFrom = now();
  for (let n = 0; n < KILLS + held.length; n++) {
    await flip();
    // The held builds run from the sources, not the compiled command line: a build of other code
    // reuses nothing. One built to its end first, so that the held ones update the output in place.
    if (n === KILLS) await killHeld(root, 'never');
    if (n >= KILLS) {
      const step = held[n - KILLS]!;
      await killHeld(root, step);
      // What the killed build left is served a while, as it would be until someone runs a command.
      await new Promise((resolve) => setTimeout(resolve, 200));
      await settle(`at step ${step}`);
      continue;
    }
    // Half anywhere in a build's length, half in the part that writes; a little past either too
    // (a build may run longer than the ones measured).
    const kill: KillAt =
      n % 2 === 0
        ? { after: Math.round(Math.random() * length * 1.1), from: 'start' }
        : { after: Math.round(Math.random() * written * 1.1), from: 'staging' };
    await cli(root, args, kill);
    await settle(describeKill(kill));
  }
  const report = await stopPoller();
  return { report, sites: expected.map(({ combination }) => combination), length, written, kills, killsFrom };

  /** The next command after a kill, and the output then: one of the two versions, whole, nothing left beside it. */
  async function settle(kill: string) {
    const leftovers = (await readdir(root)).filter((name) => /^\.dist-(?!versions$)/.test(name));
    const next = await cli(root, ['check']);
    expect(next.code, next.stderr).toBe(0);
    const now = await tree(out);
    const found = expected.findIndex((site) => site.tree === now);
    kills.push({ kill, found: found < 0 ? 'neither' : 'AB'[found]!, leftovers });
    expect(found, `killed ${kill}, the output is neither version`).toBeGreaterThanOrEqual(0);
    // Nothing of the killed build is left beside the output.
    expect((await readdir(root)).filter((name) => /^\.dist-(?!versions$)/.test(name))).toEqual([]);
    if (atomic) {
      expect((await lstat(out)).isSymbolicLink()).toBe(true);
      const versions = (await readdir(path.join(root, '.dist-versions'))).sort();
      expect(versions.filter((name) => name !== 'build' && !/^\d+$/.test(name))).toEqual([]);
      expect(versions.filter((name) => /^\d+$/.test(name)).length).toBeLessThanOrEqual(2);
      expect(versions).toContain(path.basename(await readlink(out)));
    }
  }
}

const describeKill = (kill: KillAt) =>
  `${kill.after} ms after its ${kill.from === 'start' ? 'start' : 'staging folder'}`;

/** One line per kill: when, what the output was after the next command, what the build had left. */
const killLines = (kills: { kill: string; found: string; leftovers: string[] }[]) =>
  kills
    .map((k) => `\n  ${k.kill} → ${k.found}${k.leftovers.length ? ` (left ${k.leftovers.join(', ')})` : ''}`)
    .join('');

describe('a reader of dist/ during rebuilds and killed builds', () => {
  it(`with --atomic sees the old site or the new one, whole, at every moment (${REBUILDS} rebuilds, ${KILLS} kills)`, async () => {
    const { report, sites, length, written, kills } = await rebuildAndKill(true);
    const seen = Object.keys(report.moment.counts);
    const mixed = seen.filter((combination) => !sites.includes(combination));
    console.log(
      `--atomic: ${report.rounds} rounds of reading, a build ${length.toFixed(0)} ms (writing ${written.toFixed(0)}); ` +
        `combinations seen at one moment: ${seen.map((c) => `${sites.indexOf(c) < 0 ? c : 'AB'[sites.indexOf(c)]} ×${report.moment.counts[c]}`).join(', ')}; ` +
        `kills, and the output after the next command:${killLines(kills)}`,
    );
    expect(mixed).toEqual([]);
    expect(report.moment.counts['missing']).toBeUndefined();
    // Both versions were seen, many times each: the reader read through the switches.
    for (const site of sites) expect(report.moment.counts[site]).toBeGreaterThan(10);
    // A request reads one file: each is the old one or the new one, whole, never missing when both have it.
    const versions = POLLED.map((_, k) => new Set(sites.map((site) => site.split(' ')[k])));
    for (const combination of Object.keys(report.requests.counts))
      combination.split(' ').forEach((part, k) => expect(versions[k]!.has(part)).toBe(true));
    const requestsMixed = mixedWindows(report.requests.changes, sites);
    console.log(`--atomic, one request per file (the link followed for each): ${summary(requestsMixed)}`);
  }, 900_000);

  it(`in place (the default): the mixed window is measured (${REBUILDS} rebuilds, ${KILLS} kills)`, async () => {
    const { report, sites, length, written, kills, killsFrom } = await rebuildAndKill(false);
    const windows = mixedWindows(report.moment.changes, sites);
    const mixedRounds = Object.entries(report.moment.counts)
      .filter(([combination]) => !sites.includes(combination))
      .reduce((sum, [, count]) => sum + count, 0);
    console.log(
      `in place: ${report.rounds} rounds of reading, ${mixedRounds} saw neither site whole; a build ${length.toFixed(0)} ms (writing ${written.toFixed(0)}); ` +
        `during the builds that ran to their end: ${summary(windows.filter(({ at }) => at < killsFrom))}; ` +
        `from the kills to the end of the next command: ${summary(windows.filter(({ at }) => at >= killsFrom))}; ` +
        `kills, and the output after the next command:${killLines(kills)}`,
    );
    expect(report.rounds).toBeGreaterThan(100);
  }, 900_000);
});
