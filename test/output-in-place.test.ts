/**
 * A build that takes most of its files from the previous output updates `dist/` in place: the files
 * it made move in, the ones the new output no longer has go, and the rest are not touched. The
 * result is exactly what a cold build makes, folders included, and a build killed during the update
 * has it finished by the next command.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { build } from '../scripts/generator/build.ts';
import { projectPaths } from '../scripts/project.ts';
import { age, expectSameAsCold } from './helpers/incremental.ts';
import { createWorkspace, type Workspace } from './helpers/workspace.ts';

let workspace: Workspace | undefined;
afterEach(async () => {
  await workspace?.dispose();
  workspace = undefined;
});

/** Every folder under `dir`, relative, sorted. */
async function folders(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

describe('a build that reuses the previous output updates it in place', () => {
  it("removes a deleted manuscript's files and folders, and anything put into dist/ by hand", async () => {
    workspace = await age(await createWorkspace());
    expect((await workspace.build()).ok).toBe(true);
    const out = workspace.paths.out;
    // Put there by hand, or left by an older version: none of it is in the new output.
    await writeFile(path.join(out, 'stray.txt'), 'by hand\n');
    await writeFile(path.join(out, 'api/authors/stray.json'), '{}');
    await mkdir(path.join(out, 'old/deep'), { recursive: true });
    await writeFile(path.join(out, 'old/deep/page.html'), '<p>old</p>');
    await symlink('/etc/hostname', path.join(out, 'api/hostname'));
    await workspace.remove('manuscripts/beetles.json');
    await workspace.remove('media/pdfs/beetles.pdf');

    const warm = await expectSameAsCold(workspace);
    expect(warm.written!.reused).toBeGreaterThan(10);
    expect(await folders(out)).toEqual(await folders(path.join(workspace.root, 'dist-cold')));
    await expect(stat(path.join(out, 'api/hostname'))).rejects.toThrow();
    expect((await readdir(workspace.root)).filter((name) => name.startsWith('.dist-'))).toEqual([]);
  });

  it('replaces a file by a folder of the same name, and a folder by a file', async () => {
    workspace = await age(await createWorkspace());
    await mkdir(path.join(workspace.root, 'public/guide'), { recursive: true });
    await writeFile(path.join(workspace.root, 'public/about'), 'about, a file\n');
    await writeFile(path.join(workspace.root, 'public/guide/index.html'), '<p>a folder</p>');
    expect((await workspace.build()).ok).toBe(true);

    await rm(path.join(workspace.root, 'public/about'));
    await rm(path.join(workspace.root, 'public/guide'), { recursive: true });
    await mkdir(path.join(workspace.root, 'public/about'));
    await writeFile(path.join(workspace.root, 'public/about/index.html'), '<p>now a folder</p>');
    await writeFile(path.join(workspace.root, 'public/guide'), 'now a file\n');

    const warm = await expectSameAsCold(workspace);
    expect(warm.written!.reused).toBeGreaterThan(10);
    expect(await readFile(path.join(workspace.paths.out, 'guide'), 'utf8')).toBe('now a file\n');
    expect(await folders(workspace.paths.out)).toEqual(await folders(path.join(workspace.root, 'dist-cold')));
  });

  it('a cold build with nothing to reuse swaps a whole new output in', async () => {
    workspace = await createWorkspace();
    expect((await workspace.build()).ok).toBe(true);
    const before = (await stat(workspace.paths.out)).ino;
    const again = await build(workspace.paths, 'build', { cache: false });
    expect(again.written!.reused).toBe(0);
    expect((await stat(workspace.paths.out)).ino).not.toBe(before);
  });

  it('a journal left by a killed build is carried out by the next command', async () => {
    workspace = await age(await createWorkspace());
    expect((await workspace.build()).ok).toBe(true);
    const out = workspace.paths.out;
    // The id of a process that has ended: no build runs under it now.
    const pid = Number(execFileSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' }).trim());
    // The dead build had staged a new sitemap and a new file, and was to remove a page.
    const staging = path.join(workspace.root, `.dist-staging-${pid}`);
    await mkdir(path.join(staging, 'extra'), { recursive: true });
    await writeFile(path.join(staging, 'sitemap.xml'), 'new sitemap\n');
    await writeFile(path.join(staging, 'extra/new.txt'), 'new\n');
    const journal = { removed: ['manuscripts/3.html'], placed: ['sitemap.xml', 'extra/new.txt'] };
    await writeFile(path.join(workspace.root, `.dist-journal-${pid}`), JSON.stringify(journal));

    const result = await build(projectPaths(workspace.root), 'check');
    expect(result.ok).toBe(true);
    expect(result.warnings?.join('\n')).toMatch(/interrupted while it updated dist\/: its update is complete now/);
    expect(await readFile(path.join(out, 'sitemap.xml'), 'utf8')).toBe('new sitemap\n');
    expect(await readFile(path.join(out, 'extra/new.txt'), 'utf8')).toBe('new\n');
    await expect(stat(path.join(out, 'manuscripts/3.html'))).rejects.toThrow();
    expect((await readdir(workspace.root)).filter((name) => name.startsWith('.dist-'))).toEqual([]);
  });
});
