/**
 * A full disk, for real: a small tmpfs mounted for the test (this needs root, as on the CI
 * machines; elsewhere the tests are skipped, saying so). The output's disk full: one line that says
 * where, exit 1, the previous output exactly as it was and nothing left beside it. The build
 * cache's disk full: the build succeeds and warns, since its output is complete.
 */
import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it, type TestContext } from 'vitest';
import { createWorkspace, type Workspace } from './helpers/workspace.ts';
import { snapshot } from './helpers/snapshot.ts';

const run = promisify(execFile);
let ws: Workspace | undefined;
const mounted: string[] = [];
afterEach(async () => {
  for (const point of mounted.splice(0)) await run('umount', [point]).catch(() => {});
  await ws?.dispose();
  ws = undefined;
});

/** A tmpfs of `size` at `point`, or the test skipped when this machine cannot mount one. */
async function smallDisk(context: TestContext, point: string, size: string): Promise<void> {
  await mkdir(point, { recursive: true });
  try {
    await run('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', point]);
  } catch (error) {
    context.skip(`a small tmpfs cannot be mounted here (root is needed): ${(error as Error).message.split('\n')[0]}`);
  }
  mounted.push(point);
}

/** Fills the disk of `folder` until `leave` bytes are free (a file of zeros, written until the disk refuses more). */
async function fill(folder: string, leave: number): Promise<void> {
  const { stdout } = await run('df', ['-B1', '--output=avail', folder]);
  const free = Number(stdout.trim().split('\n')[1]);
  await writeFile(path.join(folder, 'filler'), new Uint8Array(Math.max(0, free - leave)));
}

const editTitle = async (ws: Workspace, title: string) => {
  const file = path.join(ws.paths.content, 'manuscripts/orchids.yaml');
  await writeFile(file, (await readFile(file, 'utf8')).replace(/^citation_title: .*$/m, `citation_title: ${title}`));
};

describe('a full disk', () => {
  it('where the output is written: one line, exit 1, the previous output untouched', async (context) => {
    ws = await createWorkspace();
    await smallDisk(context, path.join(ws.root, 'disk'), '1m');
    expect((await ws.cli('build', '--out', 'disk/dist')).code).toBe(0);
    const before = await snapshot(path.join(ws.root, 'disk/dist'));
    await editTitle(ws, 'Orchids of the whole of Galičica');
    await fill(path.join(ws.root, 'disk'), 16 * 1024);

    const { code, stdout, stderr } = await ws.cli('build', '--out', 'disk/dist');
    expect(stdout).toBe('');
    expect(stderr).toBe('No space left on disk/: build stopped; the output is unchanged.\n');
    expect(code).toBe(1);
    expect(await snapshot(path.join(ws.root, 'disk/dist'))).toEqual(before);
    expect((await readdir(path.join(ws.root, 'disk'))).sort()).toEqual(['dist', 'filler']);
  });

  it('where only the build cache is written: the build succeeds, and warns', async (context) => {
    ws = await createWorkspace();
    expect((await ws.cli('build')).code).toBe(0);
    await ws.cli('clean');
    await smallDisk(context, path.join(ws.root, '.cache'), '64k');
    await fill(path.join(ws.root, '.cache'), 0);
    await editTitle(ws, 'Orchids of the whole of Galičica');

    const { code, stdout, stderr } = await ws.cli('build');
    expect(stderr).toMatch(
      /^Warning: the build cache could not be written \(no space left on .*journal-build\): the output is complete/,
    );
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stdout).toMatch(/^Built /);
    expect(code).toBe(0);
    expect(await readFile(path.join(ws.paths.out, 'api/manuscripts/index.json'), 'utf8')).toContain(
      'Orchids of the whole of Galičica',
    );
  });
});
