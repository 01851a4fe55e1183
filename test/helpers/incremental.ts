/**
 * What the tests of incremental builds share: content old enough for its stamps to be trusted,
 * and the comparison of a build that used the cache with a cold build of the same content.
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
  for (const [file, bytes] of await readTree(dir)) files.set(file, bytes.toString('base64'));
  return files;
}

/** Every file under `dir` (none if it does not exist), relative path with `/` → bytes. */
export async function readTree(dir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    files.set(path.relative(dir, file).split(path.sep).join('/'), await readFile(file));
  }
  return files;
}

/**
 * How two output trees differ, one line per file: missing on one side, or where the bytes first
 * differ with a little of each side around it. Empty when they are byte-identical.
 */
export function outputDifferences(actual: Map<string, Buffer>, expected: Map<string, Buffer>): string[] {
  const differences: string[] = [];
  for (const file of [...new Set([...actual.keys(), ...expected.keys()])].sort()) {
    const [a, b] = [actual.get(file), expected.get(file)];
    if (!a) differences.push(`${file}: missing (expected ${b!.length} bytes)`);
    else if (!b) differences.push(`${file}: unexpected (${a.length} bytes)`);
    else if (!a.equals(b)) {
      let at = 0;
      while (at < a.length && at < b.length && a[at] === b[at]) at++;
      const around = (bytes: Buffer) => JSON.stringify(bytes.subarray(Math.max(0, at - 40), at + 40).toString('utf8'));
      differences.push(
        `${file}: ${a.length} bytes, expected ${b.length}; first difference at byte ${at}: ${around(a)} expected ${around(b)}`,
      );
    }
  }
  return differences;
}

/** Builds with the cache, then cold (no cache) into `dist-cold/`, and expects identical outputs. */
export async function expectSameAsCold(ws: Workspace) {
  const warm = await ws.build();
  expect(warm.problems).toEqual([]);
  const coldPaths = projectPaths(ws.root, { out: 'dist-cold', cache: '.cache-cold' });
  const cold = await build(coldPaths, 'build', { cache: false, threads: 0, setAsideLongFields: false });
  expect(cold.problems).toEqual([]);
  expect(outputDifferences(await readTree(ws.paths.out), await readTree(coldPaths.out))).toEqual([]);
  return warm;
}
