/**
 * `npm run crossref -- <volume> [--timestamp N] [--out FILE] [--content DIR]`: writes one volume's
 * Crossref deposit (deposit.ts) to `crossref/volume-<n>.xml`, outside the published output
 * (docs/crossref.md). The content is loaded and checked by the build itself, into a folder of its
 * own that is thrown away, so the deposit speaks of exactly what a build would publish. Every
 * value it needs and does not find is reported at its line, all in one run, before anything is
 * written; the file is written beside its target and renamed, never half-written.
 */
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { build } from '../generator/build.ts';
import { formatReport, type Problem } from '../generator/model/problems.ts';
import type { Site } from '../generator/model/site.ts';
import { volumeKeys } from '../generator/model/volume-keys.ts';
import { volumeNumber } from '../generator/render/page-paths.ts';
import { discoverJournal } from '../generator/stages/discover.ts';
import { parseFile } from '../generator/stages/parse.ts';
import { projectPaths, type ProjectPaths } from '../project.ts';
import { removeTree } from '../shared/remove-tree.ts';
import { Stopped } from '../shared/stopped.ts';
import { UsageError } from '../shared/usage-error.ts';
import { depositedManuscripts, depositProblems, renderDeposit, type DepositProblem } from './deposit.ts';

const USAGE =
  'npm run crossref -- <volume> [--timestamp YYYYMMDDhhmmss] [--out FILE] (the volume: its file name, label or numeral, e.g. volume-v, "Volume V" or 5)';

/**
 * Parses `args` (what follows `crossref`), writes the deposit, says where. `now` is the run's
 * time: Crossref's `<timestamp>` unless `--timestamp` gives one (the command line reads the clock).
 */
export async function runCrossref(args: readonly string[], now: Date, cwd: string): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      allowPositionals: true,
      options: { content: { type: 'string' }, out: { type: 'string' }, timestamp: { type: 'string' } },
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}: ${USAGE}`);
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1) throw new UsageError(`crossref needs one volume: ${USAGE}`);
  const timestamp = values.timestamp ?? timestampOf(now);
  if (!/^\d{1,19}$/.test(timestamp))
    throw new UsageError(`--timestamp is digits, e.g. 20240131120000 (the date and time as YYYYMMDDhhmmss)`);
  const paths = projectPaths(cwd, values.content === undefined ? {} : { content: values.content });
  const result = await writeDeposit(paths, positionals[0]!, timestamp, values.out && path.resolve(cwd, values.out));
  if (!result.ok) {
    console.error(formatReport(result.problems));
    console.error('No deposit file was written.');
    return 1;
  }
  const shown = path.relative(cwd, result.file) || result.file;
  console.log(
    `Wrote ${shown}: ${result.count} manuscript${result.count === 1 ? '' : 's'} of ${result.volume} with a DOI (timestamp ${timestamp}). Upload it to Crossref as docs/crossref.md says.`,
  );
  return 0;
}

/** The run's time in UTC as YYYYMMDDhhmmss: Crossref's usual `<timestamp>`, greater at each later run. */
export function timestampOf(now: Date): string {
  return now.toISOString().replace(/\D/g, '').slice(0, 14);
}

export type DepositResult =
  { ok: true; file: string; volume: string; count: number } | { ok: false; problems: Problem[] };

export async function writeDeposit(
  paths: ProjectPaths,
  volumeKey: string,
  timestamp: string,
  out?: string,
): Promise<DepositResult> {
  const loaded = await loadSite(paths);
  if (!loaded.ok) return loaded;
  const { site, journalFile } = loaded;
  const found = volumeKeys(site.volumes).find(volumeKey);
  if (found === undefined || 'ambiguous' in found) {
    const names = site.volumes.map((v) => v.citation_journal_title).join(', ');
    throw new Stopped(
      found === undefined
        ? `No volume is named "${volumeKey}": give a volume's file name, label or numeral (the volumes: ${names}).`
        : `"${volumeKey}" names more than one volume (${found.ambiguous.map((v) => v.origin.file).join(', ')}): give the volume's file name.`,
    );
  }
  const volume = found.volume;
  const count = depositedManuscripts(site, volume).length;
  if (count === 0)
    throw new Stopped(
      `${volume.citation_journal_title} has no manuscript with a doi: fill in each manuscript's doi field first (docs/crossref.md).`,
    );
  const problems = depositProblems({ site, volume, journalFile });
  if (problems.length) return { ok: false, problems: await locate(paths.root, problems) };
  const target = out ?? path.join(paths.root, 'crossref', `volume-${volumeNumber(volume)}.xml`);
  const fromOutput = path.relative(paths.out, target);
  if (!fromOutput.startsWith('..') && !path.isAbsolute(fromOutput))
    throw new Stopped(
      `The deposit file may not be written into ${path.relative(paths.root, paths.out) || paths.out}/, which is published: give --out a path outside it.`,
    );
  await mkdir(path.dirname(target), { recursive: true });
  const partial = `${target}.partial-${process.pid}`;
  try {
    await writeFile(partial, renderDeposit({ site, volume, journalFile, timestamp }));
    await rename(partial, target);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  return { ok: true, file: target, volume: volume.citation_journal_title, count };
}

/**
 * The journal as a build checks and resolves it. The build writes into a folder of its own under
 * the build cache's folder (on the content's disk, so the PDFs are linked, not copied), and a
 * renderer of its own takes the Site it is given; the folder is removed afterwards.
 */
async function loadSite(
  paths: ProjectPaths,
): Promise<{ ok: true; site: Site; journalFile: string } | { ok: false; problems: Problem[] }> {
  const parent = path.dirname(paths.cache);
  await mkdir(parent, { recursive: true });
  const temp = await mkdtemp(path.join(parent, 'crossref-'));
  try {
    let site: Site | undefined;
    const result = await build(
      projectPaths(paths.root, {
        content: paths.content,
        out: path.join(temp, 'out'),
        public: path.join(temp, 'no-public'),
        cache: path.join(temp, 'cache'),
      }),
      'build',
      {
        cache: false,
        linkMedia: true,
        warnExampleDomains: false,
        renderers: [
          {
            name: 'the Crossref deposit',
            render(given) {
              site = given;
              return [];
            },
          },
        ],
      },
    );
    for (const warning of result.warnings ?? []) console.warn(`Warning: ${warning}`);
    if (!result.ok || !site) return { ok: false, problems: result.problems };
    // The settings file as the build found it: journal.yaml, journal.yml or journal.json.
    const { journalFile } = await discoverJournal(paths.root, paths.content);
    return { ok: true, site, journalFile: journalFile?.file ?? 'content/journal.yaml' };
  } finally {
    await removeTree(temp);
  }
}

/** Each problem at its line: the file is read again and the field's position found in it. */
async function locate(root: string, problems: readonly DepositProblem[]): Promise<Problem[]> {
  const files = new Map<string, ReturnType<typeof parseFile>['parsed']>();
  const located: Problem[] = [];
  for (const p of problems) {
    if (!files.has(p.file)) {
      const bytes = await readFile(path.join(root, p.file)).catch(() => undefined);
      files.set(p.file, bytes && parseFile(p.file, bytes).parsed);
    }
    const parsed = files.get(p.file);
    const at = (p.absent ? parsed?.locateKey(p.path.slice(0, -2), String(p.path.at(-2))) : parsed?.locate(p.path)) ?? {
      line: 0,
      column: 0,
    };
    located.push({
      code: p.code,
      file: p.file,
      line: at.line,
      column: at.column,
      field: p.path.map((part, i) => (typeof part === 'number' ? `[${part}]` : i ? `.${part}` : part)).join(''),
      message: p.message,
      expected: p.expected,
    });
  }
  return located;
}
