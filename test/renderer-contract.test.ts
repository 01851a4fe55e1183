/**
 * The renderer contract (scripts/generator/model/site.ts): a renderer declares nothing but its
 * outputs, and the build reuses an output exactly while what its body read is unchanged. These
 * tests add renderers the build has never seen and check what a maintainer relies on.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { build } from '../scripts/generator/build.ts';
import type { Renderer } from '../scripts/generator/model/site.ts';
import { RENDERERS } from '../scripts/generator/render/renderers.ts';
import { trackReads } from '../scripts/generator/engine/reuse/read-tracking.ts';
import { resolveAuthors } from '../scripts/generator/stages/resolve.ts';
import { author, JOURNAL, manuscript, volume } from './helpers/synthetic-site.ts';
import { age } from './helpers/incremental.ts';
import { createWorkspace, type Workspace } from './helpers/workspace.ts';

let ws: Workspace | undefined;
afterEach(async () => {
  await ws?.dispose();
  ws = undefined;
});

/** An output per author, from one field of that author only; and one output that reads no record. */
const perAuthor: Renderer = {
  name: 'the institutions',
  render: (site) => [
    ...site.authors.map((author) => ({
      path: `institutions/${author.origin.key}.txt`,
      body: () => [`${author.institution}\n`],
    })),
    { path: 'institutions/index.txt', body: () => [`${site.journal.title}\n`] },
  ],
};

/** One output from the last manuscript's first author: a record reached through another. */
const lastManuscriptsAuthor: Renderer = {
  name: 'the last author',
  render: (site) => [
    {
      path: 'last-author.txt',
      body: () => {
        const last = site.manuscripts.at(-1)!;
        const [first] = site.authorsOf(last);
        return [`${first?.name ?? ''} ${first?.surname ?? ''}\n`];
      },
    },
  ],
};

const withExtra = (...extra: Renderer[]) => ({ renderers: [...RENDERERS, ...extra] });

async function inode(file: string): Promise<number> {
  return (await stat(path.join(ws!.paths.out, file))).ino;
}

describe('outputs are reused by what their renderer read', () => {
  it("re-renders a new renderer's output when the one record it read changes, and only that output", async () => {
    ws = await age(await createWorkspace());
    expect((await build(ws.paths, 'build', withExtra(perAuthor))).problems).toEqual([]);
    const before = {
      ana: await inode('institutions/ana-petrovska.txt'),
      jane: await inode('institutions/jane-doe.txt'),
      index: await inode('institutions/index.txt'),
    };

    await ws.write(
      'authors/ana-petrovska.yaml',
      'name: Ана\nsurname: Петровска\ninstitution: Природно-математички факултет.\n',
    );
    await age(ws);
    const result = await build(ws.paths, 'build', withExtra(perAuthor));
    expect(result.problems).toEqual([]);
    expect(await readFile(path.join(ws.paths.out, 'institutions/ana-petrovska.txt'), 'utf8')).toBe(
      'Природно-математички факултет.\n',
    );
    expect(await inode('institutions/ana-petrovska.txt')).not.toBe(before.ana);
    // What read nothing that changed is the previous build's file, not a new one.
    expect(await inode('institutions/jane-doe.txt')).toBe(before.jane);
    expect(await inode('institutions/index.txt')).toBe(before.index);
  });

  it('follows a record reached through another: the author of a manuscript', async () => {
    ws = await age(await createWorkspace());
    expect((await build(ws.paths, 'build', withExtra(lastManuscriptsAuthor))).problems).toEqual([]);
    const first = await readFile(path.join(ws.paths.out, 'last-author.txt'), 'utf8');
    const reused = await inode('last-author.txt');

    // A record it did not read: the output stays as it was.
    const volume = path.join(ws.paths.content, 'volumes/volume-ii.yaml');
    await ws.write('volumes/volume-ii.yaml', `${await readFile(volume, 'utf8')}# an editor's note\n`);
    await age(ws);
    expect((await build(ws.paths, 'build', withExtra(lastManuscriptsAuthor))).problems).toEqual([]);
    expect(await inode('last-author.txt')).toBe(reused);

    // The author it names renamed: its output follows, though the manuscript's file did not change.
    await ws.write('authors/marko-nikolov.yaml', 'name: Marko\nsurname: Renamed\ninstitution: Somewhere.\n');
    await age(ws);
    expect((await build(ws.paths, 'build', withExtra(lastManuscriptsAuthor))).problems).toEqual([]);
    const after = await readFile(path.join(ws.paths.out, 'last-author.txt'), 'utf8');
    expect(after).not.toBe(first);
    expect(after).toMatch(/ Renamed\n$/);
  });
});

describe('outputs are reused by the fields their renderer read', () => {
  it("re-renders, after an author's institution edit, the pages that print it and not the files that print only names", async () => {
    ws = await age(await createWorkspace());
    expect((await build(ws.paths, 'build')).problems).toEqual([]);
    // Manuscript 7 (salamanders.yaml) is Ana Petrovska's, in volume 1.
    const namesOnly = [
      'citations/7.bib',
      'citations/7.ris',
      'citations/7.json',
      'api/manuscripts/7.json',
      'volumes/1.html',
    ];
    const before = await Promise.all(namesOnly.map(inode));
    const page = await inode('manuscripts/7.html');

    await ws.write(
      'authors/ana-petrovska.yaml',
      'name: Ана\nsurname: Петровска\ninstitution: Природно-математички факултет, Скопје.\n',
    );
    await age(ws);
    expect((await build(ws.paths, 'build')).problems).toEqual([]);
    expect(await readFile(path.join(ws.paths.out, 'manuscripts/7.html'), 'utf8')).toContain(
      'Природно-математички факултет, Скопје.',
    );
    expect(await inode('manuscripts/7.html')).not.toBe(page);
    expect(await Promise.all(namesOnly.map(inode))).toEqual(before);

    // A name is printed by all of them: each follows it.
    await ws.write(
      'authors/ana-petrovska.yaml',
      'name: Ана\nsurname: Петровска-Јовановска\ninstitution: Природно-математички факултет, Скопје.\n',
    );
    await age(ws);
    expect((await build(ws.paths, 'build')).problems).toEqual([]);
    for (const [i, file] of namesOnly.entries()) {
      expect(await inode(file)).not.toBe(before[i]);
      expect(await readFile(path.join(ws.paths.out, file), 'utf8')).toContain('Петровска-Јовановска');
    }
  });
});

describe('what a body read is noted, and readied before it runs again', () => {
  const ana = author('ana', 'Ana', 'Petrovska', 'Skopje');
  const v = volume(1, 'Volume I', '2020-01-01');
  const m = manuscript(7, { citation_volume: 1, authors: ['ana'] });
  const resolved = {
    journal: JOURNAL,
    authors: [ana],
    volumes: [v],
    manuscripts: [m],
    manuscriptAuthors: resolveAuthors([ana], [m]),
  };

  it('notes a record by any field read, a record reached through another, and a list read whole', () => {
    const tracker = trackReads(resolved);
    const [first] = tracker.site.manuscripts;
    expect(tracker.track(() => first!.abstract).reads).toBe('m:m-7');
    expect(tracker.track(() => tracker.site.authorsOf(first!)[0]!.institution).reads).toBe('s:m-7\na:ana');
    expect(tracker.track(() => tracker.site.manuscriptsIn(tracker.site.volume(1)!).length).reads).toBe(
      'v:volume-1\nin:volume-1',
    );
    expect(tracker.track(() => tracker.site.authors.map((a) => a.name)).reads).toBe('each:authors');
    // An author's names alone are noted as such, and a manuscript's short fields alone; with any
    // other field, the record whole covers them.
    expect(tracker.track(() => tracker.site.authorsOf(first!)[0]!.surname).reads).toBe('s:m-7\nn:ana');
    const author = () => tracker.site.authorsOf(first!)[0]!;
    expect(tracker.track(() => [author().name, author().institution]).reads).toBe('s:m-7\na:ana');
    expect(tracker.track(() => [first!.citation_title, first!.keywords]).reads).toBe('m:m-7');
    // Outside a body nothing is noted: listing the outputs reads paths only.
    expect(tracker.track(() => 1).reads).toBe('');
  });

  it('keys what a body read as the content is now, the same whether just read or recorded', () => {
    const hashed = <T extends { origin: object }>(record: T, hash: string): T => ({
      ...record,
      origin: { ...record.origin, hash },
    });
    const [a, vol, ms] = [hashed(ana, 'A1'), hashed(v, 'V1'), hashed(m, 'M1')];
    const journalOf = (author: typeof a) => ({
      ...resolved,
      authors: [author],
      volumes: [vol],
      manuscripts: [ms],
      manuscriptAuthors: resolveAuthors([author], [ms]),
    });
    const tracker = trackReads(journalOf(a));
    const [first] = tracker.site.manuscripts;
    const bodies: (() => unknown)[] = [
      () => first!.citation_title,
      () => tracker.site.authorsOf(first!)[0]!.institution,
      () => tracker.site.authorsOf(first!)[0]!.surname,
      () => tracker.site.manuscriptsIn(tracker.site.volume(1)!).map((x) => x.id),
      () => tracker.site.authors.map((x) => x.name),
    ];
    const keys = bodies.map((body) => {
      const { reads, key } = tracker.track(body);
      expect(key).toBeDefined();
      expect(tracker.keyOf(reads)).toBe(key);
      return key;
    });
    expect(new Set(keys).size).toBe(keys.length);
    // One record alone is keyed by its file's hash.
    expect(keys[0]).toBe('M1');
    // The same reads, with the author's file changed: another key, but for a body that read only
    // the names, which are the same; and another for it once the surname changed.
    const changed = trackReads(journalOf(hashed(ana, 'A2')));
    expect(changed.keyOf(tracker.track(bodies[1]!).reads)).not.toBe(keys[1]);
    expect(changed.keyOf(tracker.track(bodies[2]!).reads)).toBe(keys[2]);
    const renamed = trackReads(journalOf(hashed({ ...ana, surname: 'Petrovska-Jovanovska' }, 'A3')));
    expect(renamed.keyOf(tracker.track(bodies[2]!).reads)).not.toBe(keys[2]);
  });

  it('gives the records whose long fields a body read last time to be read in before it runs again', () => {
    const readIn = vi.fn();
    const tracker = trackReads(resolved, { readIn });
    const [first] = tracker.site.manuscripts;
    const { reads } = tracker.track(() => [first!.abstract, ...tracker.site.authorsOf(first!).map((a) => a?.name)]);
    tracker.prepare(reads);
    expect(readIn).toHaveBeenCalledTimes(1);
    expect(readIn).toHaveBeenCalledWith(m);
    // A body that read none of them (a volume's page: the titles) needs nothing read in.
    readIn.mockClear();
    tracker.prepare(tracker.track(() => [first!.citation_title, tracker.site.authorsOf(first!)[0]?.name]).reads);
    expect(readIn).not.toHaveBeenCalled();
  });
});
