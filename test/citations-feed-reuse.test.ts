/**
 * The citation files and the feed follow the renderer contract (model/site.ts): after an edit, a
 * build renders again the three citation files of the manuscript edited and no others, and the
 * feed only when one of the manuscripts it lists, or which they are, changes. Each build is then
 * compared with a cold build of the same content, byte for byte.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FEED_ENTRIES } from '../scripts/generator/render/feed.ts';
import { renderCitations } from '../scripts/generator/render/citations/citations.ts';
import { trackReads } from '../scripts/generator/engine/reuse/read-tracking.ts';
import { emptyReads, keyOutputs } from '../scripts/generator/engine/reuse/reuse.ts';
import type { OutputFile } from '../scripts/shared/output-file.ts';
import { resolveAuthors } from '../scripts/generator/stages/resolve.ts';
import { author, JOURNAL, manuscript, volume } from './helpers/synthetic-site.ts';
import { age, expectSameAsCold } from './helpers/incremental.ts';
import { createWorkspace, type Workspace } from './helpers/workspace.ts';

let ws: Workspace | undefined;
afterEach(async () => {
  await ws?.dispose();
  ws = undefined;
});

/** An older manuscript than the fixture's three, dated `2015-01-<day>`, its PDF named by URL. */
const older = (id: number, day: number, title = `An older manuscript ${id}`) =>
  JSON.stringify({
    id,
    citation_volume: 1,
    citation_title: title,
    citation_date: `2015-01-${String(day).padStart(2, '0')}`,
    abstract: '<p>Older.</p>',
    keywords: 'old.',
    document: `https://media.example.org/media/pdfs/older-${id}.pdf`,
    authors: ['jane-doe'],
    section: 'Zoology',
  });

describe('reuse of the citation files and the feed', () => {
  it('renders again what an edit touches, and only that', async () => {
    // The fixture's three and FEED_ENTRIES older ones: the three oldest are not in the feed.
    const extra: Record<string, string> = {};
    for (let k = 0; k < FEED_ENTRIES; k++) extra[`manuscripts/older-${k}.json`] = older(100 + k, 1 + (k % 28));
    ws = await age(await createWorkspace(extra));
    expect((await ws.build()).problems).toEqual([]);
    const inode = async (file: string) => (await stat(path.join(ws!.paths.out, file))).ino;
    const feedText = () => readFile(path.join(ws!.paths.out, 'feed.xml'), 'utf8');
    // Dated 2015-01-01 as 128 is, and of the two the lower id: the oldest of all.
    const unlisted = 100;
    expect(await feedText()).not.toContain(`/manuscripts/${unlisted}<`);
    const before = {
      feed: await inode('feed.xml'),
      unlisted: await inode(`citations/${unlisted}.bib`),
      unlistedRis: await inode(`citations/${unlisted}.ris`),
      unlistedJson: await inode(`citations/${unlisted}.json`),
      seven: await inode('citations/7.bib'),
    };

    // A manuscript the feed does not list, edited and still not listed: its files only.
    await ws.write(`manuscripts/older-0.json`, older(unlisted, 1, 'An older manuscript, retitled'));
    await age(ws);
    await expectSameAsCold(ws);
    expect(await inode(`citations/${unlisted}.bib`)).not.toBe(before.unlisted);
    expect(await inode(`citations/${unlisted}.ris`)).not.toBe(before.unlistedRis);
    expect(await inode(`citations/${unlisted}.json`)).not.toBe(before.unlistedJson);
    expect(await readFile(path.join(ws.paths.out, `citations/${unlisted}.bib`), 'utf8')).toContain(
      'title = {An older manuscript, retitled}',
    );
    expect(await inode('citations/7.bib')).toBe(before.seven);
    expect(await inode('feed.xml')).toBe(before.feed);

    // The same manuscript dated newest: the feed lists it now, first.
    await ws.write(`manuscripts/older-0.json`, older(unlisted, 1).replace('2015-01-01', '2030-01-01'));
    await age(ws);
    await expectSameAsCold(ws);
    expect(await inode('feed.xml')).not.toBe(before.feed);
    expect(await feedText()).toMatch(/<entry>\n<id>https:\/\/journal\.example\.org\/manuscripts\/100<\/id>/);
    expect(await inode('citations/7.bib')).toBe(before.seven);

    // A manuscript the feed lists, edited: the feed follows.
    const listedFeed = await inode('feed.xml');
    const salamanders = path.join(ws.paths.content, 'manuscripts/salamanders.yaml');
    await ws.write(
      'manuscripts/salamanders.yaml',
      (await readFile(salamanders, 'utf8')).replace('fire salamander', 'fire salamander (retitled)'),
    );
    await age(ws);
    await expectSameAsCold(ws);
    expect(await inode('feed.xml')).not.toBe(listedFeed);
    expect(await feedText()).toContain('fire salamander (retitled)');
    expect(await inode('citations/7.bib')).not.toBe(before.seven);
  });
});

describe('rendering in a build', () => {
  it("makes each file once, a record's file as any other, and lets go of a body of its own once called", () => {
    const authors = [author('jane', 'Jane', 'Doe', 'Oxford')];
    const manuscripts = [manuscript(7, { citation_volume: 1, authors: ['jane'] })];
    const tracker = trackReads({
      journal: JOURNAL,
      authors,
      volumes: [volume(1, 'Volume I', '2020-01-01')],
      manuscripts,
      manuscriptAuthors: resolveAuthors(authors, manuscripts),
    });
    const [bib] = renderCitations(tracker.site);
    const own: OutputFile = { path: 'own.txt', body: () => ['own'] };
    const render = keyOutputs([bib!, own], tracker, undefined, emptyReads(), { once: true });
    expect(render(bib!, 0).join('')).toContain('@article{');
    expect(render(own, 1)).toEqual(['own']);
    expect(() => render(bib!, 0)).toThrow('an output is made once in a build');
    expect(() => render(own, 1)).toThrow('an output is made once in a build');
    expect(() => (own.body as () => unknown)()).toThrow('an output is made once in a build');
  });
});

describe('what the citation files of a manuscript read', () => {
  it('is the same records for each of the three, though the reference is made once for them', () => {
    const authors = [author('ana', 'Ана', 'Петровска', 'Skopje'), author('jane', 'Jane', 'Doe', 'Oxford')];
    const volumes = [volume(1, 'Volume I', '2020-01-01'), volume(2, 'Volume II', '2021-01-01')];
    const manuscripts = [
      manuscript(7, { citation_volume: 2, authors: ['ana', { as_published: 'M. Nikolov' }, 'jane'] }),
      manuscript(8, { citation_volume: 1, authors: ['jane'] }),
    ];
    const tracker = trackReads({
      journal: JOURNAL,
      authors,
      volumes,
      manuscripts,
      manuscriptAuthors: resolveAuthors(authors, manuscripts),
    });
    const reads = renderCitations(tracker.site).map((output) => {
      const body = output.body as () => Iterable<unknown>;
      const inOrder = tracker.track(() => [...body()]).reads;
      return {
        path: output.path,
        reads: inOrder.split('\n').sort(),
        inOrder,
      };
    });
    // In the same order too: the build cache keeps one text of them for the three.
    expect(new Set(reads.slice(0, 3).map((r) => r.inOrder)).size).toBe(1);
    expect(reads.map((r) => r.path)).toEqual([
      'citations/7.bib',
      'citations/7.ris',
      'citations/7.json',
      'citations/8.bib',
      'citations/8.ris',
      'citations/8.json',
    ]);
    // The authors' names only (engine/reuse/field-groups.ts): an institution is in no citation file.
    expect(reads[0]!.reads).toEqual(['m:m-7', 'n:ana', 'n:jane', 'v:volume-2']);
    for (const r of reads.slice(1, 3)) expect(r.reads).toEqual(reads[0]!.reads);
    expect(reads[3]!.reads).toEqual(['m:m-8', 'n:jane', 'v:volume-1']);
    for (const r of reads.slice(4)) expect(r.reads).toEqual(reads[3]!.reads);
  });
});
