/**
 * `npm run bench [-- --size 1000|10000|100000] [--shape plain|imported] [--dir DIR]`.
 *
 * Generates (or reuses) a deterministic synthetic journal of the chosen size and shape outside the
 * project (`plain`, the default, or `imported`: records as an import of an original deployment
 * writes them, synthetic-imported.ts), then runs, each as a child process of this one and measured by GNU time (wall, CPU, peak RSS):
 *
 *   floor           one thread: readFileSync + yaml.parse of every content file, JSON.stringify
 *                   of the three arrays to disk (scripts/bench/floor.ts)
 *   hugo-site       where `hugo` is installed: Hugo making the build's site, file for file, from the
 *                   same content files (scripts/bench/hugo-site.ts, written next to the journal)
 *   eleventy-site   Eleventy making the same site (scripts/bench/eleventy-site.ts)
 *   cold build      no dist/, no cache
 *   cold, linked    the same with --link-media, as the published workflows build (PDFs hard-linked)
 *   no-change       the same build again
 *   node+find       after one manuscript was edited: a bare `node` start and one `find -newer`
 *                   over content/, the least a check that finds the edit can do
 *   check (edit)    `check` after that edit
 *                   (these two are taken after each of `--repeat` edits, default 11, one after the
 *                   other, and their medians reported: one run of a tenth of a second says little
 *                   on a machine that is doing anything else)
 *   build (edit)    `build` after the last edit
 *   build (abstract) `build` after that manuscript's abstract is edited too
 *   build (institution) `build` after an author's institution is edited
 *   dev             `npm run dev` on the journal: its start, a save of the same bytes (no reload may
 *                   come), and saves of that manuscript timed to the reload event its open pages get
 *                   (scripts/bench/dev-reload.ts)
 *   search          the site search's index alone: Pagefind indexing every manuscript, its time and
 *                   the index's size (scripts/bench/search-index.ts)
 *   oai             the OAI-PMH repository, on a copy of the journal with `oai` set (<DIR>-oai): its
 *                   files rendered in memory, what the build wrote under dist/oai/, a full
 *                   harvest through the preview (scripts/bench/oai-harvest.ts), and the CPU each
 *                   kind of request costs the Cloudflare worker (scripts/bench/oai-cpu.ts)
 *
 * and prints one table, the files and bytes each maker of the site wrote (a peer whose file count
 * is more than SAME_SITE_TOLERANCE off the cold build's is reported, not timed), then each step
 * against its target. Before the first step, the command line is compiled (if scripts/ changed since
 * it was, the commands would run their sources) and `build` and `check` run once on a journal of 10
 * manuscripts (DIR-warm-up), as a journal's editor has run them before. `--steps floor,hugo-site,eleventy-site,cold,linked,no-change,edit,dev,search,oai`
 * (the default: all) runs some of them: `edit` is node+find, check (edit) and the three builds after
 * an edit, and needs a build before it (cold); `dev` starts from the build cache a build left. `--repeat N` sets how many edits node+find and check (edit) are
 * measured after. The edited manuscript and author are restored afterwards, so the journal on disk can be
 * reused by the next run. Wall times are this process's, to the millisecond; CPU and peak RSS are
 * GNU time's. Timings are reported, never asserted: targets live here, not in tests.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { writeEleventySite } from './eleventy-site.ts';
import { writeHugoSite } from './hugo-site.ts';
import { compareSites } from './output-census.ts';
import { generateSyntheticJournal, SYNTHETIC_SHAPES, type SyntheticShape } from './synthetic-journal.ts';
import { removeTree } from '../shared/remove-tree.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const TSX = fileURLToPath(import.meta.resolve('tsx'));
const GNU_TIME = '/usr/bin/time';
const ALL_STEPS = 'floor,hugo-site,eleventy-site,cold,linked,no-change,edit,dev,search,oai';
/** The peers: the same site made by other generators, timed against the cold build. */
const PEERS = ['hugo-site', 'eleventy-site'] as const;
/** A peer is timed as the maker of the same site only within this share of the build's file count. */
const SAME_SITE_TOLERANCE = 0.03;
/** Our cold build's CPU against each peer's, at most (the project's targets), by journal size. */
const PEER_TARGETS: Record<(typeof PEERS)[number], Record<number, number>> = {
  'hugo-site': { 1000: 0.7, 10000: 0.4 },
  'eleventy-site': { 1000: 0.6, 10000: 0.55 },
};

const USAGE = `npm run bench -- [--size N] [--shape plain|imported] [--dir DIR] [--steps LIST] [--repeat N]

  --size N       manuscripts in the synthetic journal (default 10000; 1000 and 100000 are the sizes measured)
  --shape S      plain (default) or imported: records as an import of the original deployment writes them
  --dir DIR      where the journal is written and reused (default: the system's temporary folder)
  --steps LIST   some of ${ALL_STEPS} (default: all);
                 edit = node+find, check and the three builds after an edit, after a build
  --repeat N     how many edits node+find and check are measured after (default 11)

The journal, its outputs and bench-<size>.json are kept next to each other in DIR; docs/performance.md
says what each step runs and how to read the numbers.`;

interface Measured {
  step: string;
  wall: number;
  cpu: number;
  /** Peak resident set of the process tree, in bytes (undefined without GNU time). */
  rss?: number;
  output: string;
  stderr: string;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      size: { type: 'string', default: '10000' },
      shape: { type: 'string', default: 'plain' },
      dir: { type: 'string' },
      steps: { type: 'string' },
      repeat: { type: 'string', default: '11' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const size = Number(values.size);
  const repeat = Number(values.repeat);
  if (!Number.isInteger(repeat) || repeat < 1)
    throw new Error(`--repeat must be a positive integer, not ${values.repeat}`);
  // `hugo`, the step's name when Hugo did only the bare JSON job, still names Hugo's step.
  const steps = new Set((values.steps ?? ALL_STEPS).split(',').map((name) => (name === 'hugo' ? 'hugo-site' : name)));
  if (!Number.isInteger(size) || size < 1) throw new Error(`--size must be a positive integer, not ${values.size}`);
  const shape = values.shape as SyntheticShape;
  if (!SYNTHETIC_SHAPES.includes(shape))
    throw new Error(`--shape must be one of ${SYNTHETIC_SHAPES.join(', ')}, not ${values.shape}`);
  const folder = `journal-bench-${size}${shape === 'plain' ? '' : `-${shape}`}`;
  const root = path.resolve(values.dir ?? path.join(os.tmpdir(), folder));
  const hasTime = existsSync(GNU_TIME);
  console.log(
    `Benchmark: ${size.toLocaleString('en-US')} manuscripts, ${shape} shape, in ${root} (${os.cpus().length} cores, load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')})`,
  );
  if (!hasTime) console.log('GNU time is not installed (apt-get install time): CPU and peak RSS are not measured.');

  const started = performance.now();
  const journal = await generateSyntheticJournal(root, { manuscripts: size, shape }, (done, total) =>
    process.stdout.write(`\rgenerating ${done}/${total}`),
  );
  console.log(
    `${journal.generated ? '\rGenerated' : 'Reusing'} ${journal.files.toLocaleString('en-US')} files (${journal.authors} authors, ${journal.volumes} volumes, ${journal.manuscripts} manuscripts, ${journal.pdfs} PDFs)${journal.generated ? ` in ${((performance.now() - started) / 1000).toFixed(1)} s` : ''}.`,
  );

  const cli = (...args: string[]) => [path.join(REPO, 'scripts/cli.cjs'), ...args, '--progress'];
  const results: Measured[] = [];
  const run = async (step: string, args: string[], command = process.execPath, { quiet = false } = {}) => {
    // Each step starts with nothing of the step before still being written back to the disk:
    // a cold build leaves about 1.5 GB to write at 100,000 manuscripts, which the next step
    // would otherwise pay for in part.
    if (process.platform !== 'win32') execFileSync('sync');
    const measured = await measure(step, command, args, root, hasTime);
    if (quiet) return measured;
    results.push(measured);
    console.log(
      `  ${step.padEnd(19)} ${measured.wall.toFixed(3)} s wall, ${measured.cpu.toFixed(2)} s CPU, ${measured.rss === undefined ? '?' : mib(measured.rss)} peak RSS`,
    );
    const stages = measured.stderr.split('\n').filter((l) => /^\w+ +[\d,/]+ .* s$/.test(l.trim()));
    if (stages.length) console.log(stages.map((l) => `      ${l.trim()}`).join('\n'));
    return measured;
  };

  const floorOut = path.join(root, 'floor-output');
  // What a step must not find (the previous output, the cache) is set aside by renaming, and
  // deleted only once every step has run. On ext4 without a journal (this benchmark's machine),
  // files created shortly after a mass deletion cost ten times the system time: the inode
  // allocator steps over every inode deleted in the last seconds to minutes. A cold build right
  // after deleting 300,000 files measured that deletion, not the build (docs/performance.md).
  const setAside = path.join(root, '.bench-set-aside');
  let asides = 0;
  const putAside = async (...names: string[]) => {
    await mkdir(setAside, { recursive: true });
    for (const name of names) {
      await rename(path.join(root, name), path.join(setAside, `${process.pid}-${asides++}`)).catch(
        (error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOENT') throw error;
        },
      );
    }
  };
  await putAside(path.basename(floorOut));
  // The command line as `npm install` or a build leaves it compiled (compile-cli.cjs): the compile
  // is no step's. The commands measured run once on a small journal of their own first.
  execFileSync(process.execPath, [path.join(REPO, 'scripts/compile-cli.cjs')], { stdio: 'inherit' });
  const warmUp = await generateSyntheticJournal(`${root}-warm-up`, { manuscripts: 10 });
  for (const command of ['build', 'check'])
    execFileSync(process.execPath, cli(command), { cwd: warmUp.root, stdio: 'ignore' });
  if (steps.has('floor'))
    await run('floor', ['--import', TSX, path.join(REPO, 'scripts/bench/floor.ts'), journal.content, floorOut]);
  // Each peer's site (and Hugo's stubs) is written anew, its output where the build writes its own.
  const hugo = steps.has('hugo-site') ? onPath('hugo') : undefined;
  if (steps.has('hugo-site') && !hugo)
    console.log('  hugo is not installed (Debian: apt-get install -y hugo): the same site by Hugo is not measured.');
  for (const peer of PEERS.filter((name) => steps.has(name) && (name !== 'hugo-site' || hugo))) {
    const [site, out] = [path.join(root, peer), path.join(root, `${peer}-output`)];
    await putAside(peer, `${peer}-output`);
    const args =
      peer === 'hugo-site'
        ? await writeHugoSite(site, journal.content, out, hugo!)
        : await writeEleventySite(site, journal.content, out);
    await run(peer, args, '/bin/sh');
  }
  if (steps.has('cold')) {
    await putAside('dist', '.cache');
    await run('cold build', cli('build'));
  }
  // The same cold build as the published workflows run it (CI, a fresh checkout): PDFs hard-linked.
  if (steps.has('linked')) {
    await putAside('dist', '.cache');
    await run('cold, linked', cli('build', '--link-media'));
  }
  if (steps.has('no-change')) await run('no-change', cli('build'));
  const edited = path.join(journal.content, journal.sample.manuscript);
  const editedAuthor = path.join(journal.content, journal.sample.author);
  const dev: string[] = [];
  if (steps.has('dev')) {
    const measured = await run('dev', ['--import', TSX, path.join(REPO, 'scripts/bench/dev-reload.ts'), root, edited]);
    dev.push(...measured.output.split('\n'));
    console.log(dev.map((line) => `      ${line}`).join('\n'));
  }
  if (steps.has('search')) {
    const measured = await run('search', ['--import', TSX, path.join(REPO, 'scripts/bench/search-index.ts'), root]);
    console.log(`      ${measured.output.trim()}`);
  }
  if (steps.has('oai')) {
    const measured = await run('oai', ['--import', TSX, path.join(REPO, 'scripts/bench/oai-harvest.ts'), root]);
    console.log(
      measured.output
        .split('\n')
        .map((line) => `      ${line}`)
        .join('\n'),
    );
  }
  if (!steps.has('edit')) return report();

  const original = await readFile(edited, 'utf8');
  const originalAuthor = await readFile(editedAuthor, 'utf8');
  try {
    // Each edit gives the title another text, so that each check finds one file changed.
    const floorRuns: Measured[] = [];
    const checkRuns: Measured[] = [];
    for (let edit = 1; edit <= repeat; edit++) {
      await writeFile(
        edited,
        original.replace(
          /^citation_title: (.*)$/m,
          (_, title: string) => `citation_title: ${title.replace(/^"|"$/g, '')} (revision ${edit})`,
        ),
      );
      // The file edited is the reference: every other content file is older, so `find` prints nothing.
      floorRuns.push(
        await run(
          'node+find',
          ['-c', `"$0" -e 0 && find "$1" -newer "$2" >/dev/null`, process.execPath, journal.content, edited],
          '/bin/sh',
          { quiet: true },
        ),
      );
      checkRuns.push(await run('check (edit)', cli('check'), process.execPath, { quiet: true }));
    }
    for (const runs of [floorRuns, checkRuns]) {
      const summary = median(runs);
      results.push(summary);
      const walls = runs.map((r) => r.wall).sort((a, b) => a - b);
      console.log(
        `  ${summary.step.padEnd(19)} ${summary.wall.toFixed(3)} s wall (median of ${runs.length}, ${walls[0]!.toFixed(3)} to ${walls.at(-1)!.toFixed(3)}), ${summary.cpu.toFixed(2)} s CPU, ${summary.rss === undefined ? '?' : mib(summary.rss)} peak RSS`,
      );
    }
    await run('build (edit)', cli('build'));
    // An abstract's text and an institution change what most outputs of a record hold: its
    // landing page, citation files and search entry; the institution, the order of the authors list.
    await writeFile(
      edited,
      (await readFile(edited, 'utf8')).replace(/^(abstract: [|>]-?\n +<p>)/m, '$1Revised abstract. '),
    );
    await run('build (abstract)', cli('build'));
    await writeFile(
      editedAuthor,
      originalAuthor.replace(/^institution: (.*)$/m, (_, value: string) => {
        const text = value.startsWith('"') ? (JSON.parse(value) as string) : value;
        return `institution: ${JSON.stringify(`${text} (revised)`)}`;
      }),
    );
    await run('build (institution)', cli('build'));
  } finally {
    await writeFile(edited, original);
    await writeFile(editedAuthor, originalAuthor);
  }
  return report();

  async function report() {
    const dist = path.join(root, 'dist');
    // The lists' bytes, where a step built the site (`--steps oai` or `dev` alone builds none).
    const sizes: Record<string, number> = {};
    if (existsSync(path.join(dist, 'api')))
      for (const list of ['authors', 'volumes', 'manuscripts']) {
        for (const suffix of ['', '.gz', '.br']) {
          sizes[suffix || 'json'] =
            (sizes[suffix || 'json'] ?? 0) + (await stat(path.join(dist, 'api', list, `index.json${suffix}`))).size;
        }
      }
    let floorBytes = 0;
    if (steps.has('floor'))
      for (const list of ['authors', 'volumes', 'manuscripts'])
        floorBytes += (await stat(path.join(floorOut, `${list}.json`))).size;
    await rm(floorOut, { recursive: true, force: true });
    // The peers' output is compared with the build's; a peer that made another site is not timed.
    const sameSite = await compareSites(
      path.join(root, 'dist'),
      PEERS.filter((peer) => results.some((r) => r.step === peer)).map((peer) => [
        peer,
        path.join(root, `${peer}-output`),
      ]),
      SAME_SITE_TOLERANCE,
    );
    results.splice(0, results.length, ...results.filter((r) => !sameSite.refused.includes(r.step)));
    await putAside(...PEERS.flatMap((peer) => [peer, `${peer}-output`]));
    // With what earlier runs that stopped halfway left there.
    await removeTree(setAside);

    const records = journal.authors + journal.volumes + journal.manuscripts;
    const floor = results.find((r) => r.step === 'floor');
    const cold = results.find((r) => r.step === 'cold build');
    console.log('');
    const table = [
      ['step', 'records', 'files', 'wall s', 'CPU s', 'peak RSS', 'output (identity / gz / br)', 'vs floor', 'vs cold'],
      ...results.map((r) => [
        r.step,
        records.toLocaleString('en-US'),
        journal.files.toLocaleString('en-US'),
        r.wall.toFixed(3),
        r.cpu.toFixed(2),
        r.rss === undefined ? '?' : mib(r.rss),
        r.step === 'floor'
          ? `${mb(floorBytes)} / - / -`
          : r.step.startsWith('check') || ['node+find', ...PEERS, 'dev', 'search', 'oai'].includes(r.step)
            ? '-'
            : sizes['json'] === undefined
              ? '-'
              : `${mb(sizes['json'])} / ${mb(sizes['.gz']!)} / ${mb(sizes['.br']!)}`,
        floor ? `${(r.wall / floor.wall).toFixed(2)}x` : '',
        !cold || ['floor', ...PEERS, 'node+find', 'dev', 'search', 'oai'].includes(r.step) || r.step.startsWith('cold')
          ? ''
          : `${(r.wall / cold.wall).toFixed(2)}x`,
      ]),
    ];
    const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
    for (const [i, row] of table.entries()) {
      console.log(`| ${row.map((cell, c) => cell.padEnd(widths[c]!)).join(' | ')} |`);
      if (i === 0) console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
    }
    const step = (name: string) => results.find((r) => r.step === name);
    const against = (name: string, base: string, target: string) => {
      const [r, b] = [step(name), step(base)];
      if (r && b) console.log(`${name} / ${base}: ${(r.wall / b.wall).toFixed(2)}x (target: ${target})`);
    };
    console.log('');
    for (const peer of PEERS) {
      const [r, target] = [step(peer), PEER_TARGETS[peer][size]];
      if (cold && r)
        console.log(
          `cold build CPU / ${peer} CPU: ${(cold.cpu / r.cpu).toFixed(2)}x (${target ? `target: at most ${target}x at ${size.toLocaleString('en-US')} manuscripts` : `no target at this size`})`,
        );
    }
    against('check (edit)', 'node+find', 'at most 1.5x');
    against('build (edit)', 'cold build', 'at most 0.2x at 100,000 manuscripts');
    if (cold?.rss !== undefined)
      console.log(`cold build peak RSS: ${mib(cold.rss)} (target: under 1 GiB at 100,000 manuscripts)`);
    const reload = dev.find((line) => line.startsWith('save → reload'));
    if (reload) console.log(`dev ${reload} (target: under 1 s at 100,000 manuscripts; no reload for the same bytes)`);
    await mkdir(root, { recursive: true });
    await writeFile(
      path.join(root, `bench-${size}.json`),
      JSON.stringify(
        {
          size,
          shape,
          records,
          files: journal.files,
          loadavg: os.loadavg(),
          results: results.map(({ stderr, ...r }) => r),
          sizes,
          floorBytes,
          sameSite: sameSite.sites,
          dev,
        },
        null,
        2,
      ),
    );
  }
}

/** The program's path where it is on PATH. */
function onPath(program: string): string | undefined {
  for (const dir of (process.env['PATH'] ?? '').split(path.delimiter)) {
    const file = path.join(dir, program);
    if (dir && existsSync(file)) return file;
  }
  return undefined;
}

function measure(step: string, program: string, args: string[], cwd: string, hasTime: boolean): Promise<Measured> {
  const started = performance.now();
  const [command, commandArgs] = hasTime ? [GNU_TIME, ['-f', '@@time %e %U %S %M', program, ...args]] : [program, args];
  return new Promise((resolve, reject) => {
    execFile(command, commandArgs, { cwd, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const wall = (performance.now() - started) / 1000;
      if (error) {
        reject(new Error(`${step} failed:\n${stdout}\n${stderr}`));
        return;
      }
      const line = /@@time (\S+) (\S+) (\S+) (\d+)/.exec(stderr);
      resolve({
        step,
        // Timed here, to the millisecond: GNU time gives hundredths of a second, a seventh of
        // node+find. Its own start (about a millisecond) is in every step alike.
        wall,
        cpu: line ? Number(line[2]) + Number(line[3]) : 0,
        // GNU time reports the largest resident set of the tree's processes, in KiB.
        ...(line ? { rss: Number(line[4]) * 1024 } : {}),
        output: stdout.trim(),
        stderr,
      });
    });
  });
}

/** One step's runs as one: the median wall and CPU time, the largest peak. */
function median(runs: readonly Measured[]): Measured {
  const middle = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const half = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[half]! : (sorted[half - 1]! + sorted[half]!) / 2;
  };
  const peaks = runs.flatMap((r) => (r.rss === undefined ? [] : [r.rss]));
  return {
    step: runs[0]!.step,
    wall: middle(runs.map((r) => r.wall)),
    cpu: middle(runs.map((r) => r.cpu)),
    ...(peaks.length ? { rss: Math.max(...peaks) } : {}),
    output: runs.at(-1)!.output,
    stderr: runs.at(-1)!.stderr,
  };
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
