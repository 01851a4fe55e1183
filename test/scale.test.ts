/**
 * At test size: the report for ten thousand broken files, and the synthetic journal that
 * the benchmark (and later load tests) build on. Timings are the benchmark's business, never asserted here.
 */
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
});
