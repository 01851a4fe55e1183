/**
 * A build killed part way leaves folders beside the output (its staging folder, the previous output
 * set aside, the files it replaced). The next build finds them: a swap interrupted between its two
 * renames is completed, whatever else a dead build left is removed, and a running build's folders
 * are left alone. `npm run clean` removes them too.
 */
import { execFile, spawn } from 'node:child_process';
import { cp, mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkspace, type Workspace } from './helpers/workspace.ts';

const run = promisify(execFile);
let ws: Workspace | undefined;
afterEach(async () => {
  await ws?.dispose();
  ws = undefined;
});

/** The id of a process that has ended: no build of this machine runs under it now. */
async function deadPid(): Promise<number> {
  const { stdout } = await run(process.execPath, ['-e', 'console.log(process.pid)']);
  return Number(stdout.trim());
}

const leftovers = async (root: string) => (await readdir(root)).filter((name) => name.startsWith('.dist-')).sort();

describe('what a killed build left beside the output', () => {
  it('completes a swap interrupted between its two renames: the new output is published, nothing is left beside it', async () => {
    ws = await createWorkspace();
    expect((await ws.build()).ok).toBe(true);
    const pid = await deadPid();
    // The killed build had made a complete new output, then set the old one aside: no dist/ at all.
    const staging = path.join(ws.root, `.dist-staging-${pid}`);
    await cp(ws.paths.out, staging, { recursive: true });
    await writeFile(path.join(staging, 'marker.txt'), 'the new output\n');
    await rename(ws.paths.out, path.join(ws.root, `.dist-previous-${pid}`));

    const result = await ws.build();
    expect(result.problems).toEqual([]);
    expect(result.warnings?.join('\n')).toMatch(/interrupted/);
    expect(await leftovers(ws.root)).toEqual([]);
    expect(await readFile(path.join(ws.paths.out, 'api/authors/index.json'), 'utf8')).toMatch(/^\[/);
  });

  it('puts the previous output back when a dead build left it aside without a new one', async () => {
    ws = await createWorkspace();
    expect((await ws.build()).ok).toBe(true);
    const before = await readFile(path.join(ws.paths.out, 'api/manuscripts/index.json'), 'utf8');
    const pid = await deadPid();
    await rename(ws.paths.out, path.join(ws.root, `.dist-previous-${pid}`));
    // A check writes no output, but must not leave the site missing either.
    const result = await ws.build('check');
    expect(result.ok).toBe(true);
    expect(await readFile(path.join(ws.paths.out, 'api/manuscripts/index.json'), 'utf8')).toBe(before);
    expect(await leftovers(ws.root)).toEqual([]);
  });

  it("removes a dead build's staging folder and replaced files, and leaves a running build's alone", async () => {
    ws = await createWorkspace();
    expect((await ws.build()).ok).toBe(true);
    const dead = await deadPid();
    const living = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      for (const name of [`.dist-staging-${dead}`, `.dist-replaced-${dead}`, `.dist-staging-${living.pid}`]) {
        await mkdir(path.join(ws.root, name, 'api'), { recursive: true });
        await writeFile(path.join(ws.root, name, 'api', 'partial.json'), '[');
      }
      expect((await ws.build()).ok).toBe(true);
      expect(await leftovers(ws.root)).toEqual([`.dist-staging-${living.pid}`]);
    } finally {
      living.kill('SIGKILL');
    }
  });

  it('npm run clean removes what dead builds left', async () => {
    ws = await createWorkspace();
    const dead = await deadPid();
    await mkdir(path.join(ws.root, `.dist-staging-${dead}`), { recursive: true });
    await mkdir(path.join(ws.root, `.dist-replaced-${dead}`), { recursive: true });
    const { code } = await ws.cli('clean');
    expect(code).toBe(0);
    expect(await leftovers(ws.root)).toEqual([]);
  });
});
