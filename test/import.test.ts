/**
 * Import a dump into content files, build them, and get the dump back exactly.
 */
import { cp, mkdtemp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { build } from '../scripts/generator/build.ts';
import { toJson } from '../scripts/generator/render/json-text.ts';
import { contentJsonSchemas } from '../scripts/generator/model/schema.ts';
import type { Dump } from '../scripts/import/dump.ts';
import { exportJournal } from '../scripts/import/export.ts';
import { importJournal, type ImportOptions } from '../scripts/import/import.ts';
import { keyMaker, slug } from '../scripts/import/keys.ts';
import { planOrder } from '../scripts/import/order.ts';
import { formatImportSummary } from '../scripts/import/summary.ts';
import { projectPaths, type ProjectPaths } from '../scripts/project.ts';
import { generateDump } from './fixtures/import/generate-dump.ts';
import { runCli, VALID_JOURNAL } from './helpers/workspace.ts';

const roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.splice(0).map((root) => rm(root, { recursive: true, force: true })));
});

async function project(): Promise<ProjectPaths> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'journal-import-'));
  roots.push(root);
  return projectPaths(root);
}

async function writeDump(paths: ProjectPaths, dump: unknown, name = 'dump.json'): Promise<string> {
  const file = path.join(paths.root, name);
  await writeFile(file, typeof dump === 'string' ? dump : toJson(dump));
  return file;
}

async function importDump(dump: unknown, options: Partial<ImportOptions> = {}) {
  const paths = await project();
  const file = await writeDump(paths, dump);
  const result = await importJournal(paths, { source: file, ...options });
  return { paths, file, result };
}

async function builtLists(paths: ProjectPaths): Promise<Record<keyof Dump, string>> {
  const result = await build(paths, 'build');
  expect(result.problems).toEqual([]);
  const read = (list: string) => readFile(path.join(paths.out, 'api', list, 'index.json'), 'utf8');
  return { authors: await read('authors'), volumes: await read('volumes'), manuscripts: await read('manuscripts') };
}

async function contentFiles(paths: ProjectPaths, folder: string): Promise<Record<string, string>> {
  const names = (await readdir(path.join(paths.content, folder))).sort();
  const files: Record<string, string> = {};
  for (const name of names) files[name] = await readFile(path.join(paths.content, folder, name), 'utf8');
  return files;
}

/** Every author at an institution of their own, the list in code-unit order of institution. */
function withDistinctInstitutions(dump: Dump): Dump {
  dump.authors.forEach((a, i) => (a.institution = `Institute ${String.fromCharCode(65 + i)}, Skopje`));
  return dump;
}

const SIZES = [
  { name: 'small', seed: 1, authors: 8, manuscripts: 12, collisions: 1 },
  { name: 'medium', seed: 2, authors: 120, manuscripts: 300, collisions: 3 },
  {
    name: 'large',
    seed: 3,
    authors: 600,
    manuscripts: 1500,
    collisions: 5,
    volumes: [5, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12],
  },
];

/**
 * The other meaning of citation_volume: the volume's number (Volume III has 3), as the seed
 * describes the field, with the list still in the original's key order (V, I, II, III, IV). The
 * ids are the labels' numerals, and an `order` field keeps the list's order.
 */
describe('round trip when citation_volume is the volume number', () => {
  const SIZES_BY_NUMBER = [
    { name: 'small', seed: 21, authors: 8, manuscripts: 12, collisions: 1 },
    { name: 'medium', seed: 22, authors: 120, manuscripts: 300, collisions: 3, volumes: [5, 1, 2, 3, 4, 6, 7] },
  ];
  for (const size of SIZES_BY_NUMBER) {
    it(`${size.name}: ids inferred from the labels, the lists byte for byte, and export gives the dump back`, async () => {
      const dump = generateDump({ ...size, citationVolume: 'number' });
      expect(dump.manuscripts.some((m) => m.citation_volume === 5)).toBe(true);
      const { paths, file, result } = await importDump(dump);
      if (!result.ok) throw new Error(JSON.stringify(result.problems.slice(0, 5)));
      expect(result.report.inferences.volumeIds.rule).toBe('numerals');
      expect(result.report.inferences.volumeIds.ids.slice(0, 2)).toEqual([
        { label: 'Volume V', id: 5 },
        { label: 'Volume I', id: 1 },
      ]);
      // Volume V, first in the list, is the only one out of the order of ids.
      expect(result.report.inferences.order.volumes.count).toBe(1);
      const volumes = await contentFiles(paths, 'volumes');
      expect(volumes['volume-v.yaml']).toMatch(/^order: 1$/m);
      expect(volumes['volume-i.yaml']).not.toMatch(/^order:/m);
      expect(formatImportSummary(result.report)).toContain('Volume ids: rule "numerals"');

      const built = await builtLists(paths);
      for (const list of ['authors', 'volumes', 'manuscripts'] as const) expect(built[list]).toBe(toJson(dump[list]));
      const exported = path.join(paths.root, 'exported.json');
      expect((await exportJournal(paths, exported)).ok).toBe(true);
      expect(await readFile(exported)).toEqual(await readFile(file));
    }, 240_000);
  }

  it('--volume-ids may name the ids in any order: every volume once, each id once', async () => {
    const dump = generateDump({ seed: 23, authors: 6, manuscripts: 20, citationVolume: 'number' });
    const { paths, result } = await importDump(dump, { volumeIds: 'V=5,I=1,II=2,III=3,IV=4' });
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(result.report.inferences.volumeIds.rule).toBe('explicit');
    const built = await builtLists(paths);
    for (const list of ['authors', 'volumes', 'manuscripts'] as const) expect(built[list]).toBe(toJson(dump[list]));
  });
});

describe('round trip on generated dumps', () => {
  for (const size of SIZES) {
    it(`${size.name}: ${size.authors} authors, ${size.manuscripts} manuscripts: the build writes the dump's arrays byte for byte, and export gives the dump back`, async () => {
      const dump = generateDump(size);
      const { paths, file, result } = await importDump(dump);
      if (!result.ok) throw new Error(JSON.stringify(result.problems.slice(0, 5)));

      const built = await builtLists(paths);
      for (const list of ['authors', 'volumes', 'manuscripts'] as const) {
        expect(JSON.parse(built[list])).toEqual(dump[list]);
        expect(built[list]).toBe(toJson(dump[list]));
      }
      const exported = path.join(paths.root, 'exported.json');
      const exportResult = await exportJournal(paths, exported);
      expect(exportResult.ok).toBe(true);
      expect(await readFile(exported)).toEqual(await readFile(file));

      // The dump has the original's hard parts, and the import says how it handled each.
      expect(dump.volumes.slice(0, 5).map((v) => v.citation_journal_title)).toEqual([
        'Volume V',
        'Volume I',
        'Volume II',
        'Volume III',
        'Volume IV',
      ]);
      expect(result.report.inferences.volumeIds.rule).toBe('position');
      expect(result.report.inferences.authorStrings.ambiguous.length).toBeGreaterThan(0);
      expect(result.report.sourceBytesIdentical).toBe(true);
      const kept = result.report.inferences.kept.map((k) => k.label);
      expect(kept).toEqual(
        expect.arrayContaining(['abstracts with markup', 'records with characters outside the BMP']),
      );
    }, 240_000); // three builds of the large dump on a busy two-core machine: a limit, never a target
  }

  it('keeps U+2028, non-BMP characters, combining marks, RTL text and empty optional fields exactly', async () => {
    const dump = generateDump({ seed: 9, authors: 4, manuscripts: 3 });
    const m = dump.manuscripts[0]!;
    Object.assign(m, {
      udc: '',
      citation_language: '',
      citation_issn: '',
      abstract: '<p>A\u2028B\u2029C 𝔘 e\u0301 שלום <em>Rana</em></p>\n\n',
      citation_title: 'Title with 🦎 and ‏עברית‏',
    });
    const { paths, result } = await importDump(dump);
    expect(result.ok).toBe(true);
    const built = await builtLists(paths);
    expect(built.manuscripts).toBe(toJson(dump.manuscripts));
    expect(built.manuscripts).toContain('A\\u2028B\\u2029C 𝔘 e\u0301 שלום');
    expect(JSON.parse(built.manuscripts)[0]).toMatchObject({ udc: '', citation_language: '', citation_issn: '' });
  });

  it('the fixture journal: build, export, import into an empty project, export again: the same bytes', async () => {
    const source = await project();
    await cp(VALID_JOURNAL, source.content, { recursive: true });
    const first = path.join(source.root, 'first.json');
    expect((await exportJournal(source, first)).ok).toBe(true);

    const target = await project();
    const result = await importJournal(target, {
      source: first,
      title: 'Bulletin of the Test Society',
      baseUrl: 'https://journal.example.org',
    });
    expect(result.ok).toBe(true);
    const second = path.join(target.root, 'second.json');
    expect((await exportJournal(target, second)).ok).toBe(true);
    expect(await readFile(second, 'utf8')).toBe(await readFile(first, 'utf8'));
    expect(await readFile(path.join(target.content, 'journal.yaml'), 'utf8')).toContain(
      'title: Bulletin of the Test Society\nbase_url: https://journal.example.org\nmedia_url: https://media.example.org\ncitation_issn: 1857 - 9639\n',
    );
  });
});

describe('what the content files hold', () => {
  it('an author string several records share, or none has, is kept as published, with the reason beside it', async () => {
    const dump = generateDump({ seed: 4, authors: 6, manuscripts: 4, collisions: 1, unmatchedAuthor: true });
    const shared = `${dump.authors.find((a, i) => dump.authors.some((b, j) => j !== i && a.name === b.name && a.surname === b.surname))!.name}`;
    dump.manuscripts[1]!.authors = [
      dump.manuscripts[1]!.authors[0]!,
      ...dump.authors
        .filter((a) => a.name === shared)
        .slice(0, 1)
        .map((a) => `${a.name} ${a.surname}`),
    ];
    const { paths, result } = await importDump(dump);
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    const manuscripts = Object.values(await contentFiles(paths, 'manuscripts')).join('\n');
    expect(manuscripts).toContain('- as_published: Nobody Known # no author record has this name');
    expect(manuscripts).toMatch(/- as_published: .+ # several authors have this name: [a-z0-9-]+, [a-z0-9-]+/);
    const summary = formatImportSummary(result.report);
    expect(summary).toContain('kept as published (as_published) because no author record has the name:');
    expect(summary).toContain('"Nobody Known" at manuscripts[');
    expect(summary).toContain('because several author records share the name:');
  });

  it('writes order only where the source leaves the default order, on the shortest prefix', async () => {
    const dump = withDistinctInstitutions(generateDump({ seed: 5, authors: 6, manuscripts: 6 }));
    // Move the last author (default order: institution, then key) to the front.
    dump.authors.unshift(dump.authors.pop()!);
    const { paths, result } = await importDump(dump);
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    const authors = Object.values(await contentFiles(paths, 'authors'));
    expect(authors.filter((text) => /^order: /m.test(text))).toHaveLength(1);
    expect(result.report.inferences.order.authors.count).toBe(1);
    expect(formatImportSummary(result.report)).toContain('authors: order 1-1 written on the first 1 of 6');
  });

  it('writes no order at all when the source is in the default order', async () => {
    const dump = withDistinctInstitutions(generateDump({ seed: 6, authors: 5, manuscripts: 5 }));
    dump.manuscripts.sort((a, b) => a.citation_volume - b.citation_volume || a.id - b.id);
    const { paths, result } = await importDump(dump);
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    const all = [
      ...Object.values(await contentFiles(paths, 'authors')),
      ...Object.values(await contentFiles(paths, 'manuscripts')),
    ];
    expect(all.some((text) => /^order: /m.test(text))).toBe(false);
    expect(formatImportSummary(result.report)).toContain(
      'authors: the source order is the default order (institution, then key); no order field written',
    );
  });

  it('file names: transliterated, ASCII, unique in source order', () => {
    expect(
      ['Ана Петровска', 'Ќерка Јовановиќ', 'Ǧorǧević Đorđe', "𝔄da O'Brien", 'Ἀλέξανδρος Papadopoulou', 'مريم'].map(
        (t) => slug(t, 'author'),
      ),
    ).toEqual([
      'ana-petrovska',
      'kjerka-jovanovikj',
      'gorgevic-djordje',
      'ada-o-brien',
      'alexandros-papadopoulou',
      'author',
    ]);
    const key = keyMaker();
    expect(['a', 'a', 'a-2', 'a'].map(key)).toEqual(['a', 'a-2', 'a-2-2', 'a-3']);
  });

  it('planOrder: the longest tail already in default order is left alone', () => {
    const byValue = (a: number, b: number) => a - b;
    expect(planOrder([1, 2, 3], byValue)).toEqual({ count: 0 });
    expect(planOrder([3, 1, 2], byValue)).toEqual({ count: 1, firstDifference: 1 });
    expect(planOrder([1, 3, 2], byValue)).toEqual({ count: 2, firstDifference: 2 });
    expect(planOrder([], byValue)).toEqual({ count: 0 });
  });
});

describe('volume ids', () => {
  it('uses the ids in use when they are one per volume but not 1..n, and says so', async () => {
    const dump = generateDump({ seed: 7, authors: 4, manuscripts: 30 });
    const idsInUse = [3, 4, 6, 8, 9];
    for (const m of dump.manuscripts) m.citation_volume = idsInUse[m.citation_volume - 1]!;
    const { paths, result } = await importDump(dump);
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(result.report.inferences.volumeIds).toMatchObject({
      rule: 'ids in use',
      ids: idsInUse.map((id, i) => ({ id, label: dump.volumes[i]!.citation_journal_title })),
    });
    expect(formatImportSummary(result.report)).toContain('Volume ids: rule "ids in use"');
    expect((await builtLists(paths)).manuscripts).toBe(toJson(dump.manuscripts));
  });

  it('fails clearly when the ids cannot be inferred, and --volume-ids settles it', async () => {
    const dump = generateDump({ seed: 8, authors: 4, manuscripts: 20 });
    // Volume "Volume I" (position 2) was deleted long ago: ids 1, 3, 4, 5, 6, and nobody uses 1.
    for (const m of dump.manuscripts)
      m.citation_volume = m.citation_volume === 1 ? 3 : m.citation_volume + 1 + (m.citation_volume >= 2 ? 0 : 1);
    const failed = await importDump(dump);
    expect(failed.result.ok).toBe(false);
    if (failed.result.ok) return;
    expect(failed.result.problems.map((p) => [p.code, p.field])).toEqual([['import/volume-ids', 'volumes']]);
    expect(failed.result.problems[0]!.expected).toContain('--volume-ids V=1,I=2,II=3,III=4,IV=5');
    expect(await readdir(failed.paths.root)).toEqual(['dump.json']);

    const settled = await importDump(dump, { volumeIds: 'V=2,I=3,II=4,III=5,IV=6' });
    if (!settled.result.ok) throw new Error(JSON.stringify(settled.result.problems));
    expect(settled.result.report.inferences.volumeIds.rule).toBe('explicit');
    expect((await builtLists(settled.paths)).manuscripts).toBe(toJson(dump.manuscripts));
  });

  it('refuses a mapping that gives two volumes one id, misses a volume, or leaves a manuscript without its volume', async () => {
    const dump = generateDump({ seed: 10, authors: 4, manuscripts: 10 });
    const twice = await importDump(dump, { volumeIds: 'V=5,I=1,II=2,III=3,IV=5' });
    expect(!twice.result.ok && twice.result.problems.map((p) => [p.code, p.field])).toEqual([
      ['import/volume-ids', 'volumes[4]'],
    ]);
    const missing = await importDump(dump, { volumeIds: 'V=1,I=2,II=3,III=4' });
    expect(!missing.result.ok && missing.result.problems.map((p) => p.field)).toEqual(['volumes[4]']);
    const unused = await importDump(dump, { volumeIds: 'V=10,I=20,II=30,III=40,IV=50' });
    expect(
      !unused.result.ok &&
        unused.result.problems.every(
          (p) => p.code === 'import/volume-ids' && /^manuscripts\[\d+\]\.citation_volume$/.test(p.field),
        ),
    ).toBe(true);
  });

  it('manuscripts dated far from their volume contradict the position rule', async () => {
    const dump = generateDump({ seed: 11, authors: 4, manuscripts: 10 });
    for (const m of dump.manuscripts) if (m.citation_volume === 1) m.citation_date = `2001${m.citation_date.slice(4)}`;
    const { result } = await importDump(dump);
    expect(!result.ok && result.problems[0]!.message).toMatch(
      /by position, \d+ manuscripts? (are|is) dated far from their volume \(manuscripts\[\d+\] of 2001-/,
    );
  });
});

describe('records that cannot be represented', () => {
  it('a wrong shape is reported with list, index and field, and nothing is written; a refused value is written and named at file:line', async () => {
    const dump = generateDump({ seed: 12, authors: 4, manuscripts: 6 }) as unknown as {
      authors: Record<string, unknown>[];
      volumes: Record<string, unknown>[];
      manuscripts: Record<string, unknown>[];
    };
    dump.manuscripts[1]!['document'] = null;
    dump.manuscripts[2]!['keywords'] = 'no full stop, here';
    dump.manuscripts[3]!['abstract'] = '';
    dump.manuscripts[4]!['pk'] = 17;
    delete dump.volumes[0]!['udc'];
    dump.authors[2]!['surname'] = 'Trailing ';
    dump.authors[3]!['name'] = 'Half \ud83e surrogate';
    const { paths, result } = await importDump(dump);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((p) => [p.code, p.field])).toEqual([
      ['import/not-representable', 'authors[3].name'],
      ['import/not-representable', 'volumes[0].udc'],
      ['import/not-representable', 'manuscripts[1].document'],
      ['import/not-representable', 'manuscripts[4].pk'],
    ]);
    expect(result.problems.every((p) => p.file === 'dump.json')).toBe(true);
    expect(await readdir(paths.root)).toEqual(['dump.json']);

    // With the shape fixed, the values the build refuses no longer stop the import: every record
    // is written, and each refused value is named at its file and line. A surname with a trailing
    // space is as the source published it: a warning.
    dump.manuscripts[1]!['document'] = 'https://media.example.org/media/pdfs/x.pdf';
    delete dump.manuscripts[4]!['pk'];
    dump.volumes[0]!['udc'] = '57';
    dump.authors[3]!['name'] = 'Whole 🦎 surrogate';
    const again = await importDump(dump);
    if (!again.result.ok) throw new Error(JSON.stringify(again.result.problems));
    expect(again.result.report.refused.map((p) => [p.field, p.file.split('/')[1], p.line > 0])).toEqual([
      ['keywords', 'manuscripts', true],
      ['abstract', 'manuscripts', true],
    ]);
    expect(again.result.report.warnings.map((w) => [w.code, w.field])).toContainEqual(['warn/plain-text', 'surname']);
  });

  it('a dump that is not the three arrays is refused with what was expected', async () => {
    for (const [text, message] of [
      ['[1, 2]', /holds a list/],
      ['{"authors": [], "volumes": []}', /lacks manuscripts/],
      ['{"authors": [], "volumes": [], "manuscripts": [], "sections": []}', /unknown key sections/],
      ['{"authors": [', /truncated/],
      ['<!doctype html><p>Server Error</p>', /HTML page/],
    ] as const) {
      const { paths, result } = await importDump(text);
      expect(!result.ok && result.problems.map((p) => p.code)).toEqual(['import/fetch']);
      expect(!result.ok && result.problems[0]!.message).toMatch(message);
      expect(await readdir(paths.root)).toEqual(['dump.json']);
    }
  });

  it('reads a folder of authors.json, volumes.json and manuscripts.json', async () => {
    const dump = generateDump({ seed: 13, authors: 5, manuscripts: 7 });
    const paths = await project();
    await mkdir(path.join(paths.root, 'old'));
    for (const list of ['authors', 'volumes', 'manuscripts'] as const)
      await writeFile(path.join(paths.root, 'old', `${list}.json`), toJson(dump[list]));
    const result = await importJournal(paths, { source: 'old' });
    expect(result.ok && result.report.sourceBytesIdentical).toBe(true);
    expect((await builtLists(paths)).volumes).toBe(toJson(dump.volumes));
  });
});

describe('other sources and settings', () => {
  it("records whose keys come in another order are imported, and the build writes the contract's order", async () => {
    const dump = generateDump({ seed: 17, authors: 3, manuscripts: 3 });
    const shuffled = {
      ...dump,
      authors: dump.authors.map(({ institution, name, surname }) => ({ institution, surname, name })),
    };
    const { paths, result } = await importDump(shuffled);
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(result.report.sourceBytesIdentical).toBe(false);
    expect(formatImportSummary(result.report)).toContain(
      "Note: 3 authors had their keys in another order; the build writes the contract's order.",
    );
    expect((await builtLists(paths)).authors).toBe(toJson(dump.authors));
  });

  it('a --title the build would refuse is named as such, in content/journal.yaml', async () => {
    const { result } = await importDump(generateDump({ seed: 18, authors: 2, manuscripts: 2 }), {
      title: 'Bulletin <script>x()</script>',
    });
    expect(result.ok && result.report.refused.map((p) => [p.code, p.file, p.field])).toEqual([
      ['schema/markup', 'content/journal.yaml', 'title'],
    ]);
  });
});

describe('export', () => {
  it("of a tree that does not build reports the build's problems and writes no file", async () => {
    const { paths, result } = await importDump(generateDump({ seed: 19, authors: 3, manuscripts: 3 }));
    expect(result.ok).toBe(true);
    const [first] = (await readdir(path.join(paths.content, 'manuscripts'))).sort();
    const file = path.join(paths.content, 'manuscripts', first!);
    // The import names each manuscript's volume by its file name.
    const text = await readFile(file, 'utf8');
    expect(text).toMatch(/^volume: volume-[a-z]+$/m);
    await writeFile(file, text.replace(/^volume: .*$/m, 'volume: volume-xcix'));
    const exported = await exportJournal(paths, 'out.json');
    expect(!exported.ok && exported.problems.map((p) => [p.code, p.field])).toEqual([['ref/unknown-volume', 'volume']]);
    expect((await readdir(paths.root)).sort()).toEqual(['content', 'dump.json']);
  });
});

describe('the content tree is never half-written', () => {
  it('refuses a non-empty content/ without --force, leaving it as it was; --force replaces it whole', async () => {
    const dump = generateDump({ seed: 14, authors: 3, manuscripts: 3 });
    const paths = await project();
    const file = await writeDump(paths, dump);
    await mkdir(path.join(paths.content, 'authors'), { recursive: true });
    await writeFile(path.join(paths.content, 'authors', 'keep-me.yaml'), 'name: Keep\n');

    const refused = await importJournal(paths, { source: file });
    expect(!refused.ok && refused.problems.map((p) => [p.code, p.message])).toEqual([
      ['import/not-empty', 'already holds authors'],
    ]);
    expect(await readFile(path.join(paths.content, 'authors', 'keep-me.yaml'), 'utf8')).toBe('name: Keep\n');

    const forced = await importJournal(paths, { source: file, force: true });
    expect(forced.ok).toBe(true);
    expect((await readdir(path.join(paths.content, 'authors'))).includes('keep-me.yaml')).toBe(false);
    expect((await readdir(paths.root)).sort()).toEqual(['content', 'dump.json']);
  });

  it('a failed --force import leaves the old tree untouched', async () => {
    const paths = await project();
    await mkdir(path.join(paths.content, 'authors'), { recursive: true });
    await writeFile(path.join(paths.content, 'authors', 'keep-me.yaml'), 'name: Keep\n');
    const dump = generateDump({ seed: 15, authors: 3, manuscripts: 3 }) as unknown as {
      manuscripts: Record<string, unknown>[];
    };
    dump.manuscripts[0]!['document'] = null;
    const file = await writeDump(paths, dump);
    const result = await importJournal(paths, { source: file, force: true });
    expect(result.ok).toBe(false);
    expect(await readdir(path.join(paths.content, 'authors'))).toEqual(['keep-me.yaml']);
    expect((await readdir(paths.root)).sort()).toEqual(['content', 'dump.json']);
  });
});

describe('the command line', () => {
  it('npm run import -- dump.json prints the summary; npm run export -- out.json gives the dump back', async () => {
    const dump = generateDump({ seed: 16, authors: 10, manuscripts: 15, collisions: 1 });
    const paths = await project();
    await writeDump(paths, dump);
    const imported = await runCli(paths.root, ['import', 'dump.json', '--title', 'Bulletin']);
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain('Imported dump.json into content/:');
    expect(JSON.parse(await readFile(path.join(paths.content, 'schemas', 'manuscript.schema.json'), 'utf8'))).toEqual(
      contentJsonSchemas()['manuscript.schema.json'],
    );
    expect(imported.stdout).toContain('Volume ids: rule "position"');
    expect(imported.stdout).toContain('  title: Bulletin  (from --title)');
    expect(imported.stdout).toContain(
      'Checked: a build of the imported tree writes the three lists byte for byte as the source served them.',
    );

    const again = await runCli(paths.root, ['import', 'dump.json']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(
      'content: already holds authors, journal.yaml, manuscripts, schemas, volumes (an empty content folder, or --force to replace the whole tree with the import)',
    );

    const exported = await runCli(paths.root, ['export', 'out.json']);
    expect(exported.code).toBe(0);
    expect(await readFile(path.join(paths.root, 'out.json'), 'utf8')).toBe(toJson(dump));
  });

  it('names what is wrong with the command line', async () => {
    const paths = await project();
    const none = await runCli(paths.root, ['import']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('import needs one source');
    const missing = await runCli(paths.root, ['import', 'nowhere.json']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('nowhere.json: does not exist');
  });
});
