import { readFile, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { build } from '../scripts/generator/build.ts';
import { createWorkspace, type Workspace } from './helpers/workspace.ts';
import { PUBLISHED_MANUSCRIPT_KEYS } from './helpers/records.ts';

let workspace: Workspace | undefined;
afterEach(async () => {
  await workspace?.dispose();
  workspace = undefined;
});

const readJson = async (ws: Workspace, list: string) =>
  JSON.parse(await readFile(path.join(ws.paths.out, 'api', list, 'index.json'), 'utf8'));

describe('build of a valid journal', () => {
  it("writes the three lists as bare arrays with the contract's exact keys, in order", async () => {
    workspace = await createWorkspace();
    const result = await workspace.build();
    expect(result.problems).toEqual([]);
    expect(result.ok).toBe(true);

    const authors = await readJson(workspace, 'authors');
    expect(Array.isArray(authors)).toBe(true);
    for (const a of authors) expect(Object.keys(a)).toEqual(['name', 'surname', 'institution']);

    const volumes = await readJson(workspace, 'volumes');
    for (const v of volumes) {
      expect(Object.keys(v)).toEqual([
        'citation_language',
        'citation_journal_title',
        'udc',
        'citation_issn',
        'first_page',
        'last_page',
        'pdf',
        'full_date',
      ]);
    }
    const manuscripts = await readJson(workspace, 'manuscripts');
    for (const m of manuscripts) {
      expect(Object.keys(m)).toEqual([...PUBLISHED_MANUSCRIPT_KEYS]);
      expect(typeof m.id).toBe('number');
      expect(typeof m.citation_volume).toBe('number');
      for (const name of m.authors) expect(typeof name).toBe('string');
    }
  });

  it('publishes exact values: ids as numbers, strings kept as typed, authors as "<name> <surname>"', async () => {
    workspace = await createWorkspace();
    await workspace.build();
    const volumes = await readJson(workspace, 'volumes');
    // Ordered by id: "Volume II" has id 1 in the fixture.
    expect(volumes.map((v: { citation_journal_title: string }) => v.citation_journal_title)).toEqual([
      'Volume II',
      'Volume I',
    ]);
    expect(volumes[0]).toEqual({
      citation_language: 'English',
      citation_journal_title: 'Volume II',
      udc: '57 59',
      citation_issn: '1857 - 9639',
      first_page: '1',
      last_page: '96',
      pdf: 'https://media.example.org/media/volumes/pdfs/2022/volume-ii.pdf',
      full_date: '2022-06-30',
    });
    const manuscripts = await readJson(workspace, 'manuscripts');
    expect(manuscripts.map((m: { id: number }) => m.id)).toEqual([3, 7, 12]);
    const salamanders = manuscripts.find((m: { id: number }) => m.id === 7);
    expect(salamanders).toMatchObject({
      citation_language: 'English',
      udc: '',
      citation_issn: '1857 - 9639',
      citation_date: '2021-03-04',
      citation_volume: 2,
      keywords: 'Salamandra salamandra, distribution, Macedonia.',
      document: 'https://media.example.org/media/pdfs/salamanders.pdf',
      authors: ['Ана Петровска', 'Jane Doe'],
      section: 'Zoology',
    });
    // A YAML scalar that looks like a number stays the text the editor typed.
    expect(salamanders.abstract).toContain('at 1.10 km');
    const orchids = manuscripts.find((m: { id: number }) => m.id === 3);
    expect(orchids).toMatchObject({
      citation_language: 'Macedonian',
      udc: '582.594',
      citation_issn: '',
      keywords: 'Orchidaceae, checklist, Galičica.',
    });
  });

  it('writes JSON as the original did: compact, raw UTF-8, U+2028 escaped', async () => {
    workspace = await createWorkspace();
    await workspace.build();
    const bytes = await readFile(path.join(workspace.paths.out, 'api/manuscripts/index.json'), 'utf8');
    expect(bytes.startsWith('[{"id":3,"citation_language":"Macedonian",')).toBe(true);
    expect(bytes).toContain('Line one\\u2028line two with 𝔘nicode.');
    expect(bytes).not.toContain('\u2028');
    expect(bytes).toContain('"authors":["Ана Петровска","Jane Doe"]');
    expect(bytes).not.toMatch(/\n/);
  });

  it('copies each referenced PDF to the path its URL names, and the public files', async () => {
    workspace = await createWorkspace();
    await workspace.build();
    const pdf = await readFile(path.join(workspace.paths.out, 'media/pdfs/orchids.pdf'));
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await stat(path.join(workspace.paths.out, 'media/volumes/pdfs/2021/volume-i.pdf'))).isFile()).toBe(true);
    expect((await readdir(workspace.paths.out)).sort()).toEqual([
      '.htaccess',
      '404.html',
      '405.html',
      '_headers',
      '_redirects',
      'api',
      'citations',
      'feed.xml',
      'index.html',
      'manuscripts',
      'media',
      'pagefind',
      'robots.txt',
      'sitemap.xml',
      'volumes',
    ]);
  });

  it('copies PDFs by default, so rewriting a content PDF in place leaves the output as built', async () => {
    workspace = await createWorkspace();
    await workspace.build();
    const source = path.join(workspace.paths.content, 'media/pdfs/orchids.pdf');
    const published = path.join(workspace.paths.out, 'media/pdfs/orchids.pdf');
    const built = await readFile(published);
    await writeFile(source, '%PDF-1.4\n% rewritten in place after the build\n');
    expect(await readFile(published)).toEqual(built);
    expect((await stat(published)).ino).not.toBe((await stat(source)).ino);
  });

  it('hard-links PDFs with --link-media (a CI build from a fresh checkout), with the same bytes', async () => {
    workspace = await createWorkspace();
    const result = await build(workspace.paths, 'build', { linkMedia: true });
    expect(result.ok).toBe(true);
    const source = path.join(workspace.paths.content, 'media/pdfs/orchids.pdf');
    const published = path.join(workspace.paths.out, 'media/pdfs/orchids.pdf');
    expect((await stat(published)).ino).toBe((await stat(source)).ino);
    expect(await readFile(published)).toEqual(await readFile(source));
  });
});
