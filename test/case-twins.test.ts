/**
 * Names that differ only in upper/lower case (`zz-twin.yaml` beside `ZZ-Twin.yaml`, `A.pdf` beside
 * `a.pdf`) are one file on a disk or host that ignores case (a Windows or macOS checkout, some
 * object stores and CDNs): one would silently win. Each such pair is refused at both files, in
 * `check`, in a build (cold or after an edit, nothing written) and in `dev`.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openLiveBuild } from '../scripts/generator/live-build.ts';
import { formatProblem, type Problem } from '../scripts/generator/model/problems.ts';
import { caseTwins, foldCase } from '../scripts/generator/stages/case-fold.ts';
import { createWorkspace, type Workspace } from './helpers/workspace.ts';

let workspace: Workspace | undefined;
afterEach(async () => {
  await workspace?.dispose();
  workspace = undefined;
});

const AUTHOR = 'name: Zoe\nsurname: Twin\ninstitution: Somewhere.\n';
const where = (p: Problem) => `${p.code} ${formatProblem(p)}`;

describe('names folded as a disk that ignores case folds them', () => {
  it('are one when they differ in case, in the form of a letter, or in how an accent is encoded', () => {
    const one = [
      ['ZZ-Twin', 'zz-twin'],
      ['\u03a3\u03a3', '\u03c3\u03c2'],
      ['\u017ftop', 'STOP'],
      ['\u0131d', 'ID'],
      ['cafe\u0301', 'CAF\u00c9'],
    ];
    for (const [a, b] of one) expect(foldCase(a!)).toBe(foldCase(b!));
    expect(foldCase('ana-petrovska.yaml')).toBe('ana-petrovska.yaml');
    expect(foldCase('a.pdf')).not.toBe(foldCase('a_.pdf'));
  });

  it('find every group written in more than one way, and none among names written alike', () => {
    const names = ['b', 'A', 'a', 'c', 'a', 'B', 'C\u0327', 'd'];
    expect(caseTwins(names.length, (i) => names[i]!)).toEqual([
      [0, 5],
      [1, 2, 4],
    ]);
    expect(caseTwins(3, () => 'same')).toEqual([]);
  });
});

describe('content files whose names differ only in case', () => {
  it('two authors are refused at both files, in check and in a build, and nothing is written', async () => {
    workspace = await createWorkspace({ 'authors/zz-twin.yaml': AUTHOR, 'authors/ZZ-Twin.yaml': AUTHOR });
    for (const mode of ['check', 'build'] as const) {
      const result = await workspace.build(mode);
      expect(result.ok).toBe(false);
      const lines = result.problems.map(where);
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(
        /^ref\/duplicate-key content\/authors\/ZZ-Twin\.yaml: .*content\/authors\/zz-twin\.yaml/,
      );
      expect(lines[1]).toMatch(
        /^ref\/duplicate-key content\/authors\/zz-twin\.yaml: .*content\/authors\/ZZ-Twin\.yaml/,
      );
      for (const line of lines) {
        expect(line).toContain('only in upper/lower case');
        expect(line).toMatch(/Windows.*macOS/);
        expect(line).toContain('rename one');
      }
    }
    expect(existsSync(workspace.paths.out)).toBe(false);
  });

  it('are refused again by a build that reuses the cache, and after an edit of one of them', async () => {
    workspace = await createWorkspace();
    expect((await workspace.build()).ok).toBe(true);
    await workspace.write('authors/Ana-Petrovska.yaml', AUTHOR);
    const index = await readFile(path.join(workspace.paths.out, 'api/authors/index.json'), 'utf8');
    for (let run = 0; run < 2; run++) {
      const result = await workspace.build();
      expect(result.problems.map((p) => p.file)).toEqual([
        'content/authors/Ana-Petrovska.yaml',
        'content/authors/ana-petrovska.yaml',
      ]);
      await workspace.write('authors/Ana-Petrovska.yaml', `${AUTHOR}orcid: 0000-0002-1825-0097\n`);
    }
    // The site built before stays as it was.
    expect(await readFile(path.join(workspace.paths.out, 'api/authors/index.json'), 'utf8')).toBe(index);
  });

  it('two manuscripts with different ids are refused too: a checkout that ignores case holds one of them', async () => {
    workspace = await createWorkspace();
    const orchids = await readFile(path.join(workspace.paths.content, 'manuscripts/orchids.yaml'), 'utf8');
    await workspace.write('manuscripts/Orchids.yaml', orchids.replace('id: 3', 'id: 9'));
    const result = await workspace.build('check');
    expect(result.problems.map((p) => `${p.code} ${p.file}`)).toEqual([
      'ref/duplicate-key content/manuscripts/Orchids.yaml',
      'ref/duplicate-key content/manuscripts/orchids.yaml',
    ]);
  });

  it('keys that differ in case and in extension are refused: an author is published at its key', async () => {
    workspace = await createWorkspace({
      'authors/zz-twin.yaml': AUTHOR,
      'authors/ZZ-TWIN.json': '{"name":"Z","surname":"T","institution":"S."}',
    });
    const result = await workspace.build('check');
    expect(result.problems.map((p) => `${p.code} ${p.file}`)).toEqual([
      'ref/duplicate-key content/authors/ZZ-TWIN.json',
      'ref/duplicate-key content/authors/zz-twin.yaml',
    ]);
  });
});

describe('PDFs whose paths differ only in case', () => {
  it('are refused at the field of every record that names one, with its line and column', async () => {
    workspace = await createWorkspace();
    const { content } = workspace.paths;
    const pdf = await readFile(path.join(content, 'media/pdfs/orchids.pdf'));
    await workspace.write('media/pdfs/Orchids.pdf', pdf);
    const salamanders = await readFile(path.join(content, 'manuscripts/salamanders.yaml'), 'utf8');
    await workspace.write(
      'manuscripts/salamanders.yaml',
      salamanders.replace('pdfs/salamanders.pdf', 'pdfs/Orchids.pdf'),
    );
    for (const mode of ['check', 'build'] as const) {
      const result = await workspace.build(mode);
      expect(result.ok).toBe(false);
      const lines = result.problems.map(where);
      expect(lines).toEqual([
        expect.stringMatching(
          /^output\/conflict content\/manuscripts\/orchids\.yaml:10:11 document: .*pdfs\/Orchids\.pdf/,
        ),
        expect.stringMatching(
          /^output\/conflict content\/manuscripts\/salamanders\.yaml:12:11 document: .*pdfs\/orchids\.pdf/,
        ),
      ]);
      for (const line of lines) expect(line).toContain('only in upper/lower case');
    }
    expect(existsSync(workspace.paths.out)).toBe(false);
  });
});

describe('npm run dev', () => {
  it('refuses a twin added while it runs, and still after the twin is edited', async () => {
    workspace = await createWorkspace();
    const live = await openLiveBuild(workspace.paths);
    expect(live.site.ok).toBe(true);
    const twin = path.join(workspace.paths.content, 'authors/Ana-Petrovska.yaml');
    await workspace.write('authors/Ana-Petrovska.yaml', AUTHOR);
    await live.update([twin]);
    const added = live.site;
    expect(added.ok).toBe(false);
    if (!added.ok) expect(added.problems.map((p) => p.file)).toContain('content/authors/Ana-Petrovska.yaml');
    await workspace.write('authors/Ana-Petrovska.yaml', `${AUTHOR}orcid: 0000-0002-1825-0097\n`);
    await live.update([twin]);
    const edited = live.site;
    expect(edited.ok).toBe(false);
    if (!edited.ok)
      expect(edited.problems.map((p) => `${p.file} ${p.message.includes('only in upper/lower case')}`)).toEqual([
        'content/authors/Ana-Petrovska.yaml true',
        'content/authors/ana-petrovska.yaml true',
      ]);
  });
});
