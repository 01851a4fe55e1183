/**
 * A `dist/` that is a symbolic link, as a deployment that points it at the served folder makes it
 * (`ln -s /var/www/journal dist`): the build writes through the link into its target, never moves
 * or removes the link, and never follows a link while it removes anything. A link inside `dist/`
 * (put there by hand) is removed as a link: what it points to is left alone.
 */
import { lstat, mkdir, mkdtemp, readFile, readlink, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeTree } from '../scripts/shared/remove-tree.ts';
import { age } from './helpers/incremental.ts';
import { createWorkspace, type Workspace } from './helpers/workspace.ts';

let workspace: Workspace | undefined;
let outside: string | undefined;
afterEach(async () => {
  await workspace?.dispose();
  if (outside) await rm(outside, { recursive: true, force: true });
  workspace = undefined;
  outside = undefined;
});

/** A folder outside the project, as a web root is, with a file the test checks survives. */
async function webRoot(): Promise<string> {
  outside = await mkdtemp(path.join(os.tmpdir(), 'journal-web-root-'));
  const root = path.join(outside, 'journal');
  await mkdir(root);
  return root;
}

const list = (dir: string) => readFile(path.join(dir, 'api/manuscripts/index.json'), 'utf8');

describe('dist/ as a link to the served folder', () => {
  it('is written through: the target holds the new output, and the link stays a link to it', async () => {
    workspace = await createWorkspace();
    const target = await webRoot();
    await symlink(target, workspace.paths.out);

    const cold = await workspace.cli('build');
    expect(cold.stderr).toBe('');
    expect(cold.code).toBe(0);
    expect((await lstat(workspace.paths.out)).isSymbolicLink()).toBe(true);
    expect(await readlink(workspace.paths.out)).toBe(target);
    expect(await list(target)).toMatch(/^\[\{"id":/);

    // After an edit, the build updates the target in place, through the link again.
    workspace = await age(workspace);
    const orchids = await readFile(path.join(workspace.paths.content, 'manuscripts/orchids.yaml'), 'utf8');
    await workspace.write('manuscripts/orchids.yaml', orchids.replace(/citation_title: .*/, 'citation_title: Renamed'));
    const edited = await workspace.cli('build');
    expect(edited.code).toBe(0);
    expect(await readlink(workspace.paths.out)).toBe(target);
    expect(await list(target)).toContain('"citation_title":"Renamed"');
    // Nothing of the build is left beside the link or its target.
    expect((await readdir(path.dirname(target))).sort()).toEqual(['journal']);
  });

  it('a cold build swapping a whole new output in never empties the folder the link points to', async () => {
    workspace = await createWorkspace();
    const target = await webRoot();
    await symlink(target, workspace.paths.out);
    expect((await workspace.cli('build')).code).toBe(0);
    // No cache: the build makes a whole new output and swaps it in.
    const again = await workspace.cli('build', '--no-cache');
    expect(again.code).toBe(0);
    expect((await lstat(workspace.paths.out)).isSymbolicLink()).toBe(true);
    expect(await list(target)).toMatch(/^\[\{"id":/);
  });

  it('pointing at nothing is refused in one sentence before anything is touched', async () => {
    workspace = await createWorkspace();
    const target = path.join(await webRoot(), 'missing');
    await symlink(target, workspace.paths.out);
    const result = await workspace.cli('build');
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/dist is a link to .*missing, which does not exist/);
    expect(await readlink(workspace.paths.out)).toBe(target);
    expect(await readdir(path.dirname(target))).toEqual([]);
  });

  it('clean leaves the link and the folder it points to, and says so', async () => {
    workspace = await createWorkspace();
    const target = await webRoot();
    await symlink(target, workspace.paths.out);
    expect((await workspace.cli('build')).code).toBe(0);
    const clean = await workspace.cli('clean');
    expect(clean.code).toBe(0);
    expect(clean.stdout).toMatch(/dist is a link to .*journal: it and that folder are left as they are/);
    expect(await list(target)).toMatch(/^\[\{"id":/);
  });
});

describe('a link inside dist/', () => {
  it('is removed as a link by a build, and what it points to is left alone', async () => {
    workspace = await age(await createWorkspace());
    expect((await workspace.build()).ok).toBe(true);
    const target = await webRoot();
    await writeFile(path.join(target, 'precious.txt'), 'keep me\n');
    await symlink(target, path.join(workspace.paths.out, 'linked-folder'));
    await symlink(path.join(target, 'precious.txt'), path.join(workspace.paths.out, 'api/linked-file.txt'));
    // An update in place, then a whole new output swapped in (the old one removed as a tree).
    expect((await workspace.build()).ok).toBe(true);
    await symlink(target, path.join(workspace.paths.out, 'linked-folder'));
    expect((await workspace.cli('build', '--no-cache')).code).toBe(0);
    expect(await readFile(path.join(target, 'precious.txt'), 'utf8')).toBe('keep me\n');
    await expect(lstat(path.join(workspace.paths.out, 'linked-folder'))).rejects.toThrow(/ENOENT/);
  });

  it('removeTree given a link removes the link only', async () => {
    const target = await webRoot();
    await writeFile(path.join(target, 'precious.txt'), 'keep me\n');
    const link = path.join(path.dirname(target), 'link');
    await symlink(target, link);
    await removeTree(link);
    await expect(lstat(link)).rejects.toThrow(/ENOENT/);
    expect(await readFile(path.join(target, 'precious.txt'), 'utf8')).toBe('keep me\n');
  });
});
