/**
 * The dev server's build (generator/live-build.ts) against the reference: after each kind of edit,
 * every file a cold build writes into dist/ (the precompressed twins and the search index aside,
 * which dev does not serve) is the same bytes when asked of the live site, and a save of the same bytes builds nothing.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { build } from '../scripts/generator/build.ts';
import { openLiveBuild, type LiveBuild } from '../scripts/generator/live-build.ts';
import type { Renderer } from '../scripts/generator/model/site.ts';
import { createWorkspace, type Workspace } from './helpers/workspace.ts';
import { NEW_MANUSCRIPT } from './helpers/records.ts';

let workspace: Workspace;
let live: LiveBuild;
beforeEach(async () => {
  workspace = await createWorkspace();
  live = await openLiveBuild(workspace.paths);
});
afterEach(async () => {
  await workspace.dispose();
});

const absolute = (file: string) => path.join(workspace.paths.content, file);

/** Writes `file` (relative to content/), and hands its path to the live build as a watcher would. */
async function edit(file: string, change: (text: string) => string): Promise<boolean> {
  const text = await readFile(absolute(file), 'utf8');
  await workspace.write(file, change(text));
  return live.update([absolute(file)]);
}

async function expectSameAsColdBuild(): Promise<void> {
  const result = await build(workspace.paths, 'build', { cache: false, threads: 0 });
  expect(result.problems).toEqual([]);
  const site = live.site;
  if (!site.ok) throw new Error(`the live site has problems: ${JSON.stringify(site.problems)}`);
  const files = (await readdir(workspace.paths.out, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile() && !/\.(gz|br)$/.test(entry.name))
    .map((entry) =>
      path.relative(workspace.paths.out, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'),
    )
    // dev serves no search index (docs/search.md).
    .filter((file) => !file.startsWith('pagefind/'));
  expect(files.length).toBeGreaterThan(20);
  for (const file of files) {
    const built = await readFile(path.join(workspace.paths.out, file));
    const media = site.files.mediaSource(file);
    const served = media ? await readFile(media) : site.files.bytes(file);
    expect(served && Buffer.from(served).equals(built), file).toBe(true);
  }
}

it('serves what a cold build writes, after edits that keep the order and edits that change it', async () => {
  // Pages and lists asked for before the edits, so that what they read is kept and keyed.
  const before = live.site;
  if (!before.ok) throw new Error('the fixture has problems');
  before.files.bytes('api/manuscripts/index.json');
  before.files.bytes('manuscripts/1.html');
  await expectSameAsColdBuild();

  const first = 'manuscripts/salamanders.yaml';
  expect(
    await edit(first, (text) => text.replace(/^citation_title: (.*)$/m, 'citation_title: A title edited live')),
  ).toBe(true);
  await expectSameAsColdBuild();

  // A new id moves the manuscript in the list: ordered from scratch.
  expect(await edit(first, (text) => text.replace(/^id: \d+$/m, 'id: 900'))).toBe(true);
  await expectSameAsColdBuild();

  expect(
    await edit('authors/marko-nikolov.yaml', (text) =>
      text.replace(/^institution: .*$/m, 'institution: Zzz Institute'),
    ),
  ).toBe(true);
  await expectSameAsColdBuild();

  expect(await edit('volumes/volume-i.yaml', (text) => text.replace(/^last_page: .*$/m, 'last_page: "999"'))).toBe(
    true,
  );
  await expectSameAsColdBuild();
});

it('builds nothing for the same bytes, and follows a file added and one removed', async () => {
  const first = 'manuscripts/salamanders.yaml';
  expect(await edit(first, (text) => text)).toBe(false);

  const copy = 'manuscripts/zz-copy.yaml';
  const text = await readFile(absolute(first), 'utf8');
  await workspace.write(copy, text.replace(/^id: \d+$/m, 'id: 901'));
  expect(await live.update([absolute(copy)])).toBe(true);
  await expectSameAsColdBuild();

  await workspace.remove(copy);
  expect(await live.update([absolute(copy)])).toBe(true);
  await expectSameAsColdBuild();
});

it("serves a manuscript's record, citation files and page once its file is added, and none once it is removed", async () => {
  const site = () => {
    const now = live.site;
    if (!now.ok) throw new Error(`the live site has problems: ${JSON.stringify(now.problems)}`);
    return now.files;
  };
  const own = ['api/manuscripts/902.json', 'citations/902.bib', 'citations/902.ris', 'citations/902.json'];
  const page = 'manuscripts/902.html';
  for (const file of [...own, page]) expect(site().has(file), file).toBe(false);
  // The page of another manuscript, asked for first: its bytes are kept, and must not be served for the new one.
  expect(site().bytes('manuscripts/3.html')).toBeDefined();

  const added = 'manuscripts/zz-added.yaml';
  const text = await readFile(absolute('manuscripts/salamanders.yaml'), 'utf8');
  await workspace.write(
    added,
    text.replace(/^id: \d+$/m, 'id: 902').replace(/^citation_title: .*$/m, 'citation_title: Newts added live'),
  );
  expect(await live.update([absolute(added)])).toBe(true);
  for (const file of [...own, page]) {
    expect(site().has(file), file).toBe(true);
    expect(Buffer.from(site().bytes(file)!).toString(), file).toContain('Newts added live');
  }
  await expectSameAsColdBuild();

  await workspace.remove(added);
  expect(await live.update([absolute(added)])).toBe(true);
  for (const file of [...own, page]) {
    expect(site().has(file), file).toBe(false);
    expect(site().bytes(file), file).toBeUndefined();
  }
  await expectSameAsColdBuild();
});

it("serves a volume's page at its new path when its label changes, the volume keeping its place", async () => {
  const site = () => {
    const now = live.site;
    if (!now.ok) throw new Error(`the live site has problems: ${JSON.stringify(now.problems)}`);
    return now.files;
  };
  // Every renderer listed once, so that the paths are kept from the last site.
  for (const file of ['volumes/1.html', 'manuscripts/7.html', 'api/volumes/index.json', 'sitemap.xml'])
    expect(site().bytes(file), file).toBeDefined();
  expect(site().has('volumes/9.html')).toBe(false);
  // A manuscript that names the volume by its label would no longer find it: it names its file.
  expect(
    await edit('manuscripts/salamanders.yaml', (text) => text.replace(/^volume: Volume I$/m, 'volume: volume-i')),
  ).toBe(true);

  expect(
    await edit('volumes/volume-i.yaml', (text) =>
      text.replace(/^citation_journal_title: Volume I$/m, 'citation_journal_title: Volume IX'),
    ),
  ).toBe(true);
  expect(site().has('volumes/9.html')).toBe(true);
  expect(site().has('volumes/1.html')).toBe(false);
  await expectSameAsColdBuild();
});

it('indexes the paths again when a renderer lists other paths for the same records (one that is not pure)', async () => {
  // Its listing names a path after how many times it was listed: nothing a record holds.
  let listings = 0;
  const impure: Renderer = {
    name: 'a renderer that counts',
    render(site) {
      listings += 1;
      return [
        { path: `listing-${listings}.txt`, body: () => [String(site.manuscripts.length)] },
        ...site.manuscripts.map((m) => ({ path: `titles/${m.id}.txt`, body: () => [m.citation_title] })),
      ];
    },
  };
  const counted = await openLiveBuild(workspace.paths, { renderers: [impure] });
  const files = () => {
    const now = counted.site;
    if (!now.ok) throw new Error(`the live site has problems: ${JSON.stringify(now.problems)}`);
    return now.files;
  };
  expect(files().has('listing-1.txt')).toBe(true);

  const first = 'manuscripts/salamanders.yaml';
  const text = await readFile(absolute(first), 'utf8');
  await workspace.write(first, text.replace(/^citation_title: .*$/m, 'citation_title: Counted newts'));
  expect(await counted.update([absolute(first)])).toBe(true);
  // The save changed no field a listing read: the paths are kept until the renderer is listed again.
  expect(Buffer.from(files().bytes('titles/7.txt')!).toString()).toBe('Counted newts');
  expect(files().has('listing-2.txt')).toBe(true);
  expect(files().has('listing-1.txt')).toBe(false);
});

it('reports a broken file in the site, and recovers when it is fixed', async () => {
  const first = 'manuscripts/salamanders.yaml';
  const text = await readFile(absolute(first), 'utf8');
  await edit(first, (t) => t.replace(/^citation_date: .*$/m, 'citation_date: 2023-02-30'));
  const broken = live.site;
  expect(broken.ok).toBe(false);
  if (!broken.ok) {
    expect(broken.problems.map((p) => [p.file, p.field, p.code])).toEqual([
      [`content/${first}`, 'citation_date', expect.any(String)],
    ]);
    expect(broken.problems[0]!.line).toBeGreaterThan(0);
  }
  // Broken again, another way: the file's invalid record is replaced by another.
  await edit(first, (t) => t.replace(/^citation_date: .*$/m, 'citation_date: 2023-13-01'));
  const still = live.site;
  expect(still.ok).toBe(false);
  if (!still.ok) expect(still.problems.map((p) => [p.file, p.field])).toEqual([[`content/${first}`, 'citation_date']]);
  await edit(first, () => text);
  await expectSameAsColdBuild();
});

it('moves the manuscripts named by a volume label when two volumes trade labels, the manuscripts unchanged', async () => {
  // A manuscript of id 1 in Volume I (id 2) comes after orchids.yaml (id 3, Volume II: id 1); after
  // the trade it comes first: the order changes, with no manuscript changed.
  await workspace.write(
    'manuscripts/new.yaml',
    NEW_MANUSCRIPT.replace('id: 40', 'id: 1').replace('volume: volume-ii', 'volume: I'),
  );
  expect(await live.update([absolute('manuscripts/new.yaml')])).toBe(true);
  const before = live.site;
  if (!before.ok) throw new Error('the fixture has problems');
  before.files.bytes('api/manuscripts/index.json');
  before.files.bytes('manuscripts/7.html');
  const label = (text: string, to: string) =>
    text.replace(/^citation_journal_title: .*$/m, `citation_journal_title: ${to}`);
  // salamanders.yaml names `Volume I`: after the trade, the volume of id 1.
  await workspace.write(
    'volumes/volume-i.yaml',
    label(await readFile(absolute('volumes/volume-i.yaml'), 'utf8'), 'Volume II'),
  );
  await workspace.write(
    'volumes/volume-ii.yaml',
    label(await readFile(absolute('volumes/volume-ii.yaml'), 'utf8'), 'Volume I'),
  );
  expect(await live.update([absolute('volumes/volume-i.yaml'), absolute('volumes/volume-ii.yaml')])).toBe(true);
  await expectSameAsColdBuild();
  const site = live.site;
  if (!site.ok) throw new Error('the live site has problems');
  const list = JSON.parse(Buffer.from(site.files.bytes('api/manuscripts/index.json')!).toString('utf8')) as {
    id: number;
    citation_volume: number;
  }[];
  expect(list.find((m) => m.id === 7)?.citation_volume).toBe(1);
  expect(list.map((m) => m.id).slice(0, 2)).toEqual([1, 3]);
});

it('a manuscript saved with an id another has is the one told to change it; the other is named too', async () => {
  await workspace.write('manuscripts/7-newts.yaml', NEW_MANUSCRIPT.replace('id: 40', 'id: 7'));
  expect(await live.update([absolute('manuscripts/7-newts.yaml')])).toBe(true);
  const site = live.site;
  if (site.ok) throw new Error('a duplicate id must be a problem');
  const duplicates = site.problems.filter((p) => p.code === 'ref/duplicate-id');
  expect(duplicates.map((p) => `${p.file}:${p.line}:${p.column} ${p.expected}`)).toEqual([
    'content/manuscripts/7-newts.yaml:1:5 an id no other manuscript has: the next free id is 13',
    'content/manuscripts/salamanders.yaml:1:5 this file keeps its id: change the one in content/manuscripts/7-newts.yaml, to the next free id, 13',
  ]);
});
