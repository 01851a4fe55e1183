/**
 * The fast path publishes what the plain path publishes. Random sequences of editors' changes are
 * applied to a small journal; after each one, a build with everything the fast path has (the build
 * cache, the previous dist/ reused, load threads) is compared, every file byte for byte, with a
 * cold build of the same content (no cache, no previous output, no threads): the reference of
 * STYLE.md ("the plain path is the reference the fast path is tested against").
 *
 * Invalid edits are made too: the build fails with exactly the problems a cold build reports,
 * dist/ stays as it was, and the next valid build is again equal to cold.
 *
 * The development server's build (live-build.ts) stays open through each sequence and is handed
 * the changed paths after each step, as its watcher would: what it serves is the cold build's
 * bytes, and a mistake gives it the cold build's problems.
 *
 * Two journals: a small one for many sequences, and one past the write stage's sizes for a few.
 *
 * Seeded and bounded, for CI. A failure prints fast-check's seed and path and the shrunk sequence
 * of edits; EQUIVALENCE_SEED and EQUIVALENCE_PATH replay it. More runs explore more:
 * EQUIVALENCE_RUNS=200 EQUIVALENCE_SEED=$RANDOM (minutes).
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, type BuildResult } from '../scripts/generator/build.ts';
import { openLiveBuild, type LiveBuild } from '../scripts/generator/live-build.ts';
import { RENDERERS } from '../scripts/generator/render/renderers.ts';
import { renderSitemap } from '../scripts/generator/render/sitemap.ts';
import type { Site } from '../scripts/generator/model/site.ts';
import { projectPaths, type ProjectPaths } from '../scripts/project.ts';
import { generateSyntheticJournal } from '../scripts/bench/synthetic-journal.ts';
import { outputDifferences, readTree } from './helpers/incremental.ts';
import {
  DEFECTS,
  applyEdit,
  brokenFiles,
  digestOf,
  journalFiles,
  readJournal,
  syncFiles,
  touchedFile,
  withOai,
  withScholarlyFields,
  withVolumeKeys,
  type Defect,
  type Edit,
  type JournalModel,
  type RecordStyle,
} from './helpers/journal-model.ts';

const SEED = Number(process.env['EQUIVALENCE_SEED'] ?? 20240229);
const RUNS = Number(process.env['EQUIVALENCE_RUNS'] ?? 12);
const REPLAY_PATH = process.env['EQUIVALENCE_PATH'];
/**
 * The larger journal: 200 manuscripts give 300 authors (two of the lists' chunks of 256 records,
 * render/api.ts) and folders of many unchanged pages (left in place while the output is updated, shared/folder-patch.ts).
 * 1,100 and more reach the lists' twins' second segment (engine/compress/segmented-twins.ts).
 */
const LARGE = Number(process.env['EQUIVALENCE_LARGE'] ?? 200);
const LARGE_RUNS = Number(process.env['EQUIVALENCE_LARGE_RUNS'] ?? 2);
/**
 * Every renderer, the sitemap split every 15 pages rather than every 50,000: its index and parts,
 * each reading the pages it lists alone, are edited, added to and shifted by the sequences too.
 */
const renderers = RENDERERS.map((renderer) =>
  renderer.render === renderSitemap ? { ...renderer, render: (site: Site) => renderSitemap(site, 15) } : renderer,
);

// ---------------------------------------------------------------------------------------------
// What editors write: text that is valid but hard (every script the journal prints, characters
// that mean something in YAML, JSON, HTML and XML, look-alikes that locales fold differently).

const WORDS = [
  'Salamandra',
  'salamandra',
  'Прилог',
  'кон',
  'Ohrid',
  'Galičica',
  '“Пакошево”',
  'a < b',
  '2 > 1',
  'R&D',
  '&amp;',
  '"quoted"',
  "O'Neill",
  '𝔘nicode',
  'Ægir',
  'İstanbul',
  'ıI',
  'straße',
  'e\u0301',
  '½',
  '—',
  '#1',
  'key: value',
  '- dash',
  'yes',
  'null',
  '1.10',
  '007',
  '2024-01-02',
  '*star',
  '&anchor',
  '!tag',
  '%',
  '@home',
  '`tick`',
  '{brace}',
  '[bracket]',
  '| pipe',
  'Ελλάδα',
  '東京',
  'مرحبا',
  'no\u00a0break\u00a0space',
];
const line = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 6 }).map((words) => words.join(' '));

const KEYWORDS = ['Salamandra salamandra', 'distribution', 'Macedonia', 'Галичица', 'pH', 'CO2', 'Ægir', 'İ', 'a&b'];
const keywordList = fc.uniqueArray(fc.constantFrom(...KEYWORDS), { minLength: 1, maxLength: 5 });

const ABSTRACT_PIECES = [
  'We report new localities of <em>Salamandra salamandra</em> (Linnaeus, 1758)',
  'at 12 °C',
  'H<sub>2</sub>O and CO<sub>2</sub>',
  'x<sup>2</sup>',
  '<strong>bold</strong>',
  '<br>',
  '<a href="https://example.org/a?b=1&amp;c=2">a link</a>',
  'line\u2028separated',
  '&amp; &lt; &gt; &quot;',
  '“Пакошево” – Ohrid',
  '𝔘nicode 𝔘nicode',
  'Ελλάδα',
  'e\u0301\u0301',
];
const abstract = fc
  .tuple(fc.array(fc.constantFrom(...ABSTRACT_PIECES), { minLength: 1, maxLength: 8 }), fc.integer({ min: 0, max: 30 }))
  .map(([pieces, repeat]) => {
    // Long ones cross the lengths at which pages cut an abstract short (render/abstract-text.ts).
    const text = pieces.join(' ');
    const body = repeat > 20 ? Array.from({ length: repeat - 18 }, () => text).join(' ') : text;
    return `<p>${body}</p>${repeat % 3 === 0 ? '<p>Second paragraph.</p>' : ''}`;
  });

const date = fc
  .tuple(fc.integer({ min: 1990, max: 2030 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }))
  .map(([y, m, d]) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`);

const key = fc
  .tuple(fc.constantFrom('ana', 'jane-doe', 'marko.nikolov', 'x_y', 'a1', 'Zoe'), fc.nat(99))
  .map(([stem, n]) => `${stem}-${n}`);
const at = fc.nat(1000);
const style = fc.constantFrom<RecordStyle>('yaml', 'yaml-wide', 'yml', 'json');
const collection = fc.constantFrom('authors' as const, 'volumes' as const, 'manuscripts' as const);

const edit: fc.Arbitrary<Edit> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('manuscript' as const),
      at,
      field: fc.constant('citation_title' as const),
      value: line,
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('manuscript' as const),
      at,
      field: fc.constant('abstract' as const),
      value: abstract,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('manuscript' as const),
      at,
      field: fc.constant('keywords' as const),
      value: keywordList,
      asString: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('manuscript' as const),
      at,
      field: fc.constant('citation_date' as const),
      value: date,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('manuscript' as const),
      at,
      field: fc.constant('udc' as const),
      value: fc.constantFrom(undefined, '', '582.594', '574.5(497.7)'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('manuscript' as const),
      at,
      field: fc.constant('citation_language' as const),
      value: fc.constantFrom(undefined, '', 'Macedonian', 'Türkçe'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('manuscript' as const),
      at,
      field: fc.constant('order' as const),
      value: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('manuscript' as const),
      at,
      field: fc.constant('section' as const),
      pick: at,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('manuscript' as const),
      at,
      field: fc.constant('authors' as const),
      picks: fc.array(at, { maxLength: 4 }),
      asPublished: fc.option(line, { nil: undefined }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('manuscript' as const),
      at,
      field: fc.constant('id' as const),
      value: fc.integer({ min: 1, max: 40 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('manuscript' as const),
      at,
      field: fc.constant('citation_volume' as const),
      pick: at,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('manuscript' as const),
      at,
      field: fc.constant('volume' as const),
      pick: at,
      form: fc.constantFrom('file' as const, 'label' as const, 'numeral' as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('manuscript' as const),
      at,
      field: fc.constant('document' as const),
      remote: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.oneof(
      fc.record({
        kind: fc.constant('manuscript' as const),
        at,
        field: fc.constant('doi' as const),
        value: fc.constantFrom(undefined, '10.1234/bbsrs.2023.17', '10.5555/a<b>&"c"', '10.123456789/x'),
      }),
      fc.record({
        kind: fc.constant('manuscript' as const),
        at,
        field: fc.constant('license' as const),
        value: fc.constantFrom(
          undefined,
          'https://creativecommons.org/licenses/by/4.0/',
          'https://example.org/l?a=1&b=<2>',
        ),
      }),
      fc.record({
        kind: fc.constant('manuscript' as const),
        at,
        field: fc.constant('pages' as const),
        first: fc.integer({ min: 0, max: 400 }),
        span: fc.integer({ min: 0, max: 40 }),
        asNumbers: fc.boolean(),
      }),
      fc.record({
        kind: fc.constant('manuscript' as const),
        at,
        field: fc.constant('pages' as const),
        first: fc.constant(undefined),
      }),
      fc.record({
        kind: fc.constant('author-orcid' as const),
        at,
        value: fc.constantFrom(undefined, '0000-0002-1825-0097', '0000-0002-9079-593X', '0000-0003-1234-5674'),
      }),
      fc.record({
        kind: fc.constant('modified' as const),
        collection: fc.constantFrom('authors' as const, 'volumes' as const, 'manuscripts' as const),
        at,
        value: fc.constantFrom(undefined, '2019-01-01', '2030-06-15', '2031-02-02'),
      }),
      fc.record({
        kind: fc.constant('journal-scholarly' as const),
        field: fc.constant('abbreviation' as const),
        value: fc.option(line, { nil: undefined }),
      }),
      fc.record({
        kind: fc.constant('journal-scholarly' as const),
        field: fc.constant('online_issn' as const),
        value: fc.constantFrom(undefined, '2545 - 4269', '1857 - 9870'),
      }),
      fc.record({
        kind: fc.constant('journal-scholarly' as const),
        field: fc.constant('license' as const),
        value: fc.constantFrom(undefined, 'https://creativecommons.org/licenses/by/4.0/'),
      }),
    ),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('add-manuscript' as const),
      name: key,
      id: fc.integer({ min: 1, max: 40 }),
      title: line,
      picks: fc.array(at, { maxLength: 3 }),
      style,
      sharePdf: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete-manuscript' as const), at, keepPdf: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rename-manuscript-file' as const), at, name: key }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('replace-manuscript-pdf' as const), at, title: line }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('rename-author' as const), at, key }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('author' as const),
      at,
      field: fc.constantFrom('name' as const, 'surname' as const, 'institution' as const),
      value: line,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('author-order' as const),
      at,
      value: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('add-author' as const),
      key,
      name: line,
      surname: line,
      institution: line,
      credit: at,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete-author' as const), at }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('volume' as const),
      at,
      change: fc.oneof(
        fc.record({ field: fc.constant('citation_journal_title' as const), wanted: fc.integer({ min: 1, max: 60 }) }),
        fc.record({ field: fc.constant('udc' as const), value: fc.constantFrom('57 59', '574.5 591.9', '58') }),
        fc.record({ field: fc.constant('last_page' as const), value: fc.integer({ min: 0, max: 500 }) }),
        fc.record({ field: fc.constant('full_date' as const), value: date }),
        fc.record({
          field: fc.constant('citation_language' as const),
          value: fc.constantFrom(undefined, 'English', 'Deutsch'),
        }),
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('add-volume' as const),
      id: fc.integer({ min: 1, max: 12 }),
      label: fc.integer({ min: 1, max: 60 }),
      date,
      move: at,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete-volume' as const), at }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('swap-volumes' as const),
      at,
      what: fc.constantFrom('labels' as const, 'files' as const),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('replace-volume-pdf' as const), at, title: line }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('journal-title' as const), value: line }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('journal-publisher' as const),
      value: fc.option(line, { nil: undefined }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('add-section' as const), value: line, move: at }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rename-section' as const), at, value: line }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reorder-sections' as const), seed: at }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('public-file' as const),
      // Not 404.html: the pages renderer writes it, and a copy in public/ is a conflict.
      file: fc.constantFrom('offline.html', 'robots-note.txt', 'docs/readme.txt', 'favicon.ico'),
      text: fc.option(line, { nil: null }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('restyle' as const), collection, at, style }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('restyle-all' as const), collection, style }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('touch' as const), collection, at }) },
);

/** How a step reaches the build: the fast path's options, and how the edited files are saved. */
interface How {
  /** `check` first: it writes the build cache the build then reads. */
  check: boolean;
  /** Load threads; undefined: the build's own choice (in-thread for a small journal). */
  threads: 0 | 2 | undefined;
  /** Edited files dated in the past, so the next build trusts their stamps; otherwise hashed. */
  aged: boolean;
  /** Saved beside and renamed into place (a new inode). */
  replace: boolean;
  /** dist/ deleted before the build (the cache stays), or the build cache deleted (dist/ stays). */
  remove: 'nothing' | 'output' | 'cache';
  /** The manuscripts' long fields set aside in a file, as a large journal's build does, rather than kept in memory. */
  setAside: boolean;
}
const how: fc.Arbitrary<How> = fc.record({
  check: fc.boolean(),
  threads: fc.constantFrom<How['threads']>(undefined, undefined, 0, 2),
  aged: fc.boolean(),
  replace: fc.boolean(),
  remove: fc.constantFrom<How['remove']>('nothing', 'nothing', 'nothing', 'nothing', 'output', 'cache'),
  setAside: fc.boolean(),
});

/** One or more edits saved before a build, or one mistake. */
type Step = { edits: Edit[]; how: How } | { defect: Defect; at: number; how: How };
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ edits: fc.array(edit, { minLength: 1, maxLength: 3 }), how }) },
  { weight: 1, arbitrary: fc.record({ defect: fc.constantFrom(...DEFECTS), at, how }) },
);

// ---------------------------------------------------------------------------------------------
// Running a sequence

interface ColdBuild {
  problems: BuildResult['problems'];
  /** The warnings about the content it printed. */
  warnings: BuildResult['problems'];
  tree: Map<string, Buffer>;
}
/** Cold builds by the digest of their content: shrinking replays many of the same states. */
const coldBuilds = new Map<string, ColdBuild>();
/** What the fast path did: the test is worth something only if it reused things. */
interface Usage {
  reused: number;
  parsedNothing: number;
}

let scratch: string;
let colds = 0;
/** Each save dates its files a second further back than the last: no two saves share a time. */
let clock = 0;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'journal-equivalence-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** A synthetic journal of that many manuscripts (three volumes), as the model of its files. */
async function syntheticModel(manuscripts: number, authors?: number): Promise<JournalModel> {
  const template = path.join(scratch, `template-${manuscripts}`);
  await generateSyntheticJournal(template, {
    manuscripts,
    ...(authors === undefined ? {} : { authors }),
    volumes: 3,
    seed: 1905,
  });
  return withOai(withVolumeKeys(withScholarlyFields(await readJournal(template))));
}

/** A cold build of the project's content (no cache, no previous output, no threads), by digest. */
async function coldBuild(root: string, files: Map<string, Uint8Array>): Promise<ColdBuild> {
  const digest = digestOf(files);
  const known = coldBuilds.get(digest);
  if (known) return known;
  const n = colds++;
  const paths = projectPaths(root, {
    out: path.join(scratch, `cold-${n}`),
    cache: path.join(scratch, `cold-cache-${n}`),
  });
  const result = await build(paths, 'build', { cache: false, threads: 0, setAsideLongFields: false, renderers });
  const cold = { problems: result.problems, warnings: result.contentWarnings ?? [], tree: await readTree(paths.out) };
  await rm(paths.out, { recursive: true, force: true });
  await rm(paths.cache, { recursive: true, force: true });
  coldBuilds.set(digest, cold);
  return cold;
}

async function fastBuild(paths: ProjectPaths, options: How): Promise<BuildResult> {
  if (options.remove === 'output') await rm(paths.out, { recursive: true, force: true });
  if (options.remove === 'cache') await rm(paths.cache, { recursive: true, force: true });
  const threads = options.threads === undefined ? {} : { threads: options.threads };
  if (options.check) {
    const checked = await build(paths, 'check', { ...threads, renderers });
    expect(checked.problems, 'check').toEqual([]);
  }
  return build(paths, 'build', { ...threads, setAsideLongFields: options.setAside, renderers });
}

/** The fast build equals the cold one, file for file; and it published the model's records. */
async function expectSameAsColdBuild(
  paths: ProjectPaths,
  model: JournalModel,
  files: Map<string, Uint8Array>,
  options: How,
  usage: Usage,
) {
  const result = await fastBuild(paths, options);
  expect(result.problems).toEqual([]);
  usage.reused += result.written?.reused ?? 0;
  if (result.parsed === 0) usage.parsedNothing++;
  const fast = await readTree(paths.out);
  const cold = await coldBuild(paths.root, files);
  expect(cold.problems, 'the cold build of a valid journal').toEqual([]);
  expect(outputDifferences(fast, cold.tree)).toEqual([]);
  const published = JSON.parse(fast.get('api/manuscripts/index.json')!.toString('utf8')) as { id: number }[];
  expect(published.map((m) => m.id).sort((a, b) => a - b)).toEqual(
    [...model.manuscripts.values()].map((m) => Number(m.data['id'])).sort((a, b) => a - b),
  );
}

/**
 * What the development server serves after it is handed the changed paths, as its watcher would:
 * every file of the cold build (the precompressed twins and the search index aside, which it does
 * not serve), the same bytes, and the same warnings; or, for a mistake, the problems the cold
 * build reports.
 */
async function expectLiveSameAsCold(live: LiveBuild, root: string, changed: string[], cold: ColdBuild) {
  await live.update(changed.map((file) => path.join(root, file)));
  const site = live.site;
  if (cold.problems.length > 0) {
    expect(site.ok, 'dev with a mistake').toBe(false);
    if (!site.ok) expect(site.problems.map(sameProblem), 'dev problems').toEqual(cold.problems.map(sameProblem));
    return;
  }
  if (!site.ok) throw new Error(`dev has problems a cold build has not: ${JSON.stringify(site.problems)}`);
  expect(site.warnings.map(sameProblem), 'dev warnings').toEqual(cold.warnings.map(sameProblem));
  const differences: string[] = [];
  for (const [file, built] of cold.tree) {
    // Nor does it make the search index (docs/search.md): only a build does.
    if (/\.(gz|br)$/.test(file) || file.startsWith('pagefind/')) continue;
    const media = site.files.mediaSource(file);
    const served = media ? await readFile(media) : site.files.bytes(file);
    if (!served || !Buffer.from(served).equals(built)) differences.push(file);
  }
  expect(differences, 'files dev serves unlike a cold build').toEqual([]);
}

/** A problem as compared across builds: a duplicate id is worded by what the cache knows of which file is new. */
const sameProblem = (p: BuildResult['problems'][number]) =>
  p.code === 'ref/duplicate-id' ? { ...p, message: '', expected: '' } : p;

function saveOptions(options: How) {
  clock++;
  return {
    replace: options.replace,
    ...(options.aged ? { mtime: new Date(Date.now() - 3600_000 - clock * 1000) } : {}),
  };
}

const FRESH: How = {
  check: false,
  threads: undefined,
  aged: false,
  replace: false,
  remove: 'nothing',
  setAside: false,
};

async function runSequence(initial: JournalModel, steps: Step[], usage: Usage) {
  const root = await mkdtemp(path.join(scratch, 'project-'));
  const paths = projectPaths(root);
  let live: LiveBuild;
  try {
    let model = initial;
    let onDisk = journalFiles(model);
    await syncFiles(root, new Map(), onDisk, { mtime: new Date(Date.now() - 7200_000) });
    await expectSameAsColdBuild(paths, model, onDisk, FRESH, usage);
    // The development server, open beside the builds through the whole sequence.
    live = await openLiveBuild(paths, { renderers });
    await expectLiveSameAsCold(live, root, [], await coldBuild(root, onDisk));
    let broken = false;
    for (const current of steps) {
      if ('defect' in current) {
        const before = await readTree(paths.out);
        const files = brokenFiles(model, current.defect, current.at);
        const changed = await syncFiles(root, onDisk, files, saveOptions(current.how));
        onDisk = files;
        broken = true;
        await expectLiveSameAsCold(live, root, changed, await coldBuild(root, files));
        const result = await build(paths, 'build', {
          ...(current.how.threads === undefined ? {} : { threads: current.how.threads }),
          setAsideLongFields: current.how.setAside,
          renderers,
        });
        expect(result.ok, `the build with ${current.defect} fails`).toBe(false);
        expect(result.problems.length).toBeGreaterThan(0);
        // The same problems, at the same places, as the plain path reports.
        expect(result.problems.map(sameProblem)).toEqual((await coldBuild(root, files)).problems.map(sameProblem));
        expect(outputDifferences(await readTree(paths.out), before), 'dist/ after a failed build').toEqual([]);
        expect((await readdir(root)).filter((name) => name.startsWith('.dist-'))).toEqual([]);
        continue;
      }
      const touched: string[] = [];
      for (const edit of current.edits) {
        model = applyEdit(model, edit);
        const file = edit.kind === 'touch' ? touchedFile(model, edit) : undefined;
        if (file) touched.push(file);
      }
      const files = journalFiles(model);
      const save = saveOptions(current.how);
      const changed = await syncFiles(root, onDisk, files, save);
      // Touched: the same bytes saved again, a new stamp (and with `replace`, a new inode).
      for (const file of touched.filter((f) => files.has(f))) {
        await syncFiles(root, new Map([[file, Buffer.from('x')]]), new Map([[file, files.get(file)!]]), save);
        changed.push(file);
      }
      onDisk = files;
      broken = false;
      await expectSameAsColdBuild(paths, model, files, current.how, usage);
      await expectLiveSameAsCold(live, root, changed, await coldBuild(root, files));
    }
    if (broken) {
      // The sequence ended on a mistake: fixed, the next build is again the cold one.
      const files = journalFiles(model);
      const changed = await syncFiles(root, onDisk, files, saveOptions(FRESH));
      await expectSameAsColdBuild(paths, model, files, FRESH, usage);
      await expectLiveSameAsCold(live, root, changed, await coldBuild(root, files));
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

const replay = { seed: SEED, ...(REPLAY_PATH ? { path: REPLAY_PATH } : {}) };

describe('an incremental build publishes what a cold build publishes', () => {
  it(`after each of random sequences of edits (seed ${SEED}, ${RUNS} runs)`, { timeout: 600_000 }, async () => {
    const initial = await syntheticModel(12, 8);
    const usage: Usage = { reused: 0, parsedNothing: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), (steps) => runSequence(initial, steps, usage)),
      { ...replay, numRuns: RUNS },
    );
    // The fast path was taken: outputs reused, and builds that parsed no file at all.
    expect(usage.reused).toBeGreaterThan(0);
    expect(usage.parsedNothing).toBeGreaterThan(0);
  });

  it(`in a journal of ${LARGE} manuscripts (seed ${SEED}, ${LARGE_RUNS} runs)`, { timeout: 600_000 }, async () => {
    const initial = await syntheticModel(LARGE);
    const usage: Usage = { reused: 0, parsedNothing: 0 };
    const aged: How = { ...FRESH, aged: true };
    // First, always: every manuscript file rewritten at once, more than the build cache lets wait
    // before it rewrites its index (build.ts); then edits and a mistake on top of the new index.
    const bulk: Step[] = [
      { edits: [{ kind: 'restyle-all', collection: 'manuscripts', style: 'yaml-wide' }], how: aged },
      {
        edits: [
          { kind: 'rename-author', at: 3, key: 'jane-doe-1' },
          { kind: 'manuscript', at: 5, field: 'citation_title', value: 'İstanbul 𝔘nicode' },
        ],
        how: { ...aged, check: true },
      },
      { defect: 'unknown-author', at: 7, how: aged },
      { edits: [{ kind: 'delete-manuscript', at: 9, keepPdf: false }], how: aged },
    ];
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 3 }), (steps) => runSequence(initial, steps, usage)),
      { ...replay, numRuns: LARGE_RUNS, examples: [[bulk]] },
    );
    expect(usage.reused).toBeGreaterThan(LARGE);
  });
});
