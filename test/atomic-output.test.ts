/**
 * `build --atomic`: dist becomes a link the build switches to each complete new output
 * (shared/output-generations.ts). The first such build over an ordinary dist/ moves it in; later
 * builds switch the link with the option or without; a link made by hand is refused; `clean` removes
 * every output; what a killed build left of a switch is settled by the next command.
 */
import { execFileSync } from 'node:child_process';
import { cp, lstat, mkdir, mkdtemp, readdir, readFile, readlink, rename, rm, stat, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkspace, type Workspace } from './helpers/workspace.ts';

let ws: Workspace | undefined;
let outside: string | undefined;
afterEach(async () => {
  await ws?.dispose();
  if (outside) await rm(outside, { recursive: true, force: true });
  ws = undefined;
  outside = undefined;
});

const list = (dir: string) => readFile(path.join(dir, 'api/manuscripts/index.json'), 'utf8');
const beside = async (root: string) => (await readdir(root)).filter((name) => name.startsWith('.dist')).sort();
const versions = async (root: string) => (await readdir(path.join(root, '.dist-versions'))).sort();

/** Runs the command line in the workspace; it must succeed (its errors are shown when it does not). */
async function succeeds(...args: string[]) {
  const result = await ws!.cli(...args);
  expect(result.code, result.stderr).toBe(0);
  return result;
}

/** The id of a process that has ended. */
const deadPid = () =>
  Number(execFileSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' }).trim());

async function renameTitle(workspace: Workspace, title: string): Promise<void> {
  const file = path.join(workspace.paths.content, 'manuscripts/orchids.yaml');
  const text = await readFile(file, 'utf8');
  await workspace.write('manuscripts/orchids.yaml', text.replace(/citation_title: .*/, `citation_title: ${title}`));
}

describe('build --atomic', () => {
  it('moves an ordinary dist/ in as the previous output, then switches the link at each build, with the option or without', async () => {
    ws = await createWorkspace();
    const { root, paths } = ws;
    await succeeds('build');
    const before = await list(paths.out);
    await renameTitle(ws, 'Renamed once');

    const first = await ws.cli('build', '--atomic');
    expect(first.stderr).toBe('');
    expect(first.stdout).toMatch(/into dist\/ in/);
    expect((await lstat(paths.out)).isSymbolicLink()).toBe(true);
    expect(await readlink(paths.out)).toBe('.dist-versions/2');
    expect(await list(paths.out)).toContain('Renamed once');
    // The old dist/ is the output before, kept for whoever still reads it.
    expect(await list(path.join(root, '.dist-versions/1'))).toBe(before);

    await renameTitle(ws, 'Renamed twice');
    const second = await ws.cli('build');
    expect(second.code).toBe(0);
    expect(await readlink(paths.out)).toBe('.dist-versions/3');
    expect(await list(paths.out)).toContain('Renamed twice');
    // The one before stays until the next build; older ones go. Nothing else is left beside dist.
    expect(await versions(root)).toEqual(['2', '3', 'build']);
    expect(await beside(root)).toEqual(['.dist-versions']);
    // An output once made is never written again: the previous one still has its own list.
    expect(await list(path.join(root, '.dist-versions/2'))).toContain('Renamed once');
    // The files the edit did not change are the same file in both outputs, by a hard link.
    const shared = 'api/authors/index.json';
    expect((await stat(path.join(root, '.dist-versions/2', shared))).ino).toBe(
      (await stat(path.join(paths.out, shared))).ino,
    );
  });

  it('writes the same bytes as an ordinary build', async () => {
    ws = await createWorkspace();
    await succeeds('build', '--atomic');
    await succeeds('build', '--out', 'plain');
    const files = async (dir: string) =>
      (await readdir(dir, { recursive: true, withFileTypes: true }))
        .filter((entry) => entry.isFile())
        .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
        .sort();
    const atomic = await files(path.join(ws.root, 'dist/'));
    expect(atomic).toEqual(await files(path.join(ws.root, 'plain')));
    for (const file of atomic)
      expect(await readFile(path.join(ws.root, 'dist', file))).toEqual(
        await readFile(path.join(ws.root, 'plain', file)),
      );
  });

  it('refuses a dist that is a link made by hand, in one sentence, and touches nothing', async () => {
    ws = await createWorkspace();
    outside = await mkdtemp(path.join(os.tmpdir(), 'journal-web-root-'));
    await symlink(outside, ws.paths.out);
    const result = await ws.cli('build', '--atomic');
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^dist is a link to .*, which --atomic would replace.*point the web server at dist/);
    expect(await readlink(ws.paths.out)).toBe(outside);
    expect(await readdir(outside)).toEqual([]);
    expect(await beside(ws.root)).toEqual([]);
  });

  it('clean removes the link and every output', async () => {
    ws = await createWorkspace();
    await succeeds('build', '--atomic');
    await succeeds('build', '--atomic');
    const clean = await ws.cli('clean');
    expect(clean.code).toBe(0);
    expect(clean.stdout).toMatch(/Removed dist, its outputs \(\.dist-versions\) and the build cache/);
    await expect(lstat(ws.paths.out)).rejects.toThrow(/ENOENT/);
    expect(await beside(ws.root)).toEqual([]);
    // The next build without the option makes an ordinary folder again.
    await succeeds('build');
    expect((await lstat(ws.paths.out)).isDirectory()).toBe(true);
  });

  it('puts in place the link a build killed between the renames of its first switch had made', async () => {
    ws = await createWorkspace();
    const { root, paths } = ws;
    await succeeds('build');
    const pid = deadPid();
    // The dead build had made its output and the link to it, and moved the old dist/ in: no dist.
    await mkdir(path.join(root, '.dist-versions'));
    await cp(paths.out, path.join(root, '.dist-versions/2'), { recursive: true });
    await symlink('.dist-versions/2', path.join(root, `.dist-link-${pid}`));
    await rename(paths.out, path.join(root, '.dist-versions/1'));
    await mkdir(path.join(root, `.dist-versions/.making-${pid}/api`), { recursive: true });

    const check = await ws.cli('check');
    expect(check.code).toBe(0);
    expect(check.stderr).toMatch(/a build \(process \d+\) was interrupted while it made dist a link to its outputs/);
    expect(await readlink(paths.out)).toBe('.dist-versions/2');
    expect(await list(paths.out)).toMatch(/^\[\{"id":/);
    expect(await beside(root)).toEqual(['.dist-versions']);
    expect(await versions(root)).toEqual(['1', '2']);
  });

  it('removes what a killed build left of a switch: a link not renamed, an output made but not linked', async () => {
    ws = await createWorkspace();
    const { root, paths } = ws;
    await succeeds('build', '--atomic');
    await succeeds('build', '--atomic');
    const pid = deadPid();
    await cp(path.join(root, '.dist-versions/2'), path.join(root, '.dist-versions/3'), { recursive: true });
    await symlink('.dist-versions/3', path.join(root, `.dist-link-${pid}`));
    const check = await ws.cli('check');
    expect(check.code).toBe(0);
    expect(await readlink(paths.out)).toBe('.dist-versions/2');
    expect(await beside(root)).toEqual(['.dist-versions']);
    expect(await versions(root)).toEqual(['1', '2', 'build']);
  });
});
