/**
 * The output folder is served while it is rebuilt (a server pointed at dist/, the preview): a
 * reader must never find a file or folder of the output missing. A build after an edit takes most
 * of its files from the previous output and updates dist/ in place: the files it made are renamed
 * over the old ones, each replaced in one step, and nothing the new output keeps is moved or
 * removed. A process of its own polls every file and folder the old and the new output share during
 * rebuilds after edits. Only a build with nothing to reuse swaps a whole new dist/ in, and between
 * its two renames (one system call) there is no dist/ at all (docs/recovery.md).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSyntheticJournal } from '../scripts/bench/synthetic-journal.ts';
import { build } from '../scripts/generator/build.ts';
import { projectPaths, type ProjectPaths } from '../scripts/project.ts';
import { REPO_ROOT } from './helpers/workspace.ts';

const POLLER = path.join(REPO_ROOT, 'test/helpers/tree-poller.mjs');
let root: string;
let paths: ProjectPaths;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'journal-served-'));
  // Enough manuscripts for folders of hundreds of pages and PDFs.
  await generateSyntheticJournal(root, { manuscripts: 300, seed: 11 });
  paths = projectPaths(root);
});
afterAll(() => rm(root, { recursive: true, force: true }));

/** Every file and folder of the output (relative), folders first. */
async function entries(folder: string): Promise<Set<string>> {
  const found = await readdir(folder, { recursive: true, withFileTypes: true });
  return new Set(found.map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name))));
}

async function startPoller(relatives: Iterable<string>) {
  const listing = path.join(root, 'polled.txt');
  await writeFile(listing, [...relatives].join('\n'));
  const child = spawn(process.execPath, [POLLER, paths.out, listing], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  return async (): Promise<{ rounds: number; swapping: number; missing: Record<string, number> }> => {
    const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.stdin.end('stop\n');
    await ended;
    return JSON.parse(out.split('\n')[1]!) as never;
  };
}

describe('a reader of dist/ during a rebuild', () => {
  it('never finds a file or folder of the output missing, nor the output folder itself', async () => {
    expect((await build(paths, 'build')).ok).toBe(true);
    const manuscripts = path.join(paths.content, 'manuscripts');
    const names = (await readdir(manuscripts)).sort();
    for (let edit = 0; edit < 5; edit++) {
      // The search index is the exception (docs/search.md): Pagefind names its files by their
      // content, so an index made again after an edit is other files, the old ones removed.
      const shared = [...(await entries(paths.out))].filter((entry) => !entry.startsWith('pagefind'));
      const file = path.join(manuscripts, names[edit * 7]!);
      const text = await readFile(file, 'utf8');
      await writeFile(file, text.replace(/^citation_title: (.*)$/m, `citation_title: $1, edition ${edit}`));
      const stop = await startPoller(shared);
      const result = await build(paths, 'build');
      const seen = await stop();
      expect(result.ok).toBe(true);
      // Most of the output is taken from the previous one (how much depends on how recent its stamps are).
      expect(result.written!.reused).toBeGreaterThan(result.written!.files / 4);
      expect(seen.rounds).toBeGreaterThan(10);
      expect(seen.missing).toEqual({});
      expect(seen.swapping).toBe(0);
    }
  }, 300_000);
});
