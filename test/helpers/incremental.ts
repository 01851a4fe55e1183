/**
 * What the tests of incremental builds share (issue 4): content old enough for its stamps to be
 * trusted, and the comparison of a build that used the cache with a cold build of the same content.
 */
import { readFile, readdir, utimes } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import { build } from '../../scripts/generator/build.ts';
import { projectPaths } from '../../scripts/project.ts';
import type { Workspace } from './workspace.ts';

/**
 * Every content file moved an hour into the past: a file modified in the last seconds is never
 * trusted by its stamp (it is hashed instead), so without this the fast path would not be exercised.
 */
export async function age(ws: Workspace): Promise<Workspace> {
  const past = new Date(Date.now() - 3600_000);
  for (const entry of await readdir(ws.paths.content, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) await utimes(path.join(entry.parentPath, entry.name), past, past);
  }
  return ws;
}

/** Every file under `dir`, relative path → bytes. */
export async function tree(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    files.set(path.relative(dir, file), (await readFile(file)).toString('base64'));
  }
  return files;
}

/** Builds with the cache, then cold (no cache) into `dist-cold/`, and expects identical outputs. */
export async function expectSameAsCold(ws: Workspace) {
  const warm = await ws.build();
  expect(warm.problems).toEqual([]);
  const coldPaths = projectPaths(ws.root, { out: 'dist-cold', cache: '.cache-cold' });
  const cold = await build(coldPaths, 'build', { cache: false });
  expect(cold.problems).toEqual([]);
  const [warmTree, coldTree] = [await tree(ws.paths.out), await tree(coldPaths.out)];
  expect([...warmTree.keys()].sort()).toEqual([...coldTree.keys()].sort());
  for (const [file, bytes] of coldTree) expect(warmTree.get(file), file).toBe(bytes);
  return warm;
}
