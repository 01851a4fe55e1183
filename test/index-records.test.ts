/**
 * A build after an edit restores unchanged records from the check index: authors whole,
 * manuscripts without their long fields, which are read from the file again only for the outputs
 * that are rendered again (reread.ts). Each test changes the content one way and expects exactly
 * what a cold build of the same content publishes.
 */
import { readFile, utimes } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cacheFingerprint, readFrames } from '../scripts/generator/engine/cache/cache.ts';
import { INDEX_FILE, type IndexFrame } from '../scripts/generator/engine/cache/check-index.ts';
import { contentHash } from '../scripts/generator/engine/load/load-job.ts';
import { rereadManuscript } from '../scripts/generator/engine/load/reread.ts';
import { age, expectSameAsCold } from './helpers/incremental.ts';
import { createWorkspace, type Workspace } from './helpers/workspace.ts';

let workspace: Workspace | undefined;
afterEach(async () => {
  await workspace?.dispose();
  workspace = undefined;
});

const edit = (ws: Workspace, file: string, from: RegExp | string, to: string) =>
  readFile(path.join(ws.paths.content, file), 'utf8').then((text) => ws.write(file, text.replace(from, to)));

/** Sixty more authors, all named by one more manuscript, so that a change can reach past the rewrite threshold. */
function manyAuthors(): Record<string, string> {
  const files: Record<string, string> = {};
  const keys: string[] = [];
  for (let i = 0; i < 60; i++) {
    const key = `author-${String(i).padStart(2, '0')}`;
    keys.push(key);
    files[`authors/${key}.yaml`] =
      `name: Given${i}\nsurname: Family${i}\ninstitution: Institute ${i % 7}, Skopje\n${i % 5 === 0 ? `order: ${i + 1}\n` : ''}`;
  }
  files['manuscripts/many.yaml'] =
    'id: 41\ncitation_volume: 1\ncitation_title: Many hands\ncitation_date: 2021-06-01\n' +
    'abstract: <p>Many <em>hands</em> make light work.</p>\nkeywords: [hands, work]\ndocument: pdfs/many.pdf\n' +
    `authors:\n${keys.map((key) => `  - ${key}\n`).join('')}section: Botany\norder: 2\n`;
  files['media/pdfs/many.pdf'] = '%PDF-1.4\n% many hands\n%%EOF\n';
  return files;
}

describe('a build that restores unchanged records from the check index', () => {
  it('renders a changed author into the pages and list items of unchanged manuscripts, with their long fields', async () => {
    workspace = await createWorkspace(manyAuthors());
    await age(workspace);
    expect((await workspace.build()).ok).toBe(true);
    await edit(workspace, 'authors/author-07.yaml', 'Family7', 'Family-Seven');
    const warm = await expectSameAsCold(workspace);
    expect(warm.parsed).toBe(1);
    const page = await readFile(path.join(workspace.paths.out, 'manuscripts/41.html'), 'utf8');
    expect(page).toContain('Family-Seven');
    expect(page).toContain('Many <em>hands</em> make light work.');
  });

  it('reads the long fields of a manuscript file touched but unchanged, when its author changed', async () => {
    workspace = await createWorkspace();
    await age(workspace);
    expect((await workspace.build()).ok).toBe(true);
    const now = new Date();
    await utimes(path.join(workspace.paths.content, 'manuscripts/salamanders.yaml'), now, now);
    await edit(workspace, 'authors/ana-petrovska.yaml', /^surname: .*$/m, 'surname: Petrovska-Nikolova');
    await expectSameAsCold(workspace);
    expect(await readFile(path.join(workspace.paths.out, 'manuscripts/7.html'), 'utf8')).toContain('Пакошево');
  });

  it('publishes what a cold build does after a check rewrote the index from restored records', async () => {
    workspace = await createWorkspace(manyAuthors());
    await age(workspace);
    expect((await workspace.build()).ok).toBe(true);
    // More changed files than the index keeps stale (build.ts, STALE_ENTRIES_KEPT): the check
    // rewrites the index, mostly from records it restored from the index itself.
    for (let i = 0; i < 55; i++)
      await edit(workspace, `authors/author-${String(i).padStart(2, '0')}.yaml`, /Institute \d/, `Institute ${i % 3}`);
    await age(workspace);
    expect((await workspace.build('check')).ok).toBe(true);
    await edit(
      workspace,
      'manuscripts/salamanders.yaml',
      /^citation_title: .*$/m,
      'citation_title: Fire salamanders revisited',
    );
    const warm = await expectSameAsCold(workspace);
    expect(warm.parsed).toBe(1);
  });

  it('reads the long fields of a manuscript kept whole in the index (authors kept as published, a remote PDF)', async () => {
    workspace = await createWorkspace({
      'manuscripts/as-published.yaml':
        'id: 40\ncitation_volume: 1\ncitation_title: Kept as published\ncitation_date: 2021-05-01\n' +
        'abstract: <p>Text <strong>kept</strong>.</p>\nkeywords: [kept]\ndocument: https://media.example.org/media/pdfs/remote.pdf\n' +
        'authors:\n  - as_published: A. Author\n  - marko-nikolov\nsection: Zoology\n',
    });
    await age(workspace);
    expect((await workspace.build()).ok).toBe(true);
    await edit(workspace, 'authors/marko-nikolov.yaml', /^surname: .*$/m, 'surname: Nikolovski');
    await expectSameAsCold(workspace);
    expect(await readFile(path.join(workspace.paths.out, 'manuscripts/40.html'), 'utf8')).toContain(
      'Text <strong>kept</strong>.',
    );
  });
});

describe('a manuscript whose authors are kept as published', () => {
  // An imported journal names an author as published in about one manuscript in eight: the columns
  // hold them, so that a check makes no record of theirs and the index holds none whole.
  const asPublished =
    'id: 40\ncitation_volume: 1\ncitation_title: Kept as published\ncitation_date: 2021-05-01\n' +
    'abstract: <p>Text <strong>kept</strong>.</p>\nkeywords: [kept]\ndocument: pdfs/orchids.pdf\n' +
    'authors:\n  - as_published: A. Author\n  - marko-nikolov\n  - as_published: "B.\\tAuthor"\n' +
    '  - ana-petrovska\n  - as_published: C. Author\nsection: Zoology\n';

  /** The manuscripts the check index keeps whole rather than in its columns, by file. */
  async function keptWhole(ws: Workspace): Promise<string[]> {
    const fingerprint = cacheFingerprint(await readFile(path.join(ws.paths.content, 'journal.yaml')));
    const frames = readFrames<IndexFrame>(path.join(ws.paths.cache, INDEX_FILE), fingerprint) ?? [];
    const manuscripts = frames.find((frame) => frame.collection === 'manuscripts');
    return (manuscripts?.whole ?? []).map(([, , loaded]) => loaded.record?.origin.file ?? '');
  }

  it('is held in the columns of the index when its PDF is in the content, and restored with its authors in order', async () => {
    workspace = await createWorkspace({
      'manuscripts/as-published.yaml': asPublished.replace('"B.\\tAuthor"', 'B. Author'),
    });
    await age(workspace);
    expect((await workspace.build()).ok).toBe(true);
    expect(await keptWhole(workspace)).toEqual([]);
    await edit(workspace, 'authors/marko-nikolov.yaml', /^surname: .*$/m, 'surname: Nikolovski');
    await expectSameAsCold(workspace);
    const record = JSON.parse(await readFile(path.join(workspace.paths.out, 'api/manuscripts/40.json'), 'utf8')) as {
      authors: string[];
    };
    expect(record.authors[0]).toBe('A. Author');
    expect(record.authors[2]).toBe('B. Author');
    expect(record.authors[4]).toBe('C. Author');
    expect(record.authors[1]).toContain('Nikolovski');
  });

  it('is kept whole when an author as published holds a tab, which the columns use between authors', async () => {
    workspace = await createWorkspace({ 'manuscripts/as-published.yaml': asPublished });
    await age(workspace);
    expect((await workspace.build('check')).ok).toBe(true);
    expect(await keptWhole(workspace)).toEqual(['content/manuscripts/as-published.yaml']);
  });
});

describe('reading a manuscript file again', () => {
  it('refuses a file whose bytes are no longer those the index recorded', async () => {
    workspace = await createWorkspace();
    const file = 'content/manuscripts/salamanders.yaml';
    const absolutePath = path.join(workspace.root, file);
    const source = { collection: 'manuscripts' as const, key: 'salamanders', file, absolutePath };
    const hash = contentHash(await readFile(absolutePath));
    expect(rereadManuscript({ source, hash }).abstract).toContain('Пакошево');
    await edit(workspace, 'manuscripts/salamanders.yaml', /^citation_title: .*$/m, 'citation_title: Changed meanwhile');
    expect(() => rereadManuscript({ source, hash })).toThrow(
      `${file} changed while the build was running; build again`,
    );
  });
});
