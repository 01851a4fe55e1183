/**
 * statMany (issue 4) answers for each path what `lstat` says, whether the path was taken by this
 * thread or by a worker: a regular file's stamp, a link as a link (never followed), a folder, nothing.
 */
import { lstatSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statMany, type StatKind } from '../scripts/generator/stat-many.ts';

let dir: string;
const paths: string[] = [];
const expected: StatKind[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'stat-many-'));
  for (let i = 0; i < 60; i++) {
    const file = path.join(dir, `f${i}`);
    const kind = (['file', 'symlink', 'directory', 'missing'] as const)[i % 4]!;
    if (kind === 'file') await writeFile(file, 'x'.repeat(i));
    if (kind === 'symlink') await symlink(path.join(dir, 'f0'), file);
    if (kind === 'directory') await mkdir(file);
    paths.push(file);
    expected.push(kind);
  }
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('statMany', () => {
  for (const [label, perWorker] of [['on this thread', 1_000_000], ['split with workers', 10]] as const) {
    it(`gives each path its kind and stamp, ${label}`, async () => {
      const stats = await statMany(paths, perWorker);
      paths.forEach((file, i) => {
        expect(stats.kind(i), file).toBe(expected[i]);
        const stat = lstatSync(file, { throwIfNoEntry: false });
        expect(stats.stamp(i)).toEqual(stat ? { size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino } : undefined);
      });
    });
  }
});
