/**
 * Where a build offers to collect its garbage (engine/output.ts, CollectMoment): the command line
 * decides at which of them a large build collects (cli.ts, withCollections), so each must come
 * where the build says, and only then.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { build } from '../scripts/generator/build.ts';
import { createWorkspace, type Workspace } from './helpers/workspace.ts';

let workspace: Workspace | undefined;
afterEach(async () => {
  await workspace?.dispose();
  workspace = undefined;
});

it('offers a collection before the pages and after writing, and once the files to reuse are found when there is a previous output', async () => {
  workspace = await createWorkspace();
  const ws = workspace;
  const offered = async (mode: 'build' | 'check') => {
    const moments: string[] = [];
    const result = await build(ws.paths, mode, { collect: (moment) => moments.push(moment) });
    expect(result.problems).toEqual([]);
    return moments;
  };
  // No previous output: nothing to reuse.
  expect(await offered('build')).toEqual(['pages', 'written']);
  const file = path.join(ws.paths.content, 'manuscripts', 'orchids.yaml');
  await ws.write(
    'manuscripts/orchids.yaml',
    (await readFile(file, 'utf8')).replace(/^citation_title: (.*)$/m, 'citation_title: $1 (revised)'),
  );
  expect(await offered('build')).toEqual(['pages', 'reuse', 'written']);
  // A check writes nothing, and holds nothing to collect.
  expect(await offered('check')).toEqual([]);
});
