/**
 * What a dead build leaves is told from a running one by more than its process id: a zombie (killed,
 * not yet reaped) is dead, and a process that was given a dead build's id later is not that build.
 * A journal left damaged (empty, as after a power cut before it reached the disk) blocks nothing:
 * every command goes on, `clean` included, and the next build writes the whole output anew.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { age, expectSameAsCold } from './helpers/incremental.ts';
import { createWorkspace, type Workspace } from './helpers/workspace.ts';

let ws: Workspace | undefined;
let holder: ChildProcess | undefined;
afterEach(async () => {
  holder?.kill('SIGKILL');
  holder = undefined;
  await ws?.dispose();
  ws = undefined;
});

const leftovers = async (root: string) => (await readdir(root)).filter((name) => name.startsWith('.dist-'));

/** A running process that is not a build: it holds a pid that a dead build might have had. */
async function unrelatedProcess(): Promise<number> {
  holder = spawn('sleep', ['60'], { stdio: 'ignore' });
  await new Promise((resolve) => holder!.once('spawn', resolve));
  return holder.pid!;
}

/** A zombie: a process that has exited and that its parent (here `sleep`, which never waits) has not reaped. */
async function zombie(): Promise<number> {
  holder = spawn('sh', ['-c', 'sleep 0.05 & echo $!; exec sleep 60'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const pid = await new Promise<number>((resolve) =>
    holder!.stdout!.once('data', (chunk) => resolve(Number(String(chunk).trim()))),
  );
  await new Promise((resolve) => setTimeout(resolve, 300));
  return pid;
}

const linux = process.platform === 'linux';

describe('a damaged update journal', () => {
  for (const command of ['check', 'build', 'clean'] as const) {
    it(`does not stop ${command}: it is removed, with one warning`, async () => {
      ws = await createWorkspace();
      expect((await ws.cli('build')).code).toBe(0);
      await writeFile(path.join(ws.root, '.dist-journal-999999'), '');
      const result = await ws.cli(command);
      expect(result.stderr).not.toMatch(/SyntaxError|\n\s+at /);
      expect(result.code).toBe(0);
      expect(result.stderr).toMatch(/journal .*damaged/);
      expect(await leftovers(ws.root)).toEqual([]);
    });
  }

  it('makes the next build write the whole output anew, equal to a cold build', async () => {
    ws = await age(await createWorkspace());
    expect((await ws.build()).ok).toBe(true);
    // The update it named may have been half done: dist/ can no longer be trusted file by file.
    await writeFile(path.join(ws.paths.out, 'sitemap.xml'), 'half of an update\n');
    await writeFile(path.join(ws.root, '.dist-journal-999999'), '{"removed":["a"');
    const result = await ws.build();
    expect(result.ok).toBe(true);
    await expectSameAsCold(ws);
  });
});

describe.runIf(linux)('a process id that a running process has now', () => {
  it("does not keep a dead build's journal waiting, to be replayed later over newer output", async () => {
    ws = await age(await createWorkspace());
    expect((await ws.build()).ok).toBe(true);
    const pid = await unrelatedProcess();
    // The journal of a build that died long ago, whose id `sleep` has now.
    await writeFile(
      path.join(ws.root, `.dist-journal-${pid}`),
      JSON.stringify({ removed: [], placed: [], started: 1 }),
    );
    const check = await ws.cli('check');
    expect(check.code).toBe(0);
    expect(await leftovers(ws.root)).toEqual([]);
  });

  it('does not hold the lock for a dead build', async () => {
    ws = await createWorkspace();
    const pid = await unrelatedProcess();
    await writeFile(path.join(ws.root, '.dist.lock'), `${pid} 1\n`);
    const result = await ws.cli('build');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });
});

describe.runIf(linux)('a killed build not yet reaped (a zombie)', () => {
  it('holds no lock, and its journal is carried out', async () => {
    ws = await age(await createWorkspace());
    expect((await ws.build()).ok).toBe(true);
    const pid = await zombie();
    expect((await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]![0]).toBe('Z');
    await writeFile(path.join(ws.root, '.dist.lock'), `${pid}\n`);
    await writeFile(path.join(ws.root, `.dist-journal-${pid}`), JSON.stringify({ removed: [], placed: [] }));
    const result = await ws.cli('build');
    expect(result.stderr).not.toMatch(/Another build/);
    expect(result.code).toBe(0);
    expect(await leftovers(ws.root)).toEqual([]);
    await expect(stat(path.join(ws.root, '.dist.lock'))).rejects.toThrow(/ENOENT/);
  });
});
