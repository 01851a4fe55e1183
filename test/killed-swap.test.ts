/**
 * `kill -9` at every step of a swap, 20 times each: a build's swap of dist/ and an import's swap
 * of content/. The process runs in a child (test/helpers/held-swap.ts) that waits at the step it is
 * given; it is killed there, the next command runs, and the folder is then entirely the old tree
 * or entirely the new one, compared with both byte for byte, the lists of files included.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { build } from '../scripts/generator/build.ts';
import { importJournal } from '../scripts/import/import.ts';
import { projectPaths } from '../scripts/project.ts';
import type { SwapStep } from '../scripts/shared/folder-swap.ts';
import { generateDump } from './fixtures/import/generate-dump.ts';
import { toJson } from '../scripts/generator/render/json-text.ts';
import { createWorkspace, REPO_ROOT, runCli, type Workspace } from './helpers/workspace.ts';

const TRIALS = 20;
const STEPS: SwapStep[] = ['ready', 'set-aside', 'published'];
const TSX = import.meta.resolve('tsx');
const HELD = path.join(REPO_ROOT, 'test/helpers/held-swap.ts');

let ws: Workspace | undefined;
afterEach(async () => {
  await ws?.dispose();
  ws = undefined;
});

/** Every file under `folder` (relative, sorted) with a hash of its bytes; undefined when the folder is missing. */
async function tree(folder: string): Promise<Map<string, string> | undefined> {
  const names = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => undefined);
  if (!names) return undefined;
  const files = new Map<string, string>();
  for (const entry of names) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    files.set(
      path.relative(folder, file),
      createHash('sha256')
        .update(await readFile(file))
        .digest('hex'),
    );
  }
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** Which of the two trees `actual` is exactly, or a description of how it is neither. */
function whichOf(actual: Map<string, string> | undefined, old: Map<string, string>, fresh: Map<string, string>) {
  const same = (a: Map<string, string>) =>
    actual !== undefined && actual.size === a.size && [...a].every(([file, hash]) => actual.get(file) === hash);
  if (same(old)) return 'old';
  if (same(fresh)) return 'new';
  if (!actual) return 'missing';
  const missing = [...old.keys()].filter((file) => !actual.has(file)).slice(0, 5);
  return `neither: ${actual.size} files, of the old ones missing ${missing.join(', ')}`;
}

/** Runs the held child until it reports the step, then kills it with SIGKILL and waits for its end. */
async function killAt(args: string[]): Promise<void> {
  const child = spawn(process.execPath, ['--import', TSX, HELD, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('held ')) resolve();
    });
    child.once('exit', () => reject(new Error(`the child ended before its step: ${out}\n${err}`)));
  });
  child.kill('SIGKILL');
  await ended;
}

describe('kill -9 at every step of the output swap', () => {
  it(`leaves dist/ the old or the new output, whole, after the next command (${TRIALS} kills per step)`, async () => {
    ws = await createWorkspace();
    const { root, paths } = ws;
    // The old output is built from a copy of the content as it was; the killed build builds the
    // content as edited: one manuscript edited, one added with its PDF (a new page, a new file).
    const oldPaths = projectPaths(root, { content: 'content-before' });
    await cp(paths.content, oldPaths.content, { recursive: true });
    const orchids = await readFile(path.join(paths.content, 'manuscripts/orchids.yaml'), 'utf8');
    await ws.write('manuscripts/orchids.yaml', orchids.replace('Orchids of Galičica', 'Orchids of Mount Galičica'));
    await ws.write('manuscripts/mosses.yaml', orchids.replace('id: 3', 'id: 40').replace(/orchids/g, 'mosses'));
    await cp(path.join(paths.content, 'media/pdfs/orchids.pdf'), path.join(paths.content, 'media/pdfs/mosses.pdf'));
    const expectedPaths = projectPaths(root, { out: 'expected-dist', cache: '.cache/expected' });
    expect((await build(expectedPaths, 'build')).ok).toBe(true);
    const fresh = (await tree(expectedPaths.out))!;
    let old: Map<string, string> | undefined;

    const seen: Record<string, Record<string, number>> = {};
    for (const step of STEPS) {
      seen[step] = {};
      for (let trial = 0; trial < TRIALS; trial++) {
        // Built afresh each time: the previous output as a build leaves it, folders and all, and
        // the build cache that lets the next build take most of its files from it.
        await rm(paths.out, { recursive: true, force: true });
        await rm(paths.cache, { recursive: true, force: true });
        expect((await build(oldPaths, 'build')).ok).toBe(true);
        old ??= await tree(paths.out);
        await killAt(['build', root, step]);
        // The next command: a check, which writes no output but settles what the killed build left.
        const next = await build(paths, 'check');
        expect(next.ok).toBe(true);
        const found = whichOf(await tree(paths.out), old!, fresh);
        // The new output has the added manuscript's files (its page, its PDF, and the others made of it).
        expect([...fresh.keys()].filter((file) => !old!.has(file))).toEqual(
          expect.arrayContaining(['manuscripts/40.html', 'media/pdfs/mosses.pdf']),
        );
        seen[step][found] = (seen[step][found] ?? 0) + 1;
        expect((await readdir(root)).filter((name) => name.startsWith('.dist-'))).toEqual([]);
      }
    }
    // Killed before its swap, a build leaves the old output; killed after the first rename, the new one.
    expect(seen).toEqual({
      ready: { old: TRIALS },
      'set-aside': { new: TRIALS },
      published: { new: TRIALS },
    });
  }, 600_000);
});

describe('kill -9 at every step of the import swap', () => {
  it(`leaves content/ the old tree or the imported one, whole, after the next command (${TRIALS} kills per step)`, async () => {
    ws = await createWorkspace();
    const { root, paths } = ws;
    const old = (await tree(paths.content))!;
    const keptContent = path.join(root, 'kept-content');
    await cp(paths.content, keptContent, { recursive: true });
    const dump = path.join(root, 'dump.json');
    await writeFile(dump, toJson(generateDump({ seed: 3, authors: 5, manuscripts: 4 })));
    const expectedPaths = projectPaths(root, { content: 'expected-content' });
    expect((await importJournal(expectedPaths, { source: dump })).ok).toBe(true);
    const fresh = (await tree(expectedPaths.content))!;

    const seen: Record<string, Record<string, number>> = {};
    for (const step of STEPS) {
      seen[step] = {};
      for (let trial = 0; trial < TRIALS; trial++) {
        await rm(paths.content, { recursive: true, force: true });
        await cp(keptContent, paths.content, { recursive: true });
        await killAt(['import', root, step, dump]);
        // The next command, as an editor would run it after an interrupted import.
        const next = await runCli(root, ['check']);
        expect(next.stderr).not.toMatch(/Error:|at .*\.ts:\d+/);
        const found = whichOf(await tree(paths.content), old, fresh);
        seen[step][found] = (seen[step][found] ?? 0) + 1;
        if (step === 'set-aside') expect(next.stderr).toMatch(/an import \(process \d+\) was interrupted/);
        expect((await readdir(root)).filter((name) => /^\.\.?content-/.test(name))).toEqual([]);
      }
    }
    expect(seen).toEqual({
      ready: { old: TRIALS },
      'set-aside': { new: TRIALS },
      published: { new: TRIALS },
    });
  }, 900_000);
});
