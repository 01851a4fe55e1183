/**
 * A new journal starts with empty collections, and git keeps no empty folder: a `.gitkeep` in a
 * collection's folder keeps it, and is no content file. (A missing collection folder is an error.)
 */
import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createWorkspace, type Workspace } from './helpers/workspace.ts';

let ws: Workspace | undefined;
afterEach(async () => {
  await ws?.dispose();
  ws = undefined;
});

it('builds a journal whose collections hold only a .gitkeep, into empty lists', async () => {
  ws = await createWorkspace();
  for (const collection of ['authors', 'volumes', 'manuscripts']) {
    const folder = path.join(ws.paths.content, collection);
    for (const name of await readdir(folder)) await rm(path.join(folder, name));
    await writeFile(path.join(folder, '.gitkeep'), '');
  }
  const result = await ws.build();
  expect(result.problems).toEqual([]);
  expect(result.ok).toBe(true);
  for (const list of ['authors', 'volumes', 'manuscripts'])
    expect(await readFile(path.join(ws.paths.out, 'api', list, 'index.json'), 'utf8')).toBe('[]');
});
