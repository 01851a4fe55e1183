/**
 * Where a build runs (scripts/build-process.cjs): a large journal's build in a child process with
 * the allocator's and V8's settings, anything else in the command line's own process. The same
 * build in both ways writes the same bytes: the settings change how memory is managed, never what
 * is built.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { buildProcess, CHILD, CHILD_AFTER_EDIT, LARGE_JOURNAL } from '../scripts/build-process.cjs';
import { tree } from './helpers/incremental.ts';
import { createWorkspace, REPO_ROOT, type Workspace } from './helpers/workspace.ts';

const run = promisify(execFile);
const cleanup: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const clean of cleanup) await clean();
});

describe('where a build runs', () => {
  it('in a child process for a large journal on Linux, here for anything else', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'build-process-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const content = path.join(dir, 'content');
    await mkdir(path.join(content, 'manuscripts'), { recursive: true });
    for (let i = 1; i < LARGE_JOURNAL; i++) await writeFile(path.join(content, 'manuscripts', `m${i}.yaml`), '');
    const env = {};
    expect(buildProcess(['build', '--content', content], env, 'linux', dir)).toBeUndefined();
    await writeFile(path.join(content, 'manuscripts', 'm0.yaml'), '');
    const large = content;
    expect(buildProcess(['build', '--content', large], env, 'linux', dir)).toBe(CHILD);
    expect(buildProcess(['export', 'out.json', `--content=${large}`], env, 'linux', dir)).toBe(CHILD);
    expect(buildProcess(['build', '--content', path.join(dir, 'absent')], env, 'linux', dir)).toBeUndefined();
    expect(buildProcess(['check', '--content', large], env, 'linux', dir)).toBeUndefined();
    expect(buildProcess(['build', '--content', large], env, 'darwin', dir)).toBeUndefined();
    // The child itself (or a process given the settings) builds where it is.
    expect(buildProcess(['build', '--content', large], CHILD.env, 'linux', dir)).toBeUndefined();
    // A build cache newer than the journal's settings: a build after an edit, with V8's own heap growth.
    const index = path.join(dir, '.cache', 'journal-build', 'check-index.bin');
    await writeFile(path.join(large, 'journal.yaml'), 'title: T\n');
    const past = new Date(Date.now() - 60_000);
    await utimes(path.join(large, 'journal.yaml'), past, past);
    expect(buildProcess(['build', '--content', 'content'], env, 'linux', dir)).toBe(CHILD);
    await mkdir(path.dirname(index), { recursive: true });
    await writeFile(index, '');
    expect(buildProcess(['build', '--content', 'content'], env, 'linux', dir)).toBe(CHILD_AFTER_EDIT);
    expect(buildProcess(['build', '--no-cache'], env, 'linux', dir)).toBe(CHILD);
    expect(buildProcess(['export', 'out.json'], env, 'linux', dir)).toBe(CHILD);
    // The settings changed after the index was written: the cache is of no use, the build is cold.
    await utimes(path.join(large, 'journal.yaml'), new Date(), new Date(Date.now() + 60_000));
    expect(buildProcess(['build'], env, 'linux', dir)).toBe(CHILD);
  });

  it('writes the same output in the child with its settings as in the command line itself', async () => {
    const ws: Workspace = await createWorkspace();
    cleanup.push(() => ws.dispose());
    const cli = path.join(REPO_ROOT, 'scripts/cli.cjs');
    const env = { ...process.env, NO_COLOR: '1' };
    await run(process.execPath, [cli, 'build', '--out', 'dist-here'], { cwd: ws.root, env });
    // As cli.cjs starts the child: its flags before the script, its environment added.
    await run(process.execPath, [...CHILD.execArgv, cli, 'build', '--out', 'dist-child'], {
      cwd: ws.root,
      env: { ...env, ...CHILD.env },
    });
    const [here, child] = [await tree(path.join(ws.root, 'dist-here')), await tree(path.join(ws.root, 'dist-child'))];
    expect(here.size).toBeGreaterThan(10);
    expect([...child.keys()].sort()).toEqual([...here.keys()].sort());
    for (const [file, bytes] of here) expect(child.get(file), file).toBe(bytes);
  });
});
