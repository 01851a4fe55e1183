/**
 * The build cache: an incremental build must publish exactly what a cold build of the
 * same content publishes. Each test changes the content one way, builds with the cache, builds
 * the same content cold into another folder, and compares the two outputs byte for byte.
 */
import { cp, readFile, readdir, rename, rm, stat, symlink, truncate, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { build } from '../scripts/generator/build.ts';
import type { Problem } from '../scripts/generator/model/problems.ts';
import { projectPaths } from '../scripts/project.ts';
import { age, expectSameAsCold, tree } from './helpers/incremental.ts';
import { createWorkspace, type Workspace } from './helpers/workspace.ts';

let workspace: Workspace | undefined;

/** The fixture, old enough for its stamps to be trusted (helpers/incremental.ts). */
const agedWorkspace = async () => age(await createWorkspace());
afterEach(async () => {
  await workspace?.dispose();
  workspace = undefined;
});

const manuscripts = async (ws: Workspace) =>
  JSON.parse(await readFile(path.join(ws.paths.out, 'api/manuscripts/index.json'), 'utf8')) as {
    id: number;
    citation_title: string;
    authors: string[];
  }[];

describe('incremental builds publish what a cold build publishes', () => {
  it('reuses unchanged outputs and reparses nothing when nothing changed', async () => {
    workspace = await agedWorkspace();
    const first = await workspace.build();
    expect(first.ok).toBe(true);
    expect(first.parsed).toBe(8);
    expect(first.written?.reused).toBe(0);
    const inodes = async () => {
      const byFile = new Map<string, number>();
      for (const file of [
        'api/manuscripts/index.json',
        'api/manuscripts/index.json.br',
        'manuscripts/7.html',
        'media/pdfs/orchids.pdf',
        'sitemap.xml',
      ]) {
        byFile.set(file, (await stat(path.join(workspace!.paths.out, file))).ino);
      }
      return byFile;
    };
    const before = await inodes();
    const second = await expectSameAsCold(workspace);
    expect(second.parsed).toBe(0);
    // Lists, pages, sitemap and PDFs are the previous output's files, left where they are; host and public files are rewritten.
    expect(await inodes()).toEqual(before);
    // The search index's files are taken from the previous output's bytes and written again.
    const searchFiles = (
      await readdir(path.join(workspace.paths.out, 'pagefind'), { recursive: true, withFileTypes: true })
    ).filter((entry) => entry.isFile()).length;
    expect(second.written!.reused).toBeGreaterThan(first.written!.files - 10 - searchFiles);
    // The output is updated in place: its folders stay, and nothing is made for the files reused.
    const folderInode = async () => (await stat(path.join(workspace!.paths.out, 'media/pdfs'))).ino;
    const folder = await folderInode();
    await expectSameAsCold(workspace);
    expect(await folderInode()).toBe(folder);
    expect(await inodes()).toEqual(before);
  });

  it('an edited manuscript reaches the list and its landing page', async () => {
    workspace = await agedWorkspace();
    await workspace.build();
    const file = path.join(workspace.paths.content, 'manuscripts/salamanders.yaml');
    await writeFile(
      file,
      (await readFile(file, 'utf8')).replace(/^citation_title: .*$/m, 'citation_title: Fire salamanders revisited'),
    );
    expect((await expectSameAsCold(workspace)).parsed).toBe(1);
    expect((await manuscripts(workspace)).find((m) => m.id === 7)?.citation_title).toBe('Fire salamanders revisited');
    expect(await readFile(path.join(workspace.paths.out, 'manuscripts/7.html'), 'utf8')).toContain(
      'Fire salamanders revisited',
    );
  });

  it('a deleted manuscript leaves the list, its page and its PDF', async () => {
    workspace = await agedWorkspace();
    await workspace.build();
    await workspace.remove('manuscripts/beetles.json');
    await expectSameAsCold(workspace);
    expect((await manuscripts(workspace)).map((m) => m.id)).not.toContain(12);
    await expect(stat(path.join(workspace.paths.out, 'media/pdfs/beetles.pdf'))).rejects.toThrow();
  });

  it('a renamed author file and the reference that follows it reach every output', async () => {
    workspace = await agedWorkspace();
    await workspace.build();
    const before = (await manuscripts(workspace)).find((m) => m.id === 7)!.authors;
    await rename(
      path.join(workspace.paths.content, 'authors/jane-doe.json'),
      path.join(workspace.paths.content, 'authors/jane-roe.json'),
    );
    await writeFile(
      path.join(workspace.paths.content, 'authors/jane-roe.json'),
      JSON.stringify({ name: 'Jane', surname: 'Roe', institution: 'Natural History Museum, London' }),
    );
    const salamanders = path.join(workspace.paths.content, 'manuscripts/salamanders.yaml');
    await writeFile(salamanders, (await readFile(salamanders, 'utf8')).replace('jane-doe', 'jane-roe'));
    await expectSameAsCold(workspace);
    const after = (await manuscripts(workspace)).find((m) => m.id === 7)!.authors;
    expect(before).toContain('Jane Doe');
    expect(after).toEqual(before.map((a) => (a === 'Jane Doe' ? 'Jane Roe' : a)));
  });

  it('a changed author reaches the manuscripts that refer to it, though their files did not change', async () => {
    workspace = await agedWorkspace();
    await workspace.build();
    await writeFile(
      path.join(workspace.paths.content, 'authors/ana-petrovska.yaml'),
      'name: Ana\nsurname: Petrovska-Nikolova\ninstitution: Ss. Cyril and Methodius University, Skopje\n',
    );
    await expectSameAsCold(workspace);
    expect((await manuscripts(workspace)).find((m) => m.id === 7)?.authors).toContain('Ana Petrovska-Nikolova');
    expect(await readFile(path.join(workspace.paths.out, 'manuscripts/7.html'), 'utf8')).toContain(
      'Petrovska-Nikolova',
    );
  });

  it('a replaced PDF is copied again, and a new mistake is still reported', async () => {
    workspace = await agedWorkspace();
    await workspace.build();
    const pdf = path.join(workspace.paths.content, 'media/pdfs/orchids.pdf');
    await writeFile(pdf, '%PDF-1.4\n% a new version of the file\n%%EOF\n');
    await expectSameAsCold(workspace);
    expect(await readFile(path.join(workspace.paths.out, 'media/pdfs/orchids.pdf'), 'utf8')).toContain('a new version');
    await writeFile(pdf, 'not a pdf at all');
    const result = await workspace.build();
    expect(result.problems.map((p) => p.code)).toEqual(['media/not-pdf']);
  });

  it('an edit that keeps the size and the modification time is still seen when the stamp was too recent to trust', async () => {
    workspace = await createWorkspace();
    const file = path.join(workspace.paths.content, 'manuscripts/salamanders.yaml');
    const original = await readFile(file, 'utf8');
    await writeFile(file, original); // modified just now: its stamp is not trusted by the next build
    const { mtime } = await stat(file);
    await workspace.build();
    await writeFile(file, original.replace(/^citation_title: (.)/m, 'citation_title: X'));
    await utimes(file, mtime, mtime);
    await expectSameAsCold(workspace);
    expect((await manuscripts(workspace)).find((m) => m.id === 7)?.citation_title).toMatch(/^X/);
  });

  it('a file added to, or removed from, the previous output by hand does not survive the next build', async () => {
    workspace = await agedWorkspace();
    await workspace.build();
    await writeFile(path.join(workspace.paths.out, 'media/pdfs/stray.pdf'), '%PDF-1.4 not from the build');
    await rm(path.join(workspace.paths.out, 'manuscripts/7.html'));
    await expectSameAsCold(workspace);
    await expect(stat(path.join(workspace.paths.out, 'media/pdfs/stray.pdf'))).rejects.toThrow();
    expect((await stat(path.join(workspace.paths.out, 'manuscripts/7.html'))).isFile()).toBe(true);
  });

  it('a page and a PDF of the previous output overwritten in place by hand are written again', async () => {
    workspace = await agedWorkspace();
    await workspace.build();
    const page = path.join(workspace.paths.out, 'manuscripts/7.html');
    const pdf = path.join(workspace.paths.out, 'media/pdfs/orchids.pdf');
    await writeFile(page, '<p>edited in dist/</p>');
    await writeFile(pdf, '%PDF-1.4 edited in dist/');
    const warm = await expectSameAsCold(workspace);
    expect(warm.written!.reused).toBeGreaterThan(0);
    expect(await readFile(page, 'utf8')).toContain('citation_title');
    expect(await readFile(pdf, 'utf8')).not.toContain('edited in dist/');
  });

  it('the same files in another content folder are reported at their own paths', async () => {
    workspace = await agedWorkspace();
    expect((await workspace.build()).ok).toBe(true);
    // The same names, bytes and cache: only the folder differs.
    await cp(workspace.paths.content, path.join(workspace.root, 'content-b'), {
      recursive: true,
      preserveTimestamps: true,
    });
    await rm(path.join(workspace.root, 'content-b/authors/jane-doe.json'));
    const moved = await build(projectPaths(workspace.root, { content: 'content-b' }), 'build');
    const unknown = moved.problems.filter((p) => p.code === 'ref/unknown-author');
    expect(unknown.map((p) => `${p.file}:${p.line}`)).toContain('content-b/manuscripts/salamanders.yaml:15');
    expect(unknown.every((p) => p.file.startsWith('content-b/'))).toBe(true);
  });

  it('a changed journal setting invalidates the whole cache', async () => {
    workspace = await agedWorkspace();
    await workspace.build();
    const journal = path.join(workspace.paths.content, 'journal.yaml');
    await writeFile(
      journal,
      (await readFile(journal, 'utf8')).replace('https://media.example.org', 'https://files.example.org'),
    );
    const warm = await expectSameAsCold(workspace);
    expect(warm.written!.reused).toBe(0);
    expect(await readFile(path.join(workspace.paths.out, 'api/manuscripts/index.json'), 'utf8')).toContain(
      'https://files.example.org/media/pdfs/',
    );
  });
});

/**
 * `check` reads the check index (a few fields per file) instead of whole records. What it reports
 * after any change must be exactly what a check without any cache reports, positions included, also
 * for problems found in files that did not change (their positions are read back from the file).
 */
describe('a folder of many pages after one edit', () => {
  it('is updated in place: unchanged pages keep their files, changed ones are replaced, removed ones go', async () => {
    workspace = await agedWorkspace();
    const salamanders = await readFile(path.join(workspace.paths.content, 'manuscripts/salamanders.yaml'), 'utf8');
    for (let id = 100; id < 180; id++) {
      await workspace.write(
        `manuscripts/m${id}.yaml`,
        salamanders.replace(/^id: 7$/m, `id: ${id}`).replace(/^citation_title: .*$/m, `citation_title: Number ${id}`),
      );
    }
    const past = new Date(Date.now() - 3600_000);
    for (const name of await readdir(path.join(workspace.paths.content, 'manuscripts')))
      await utimes(path.join(workspace.paths.content, 'manuscripts', name), past, past);
    expect((await workspace.build()).ok).toBe(true);
    const page = (id: number) => path.join(workspace!.paths.out, `manuscripts/${id}.html`);
    const [folderBefore, unchangedBefore, editedBefore] = await Promise.all([
      stat(path.join(workspace.paths.out, 'manuscripts')),
      stat(page(101)),
      stat(page(150)),
    ]);

    await workspace.write(
      'manuscripts/m150.yaml',
      salamanders.replace(/^id: 7$/m, 'id: 150').replace(/^citation_title: .*$/m, 'citation_title: Edited'),
    );
    await workspace.remove('manuscripts/m160.yaml');
    await expectSameAsCold(workspace);

    expect((await stat(path.join(workspace.paths.out, 'manuscripts'))).ino).toBe(folderBefore.ino);
    expect((await stat(page(101))).ino).toBe(unchangedBefore.ino);
    expect((await stat(page(150))).ino).not.toBe(editedBefore.ino);
    expect(await readFile(page(150), 'utf8')).toContain('Edited');
    await expect(stat(page(160))).rejects.toThrow();
    // Nothing is left beside the output: no staging folder, no journal.
    expect((await readdir(workspace.root)).filter((name) => name.startsWith('.dist-'))).toEqual([]);
  });
});

describe('check after a change reports what a check without the cache reports', () => {
  /** Checks once to write the index (the cache of unchanged files' records), changes, compares. */
  async function checkAfter(change: (ws: Workspace) => Promise<void>, files: Record<string, string> = {}) {
    // Aged after the files are written: a stamp too recent to trust is no match, and such a file
    // would be hashed again rather than checked from the index.
    workspace = await createWorkspace();
    for (const [file, text] of Object.entries(files)) await workspace.write(file, text);
    await age(workspace);
    await workspace.build('check');
    await change(workspace);
    const warm = await workspace.build('check');
    const cold = await build(workspace.paths, 'check', { cache: false });
    // A duplicate id is worded by what the cache knows (which file is new): its place is the same.
    const same = (p: Problem) => (p.code === 'ref/duplicate-id' ? { ...p, message: '', expected: '' } : p);
    expect(warm.problems.map(same)).toEqual(cold.problems.map(same));
    expect(warm.ok).toBe(cold.ok);
    return warm;
  }
  const edit = (ws: Workspace, file: string, from: RegExp | string, to: string) =>
    readFile(path.join(ws.paths.content, file), 'utf8').then((text) => ws.write(file, text.replace(from, to)));

  it('an edited manuscript is the only file parsed again, and nothing is reported', async () => {
    const warm = await checkAfter((ws) =>
      edit(ws, 'manuscripts/salamanders.yaml', /^citation_title: .*$/m, 'citation_title: Revisited'),
    );
    expect(warm.ok).toBe(true);
    expect(warm.parsed).toBe(1);
    expect(warm.counts).toEqual({ authors: 3, volumes: 2, manuscripts: 3, pdfs: 5 });
  });

  it('a PDF that two manuscripts name is counted once, as a build counts it', async () => {
    const warm = await checkAfter((ws) =>
      edit(ws, 'manuscripts/orchids.yaml', 'document: pdfs/orchids.pdf', 'document: pdfs/salamanders.pdf'),
    );
    expect(warm.ok).toBe(true);
    expect(warm.counts).toEqual({ authors: 3, volumes: 2, manuscripts: 3, pdfs: 4 });
    expect((await workspace!.build('build')).counts).toEqual(warm.counts);
  });

  it('a deleted author is reported, on its line, in the unchanged manuscripts that name it', async () => {
    const warm = await checkAfter((ws) => ws.remove('authors/jane-doe.json'));
    expect(warm.parsed).toBe(0);
    const unknown = warm.problems.filter((p) => p.code === 'ref/unknown-author');
    expect(unknown.map((p) => `${p.file}:${p.line}:${p.column} ${p.field}`)).toContain(
      'content/manuscripts/salamanders.yaml:15:5 authors[1]',
    );
  });

  it('an unknown author named by an unchanged manuscript stays reported, and an author made invalid still exists', async () => {
    const warm = await checkAfter(
      async (ws) => {
        await edit(ws, 'manuscripts/salamanders.yaml', /^citation_title: .*$/m, 'citation_title: Revisited');
        await ws.write('authors/marko-nikolov.yaml', 'name: Marko\n');
      },
      {
        'manuscripts/unknown-author.yaml':
          'id: 41\ncitation_volume: 1\ncitation_title: Named by no file\ncitation_date: 2021-05-01\n' +
          'abstract: <p>Text.</p>\nkeywords:\n  - records\ndocument: pdfs/orchids.pdf\nauthors:\n  - marko-nikolov\n  - nobody-at-all\nsection: Zoology\n',
      },
    );
    // Without the check index, the same three problems (checkAfter); with it, the manuscript that
    // names nobody-at-all is checked from the index's columns.
    expect(warm.parsed).toBe(2);
    expect(warm.problems.map((p) => `${p.code} ${p.file}:${p.line} ${p.field}`).sort()).toEqual([
      'ref/unknown-author content/manuscripts/unknown-author.yaml:11 authors[1]',
      'schema/missing content/authors/marko-nikolov.yaml:1 institution',
      'schema/missing content/authors/marko-nikolov.yaml:1 surname',
    ]);
  });

  it('a manuscript touched but unchanged is checked from its record, beside those checked from the index columns', async () => {
    const warm = await checkAfter(async (ws) => {
      await ws.remove('authors/jane-doe.json');
      const now = new Date();
      await utimes(path.join(ws.paths.content, 'manuscripts/salamanders.yaml'), now, now);
    });
    expect(warm.parsed).toBe(0);
    const unknown = warm.problems.filter((p) => p.code === 'ref/unknown-author');
    expect(unknown.map((p) => `${p.file}:${p.line}:${p.column} ${p.field}`)).toContain(
      'content/manuscripts/salamanders.yaml:15:5 authors[1]',
    );
  });

  it('a deleted volume, a duplicated id and a deleted PDF are reported in the files that did not change', async () => {
    const warm = await checkAfter(async (ws) => {
      await ws.remove('volumes/volume-ii.yaml');
      await ws.remove('media/pdfs/orchids.pdf');
      const salamanders = await readFile(path.join(ws.paths.content, 'manuscripts/salamanders.yaml'), 'utf8');
      await ws.write('manuscripts/salamanders-copy.yaml', salamanders);
    });
    const codes = new Set(warm.problems.map((p) => p.code));
    expect([...codes].sort()).toEqual(['media/missing', 'ref/duplicate-id', 'ref/unknown-volume']);
    expect(warm.problems.every((p) => p.line > 0)).toBe(true);
  });

  it('an invalid file stays reported while unchanged, and is forgotten once fixed', async () => {
    await checkAfter(async () => {}, { 'authors/broken.yaml': 'name: Ana\nsurname: [unclosed\n' });
    const again = await workspace!.build('check');
    expect(again.parsed).toBe(0);
    expect(again.problems.map((p) => p.file)).toEqual(['content/authors/broken.yaml']);
    await workspace!.write('authors/broken.yaml', 'name: Ana\nsurname: Broken\ninstitution: Skopje\n');
    expect((await workspace!.build('check')).ok).toBe(true);
  });

  it('a PDF folder replaced by a link to a folder outside the content is reported, as without the cache', async () => {
    const warm = await checkAfter(async (ws) => {
      const outside = path.join(ws.root, 'outside-pdfs');
      await rename(path.join(ws.paths.content, 'media/pdfs'), outside);
      await symlink(outside, path.join(ws.paths.content, 'media/pdfs'));
    });
    expect(warm.problems.length).toBeGreaterThan(0);
    expect(new Set(warm.problems.map((p) => p.code))).toEqual(new Set(['media/outside-content']));
  });

  it('a manuscript whose authors are kept as published, or whose PDF is remote, is checked from the index too', async () => {
    const warm = await checkAfter((ws) => ws.remove('authors/marko-nikolov.yaml'), {
      'manuscripts/as-published.yaml':
        'id: 40\ncitation_volume: 1\ncitation_title: Kept as published\ncitation_date: 2021-05-01\n' +
        'abstract: <p>Text.</p>\nkeywords: []\ndocument: https://media.example.org/media/pdfs/remote.pdf\n' +
        'authors:\n  - as_published: A. Author\n  - marko-nikolov\nsection: Zoology\n',
    });
    expect(warm.problems.map((p) => `${p.file}:${p.line} ${p.field}`)).toContain(
      'content/manuscripts/as-published.yaml:10 authors[1]',
    );
  });

  it('a manuscript naming authors as published between unknown and deleted keys is checked from the index columns', async () => {
    const warm = await checkAfter((ws) => ws.remove('authors/marko-nikolov.yaml'), {
      'manuscripts/as-published.yaml':
        'id: 40\ncitation_volume: 1\ncitation_title: Kept as published\ncitation_date: 2021-05-01\n' +
        'abstract: <p>Text.</p>\nkeywords: [text]\ndocument: pdfs/orchids.pdf\nauthors:\n  - as_published: A. Author\n' +
        '  - marko-nikolov\n  - nobody-at-all\n  - as_published: B. Author\n  - ana-petrovska\nsection: Zoology\n',
    });
    expect(warm.parsed).toBe(0);
    expect(
      warm.problems.filter((p) => p.file.endsWith('as-published.yaml')).map((p) => `${p.line} ${p.field}`),
    ).toEqual(['10 authors[1]', '11 authors[2]']);
  });
});

describe('the cache is safe to damage or delete', () => {
  for (const damage of ['truncated', 'overwritten', 'one byte flipped', 'deleted'] as const) {
    it(`a ${damage} cache file does not break the build`, async () => {
      workspace = await createWorkspace();
      await workspace.build();
      const salamanders = path.join(workspace.paths.content, 'manuscripts/salamanders.yaml');
      await writeFile(
        salamanders,
        (await readFile(salamanders, 'utf8')).replace(/^citation_title: .*$/m, 'citation_title: After the damage'),
      );
      const files = (await readdir(workspace.paths.cache)).filter((f) => f.endsWith('.bin'));
      expect(files.sort()).toEqual([
        'check-index.bin',
        'lists.bin',
        'media.bin',
        'outputs.bin',
        'reads.bin',
        'search-index.bin',
      ]);
      for (const name of files) {
        const file = path.join(workspace.paths.cache, name);
        const bytes = await readFile(file);
        if (damage === 'truncated') await truncate(file, Math.floor(bytes.length / 2));
        if (damage === 'overwritten') await writeFile(file, Buffer.alloc(bytes.length, 0x41));
        if (damage === 'one byte flipped') {
          bytes[bytes.length - 3] = bytes[bytes.length - 3]! ^ 0xff;
          await writeFile(file, bytes);
        }
        if (damage === 'deleted') await rm(file);
      }
      await expectSameAsCold(workspace);
      expect((await manuscripts(workspace)).find((m) => m.id === 7)?.citation_title).toBe('After the damage');
    });
  }

  it('npm run clean removes the output and the cache', async () => {
    workspace = await createWorkspace();
    expect((await workspace.cli('build')).code).toBe(0);
    expect((await stat(workspace.paths.cache)).isDirectory()).toBe(true);
    const clean = await workspace.cli('clean');
    expect(clean.code).toBe(0);
    await expect(stat(workspace.paths.out)).rejects.toThrow();
    await expect(stat(workspace.paths.cache)).rejects.toThrow();
  });
});

describe('worker threads', () => {
  it('loading on worker threads gives the same output and the same problems as loading in-thread', async () => {
    workspace = await createWorkspace({ 'authors/broken.yaml': 'name: [unclosed\n' });
    const inThread = await build(workspace.paths, 'check', { threads: 0, cache: false });
    const onWorkers = await build(workspace.paths, 'check', { threads: 2, cache: false });
    expect(inThread.problems.length).toBeGreaterThan(0);
    expect(onWorkers.problems).toEqual(inThread.problems);
    await workspace.remove('authors/broken.yaml');
    const paths = projectPaths(workspace.root, { out: 'dist-workers', cache: '.cache-workers' });
    expect((await build(paths, 'build', { threads: 2 })).ok).toBe(true);
    expect((await build(workspace.paths, 'build', { threads: 0 })).ok).toBe(true);
    expect(await tree(paths.out)).toEqual(await tree(workspace.paths.out));
  });
});
