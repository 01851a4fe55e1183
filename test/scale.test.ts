/**
 * At test size: the report for ten thousand broken files, and the synthetic journal that
 * the benchmark (and later load tests) build on. Timings are the benchmark's business, never asserted here.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generateSyntheticJournal } from '../scripts/bench/synthetic-journal.ts';
import { build } from '../scripts/generator/build.ts';
import { projectPaths } from '../scripts/project.ts';
import { createWorkspace, type Workspace } from './helpers/workspace.ts';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const task of cleanup.splice(0)) await task();
});

describe('ten thousand invalid files', () => {
  it('give one report: grouped by file, capped, with the rest counted by file and by kind', async () => {
    const workspace: Workspace = await createWorkspace();
    cleanup.push(() => workspace.dispose());
    // Each file misses two required fields: 20,000 problems in 10,000 files.
    for (let start = 0; start < 10_000; start += 500) {
      await Promise.all(
        Array.from({ length: 500 }, (_, i) =>
          workspace.write(`authors/broken-${String(start + i).padStart(5, '0')}.yaml`, `name: Author ${start + i}\n`),
        ),
      );
    }
    const { code, stdout, stderr } = await workspace.cli('check');
    expect(code).toBe(1);
    expect(stdout).toBe('');
    const lines = stderr.trimEnd().split('\n');
    expect(lines.length).toBeLessThan(320);
    // Same position: by field name.
    expect(lines[0]).toBe(
      'content/authors/broken-00000.yaml:1:1 institution: is missing (the institution, optionally with its postal address)',
    );
    expect(lines[1]).toBe('content/authors/broken-00000.yaml:1:1 surname: is missing (the family name)');
    expect(lines[2]).toBe('');
    expect(lines[3]).toMatch(/^content\/authors\/broken-00001\.yaml:1:1 institution: /);
    expect(stderr).toContain(
      '\n9900 more files have problems not shown. By kind: 20000 schema/missing.\n... and 19800 more problems not shown.\n',
    );
    expect(stderr).toContain('20000 problems in 10000 files.');
    // The cached results give the same report without parsing again.
    const again = await workspace.cli('check');
    expect(again.stderr).toBe(stderr);
  }, 180_000);
});

describe('the synthetic journal', () => {
  it('is the same bytes every time, and valid', async () => {
    const [a, b] = [
      await mkdtemp(path.join(os.tmpdir(), 'synthetic-a-')),
      await mkdtemp(path.join(os.tmpdir(), 'synthetic-b-')),
    ];
    cleanup.push(
      () => rm(a, { recursive: true, force: true }),
      () => rm(b, { recursive: true, force: true }),
    );
    const first = await generateSyntheticJournal(a, { manuscripts: 40 });
    await generateSyntheticJournal(b, { manuscripts: 40 });
    expect(first).toMatchObject({ manuscripts: 40, authors: 60, volumes: 5, pdfs: 45, generated: true });
    const files = (await readdir(path.join(a, 'content'), { recursive: true })).sort();
    expect(files).toEqual((await readdir(path.join(b, 'content'), { recursive: true })).sort());
    for (const file of files.filter((f) => /\.(yaml|pdf)$/.test(f))) {
      expect(await readFile(path.join(a, 'content', file)), file).toEqual(
        await readFile(path.join(b, 'content', file)),
      );
    }
    // Asked again with the same parameters, it reuses what is there.
    expect((await generateSyntheticJournal(a, { manuscripts: 40 })).generated).toBe(false);

    const result = await build(projectPaths(a), 'build');
    expect(result.problems).toEqual([]);
    expect(result.counts).toEqual({ authors: 60, volumes: 5, manuscripts: 40, pdfs: 45 });
    const manuscripts = JSON.parse(await readFile(path.join(a, 'dist/api/manuscripts/index.json'), 'utf8')) as {
      abstract: string;
      authors: string[];
    }[];
    for (const m of manuscripts) {
      expect(m.abstract.length).toBeGreaterThanOrEqual(600);
      expect(m.abstract.length).toBeLessThan(2800);
      expect(m.abstract).toMatch(/^<p>.*<\/p>$/);
    }
    const all = JSON.stringify(manuscripts);
    expect(all).toMatch(/<em>[A-Z][a-z]+ [a-z]+<\/em>/); // Latin species names in italics
    expect(all).toMatch(/[а-я]/); // Cyrillic
    expect(all).toMatch(/[µ°±–“”]/);
  });

  it("keeps the plain shape's bytes for the same seed", async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'synthetic-plain-'));
    cleanup.push(() => rm(root, { recursive: true, force: true }));
    await generateSyntheticJournal(root, { manuscripts: 40, shape: 'plain' });
    // The digest of every file the plain shape wrote before the imported shape existed.
    expect(await digest(path.join(root, 'content'))).toBe(PLAIN_40_DIGEST);
  });

  it('has an imported shape: the same bytes every time, valid, and shaped as an import writes', async () => {
    const [a, b] = [
      await mkdtemp(path.join(os.tmpdir(), 'synthetic-imported-a-')),
      await mkdtemp(path.join(os.tmpdir(), 'synthetic-imported-b-')),
    ];
    cleanup.push(
      () => rm(a, { recursive: true, force: true }),
      () => rm(b, { recursive: true, force: true }),
    );
    const first = await generateSyntheticJournal(a, { manuscripts: 200, shape: 'imported' });
    await generateSyntheticJournal(b, { manuscripts: 200, shape: 'imported' });
    expect(first).toMatchObject({ manuscripts: 200, authors: 240, volumes: 8, pdfs: 208, generated: true });
    expect(await digest(path.join(a, 'content'))).toBe(await digest(path.join(b, 'content')));
    expect((await generateSyntheticJournal(a, { manuscripts: 200, shape: 'imported' })).generated).toBe(false);
    // Another shape in the same folder is another journal.
    expect((await generateSyntheticJournal(b, { manuscripts: 200 })).generated).toBe(true);

    const result = await build(projectPaths(a), 'build');
    expect(result.problems).toEqual([]);
    expect(result.warnings ?? []).toEqual([]);
    expect(result.counts).toEqual({ authors: 240, volumes: 8, manuscripts: 200, pdfs: 208 });

    const sample = await readFile(path.join(a, 'content', first.sample.manuscript), 'utf8');
    expect(sample).toMatch(/^volume: /m);
    const files = await readdir(path.join(a, 'content/manuscripts'));
    const texts = await Promise.all(files.map((f) => readFile(path.join(a, 'content/manuscripts', f), 'utf8')));
    expect(texts.some((t) => /^volume: volume-[ivxlc]+$/m.test(t))).toBe(true);
    expect(texts.some((t) => /^volume: Volume [IVXLC]+$/m.test(t))).toBe(true);
    expect(texts.some((t) => /^ {2}- as_published: /m.test(t))).toBe(true);

    const manuscripts = JSON.parse(await readFile(path.join(a, 'dist/api/manuscripts/index.json'), 'utf8')) as {
      abstract: string;
      authors: string[];
      citation_volume: number;
    }[];
    for (const m of manuscripts) expect(m.abstract.length).toBeGreaterThanOrEqual(1500);
    const all = JSON.stringify(manuscripts);
    expect(all).toMatch(/&nbsp;|&amp;|&lt;/); // character references, published as written
    expect(all).toMatch(/<sub>/);
    expect(manuscripts.reduce((sum, m) => sum + m.authors.length, 0) / manuscripts.length).toBeGreaterThan(4);
    // Uneven volumes: the largest holds several times the smallest.
    const perVolume = new Map<number, number>();
    for (const m of manuscripts) perVolume.set(m.citation_volume, (perVolume.get(m.citation_volume) ?? 0) + 1);
    expect(perVolume.size).toBe(8);
    expect(Math.max(...perVolume.values())).toBeGreaterThan(3 * Math.min(...perVolume.values()));
    const authors = JSON.parse(await readFile(path.join(a, 'dist/api/authors/index.json'), 'utf8')) as {
      institution: string;
    }[];
    // Institutions in two languages and scripts.
    expect(authors.some((x) => /[а-я].* \/ [A-Z]/.test(x.institution))).toBe(true);
  }, 60_000);
});

/** A SHA-256 of every file under `root`, by its path, in path order. */
async function digest(root: string): Promise<string> {
  const hash = createHash('sha256');
  const files = (await readdir(root, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .sort();
  for (const file of files) hash.update(`${file}\0`).update(await readFile(path.join(root, file)));
  return hash.digest('hex');
}

const PLAIN_40_DIGEST = 'a3f38c78431a56347e33e675a5ce7745381d43019c1782e18e6aee08a235485f';
