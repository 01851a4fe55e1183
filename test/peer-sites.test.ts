/**
 * The benchmark's peers (scripts/bench/hugo-site.ts, eleventy-site.ts) are timed as makers of the
 * same site as the build: on a small journal of each shape, each writes every path the build
 * writes but the lists' precompressed twins and the search index, nothing else, and its JSON
 * parses. Hugo runs where it is installed; Eleventy is a devDependency.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeEleventySite } from '../scripts/bench/eleventy-site.ts';
import { writeHugoSite } from '../scripts/bench/hugo-site.ts';
import { compareCensus, takeCensus, type Census } from '../scripts/bench/output-census.ts';
import { generateSyntheticJournal, SYNTHETIC_SHAPES } from '../scripts/bench/synthetic-journal.ts';
import { build } from '../scripts/generator/build.ts';
import { projectPaths } from '../scripts/project.ts';

const run = promisify(execFile);
const HUGO = ['/usr/bin/hugo', '/usr/local/bin/hugo'].find((file) => existsSync(file));
let root: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'journal-peers-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe.each(SYNTHETIC_SHAPES)('the same site, %s shape', (shape) => {
  let journal: string;
  let ours: Census;
  beforeAll(async () => {
    journal = path.join(root, shape);
    await generateSyntheticJournal(journal, { manuscripts: 12, seed: 5, shape });
    expect((await build(projectPaths(journal), 'build')).ok).toBe(true);
    ours = await takeCensus(path.join(journal, 'dist'), ['pagefind']);
  });

  async function expectSameSite(out: string) {
    const text = (file: string) => readFileSync(path.join(out, file), 'utf8');
    const theirs = await takeCensus(out);
    const { missing, extra } = compareCensus(ours, theirs);
    expect(extra).toEqual([]);
    expect(missing.filter((file) => !/\.json\.(gz|br)$/.test(file))).toEqual([]);
    for (const file of [...theirs.paths].filter((p) => p.endsWith('.json')))
      expect(() => JSON.parse(text(file)), file).not.toThrow();
    expect(text('manuscripts/1.html')).toContain('<meta name="citation_title"');
    expect(text('feed.xml')).toMatch(/^<\?xml[^]*<entry>[^]*<\/feed>\n$/);
  }

  it('Eleventy writes every path the build writes', { timeout: 60_000 }, async () => {
    const out = path.join(journal, 'eleventy-site-output');
    const args = await writeEleventySite(path.join(journal, 'eleventy-site'), path.join(journal, 'content'), out);
    await run('/bin/sh', args);
    await expectSameSite(out);
  });

  it.skipIf(!HUGO)('Hugo writes every path the build writes', { timeout: 60_000 }, async () => {
    const out = path.join(journal, 'hugo-site-output');
    const args = await writeHugoSite(path.join(journal, 'hugo-site'), path.join(journal, 'content'), out, HUGO!);
    await run('/bin/sh', args);
    await expectSameSite(out);
  });
});
