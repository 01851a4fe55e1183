/**
 * What an operator's machine can do to a build, rather than an editor's content: a folder of PDFs
 * that cannot be read, a disk with no free inodes, a damaged build cache. Each is one plain line,
 * never a stack trace: exit 1 where the operator must act, a warning and a complete build where the
 * build can mend it itself.
 */
import { execFile } from 'node:child_process';
import { chmod, mkdir, readdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it, type TestContext } from 'vitest';
import type { Problem } from '../scripts/generator/model/problems.ts';
import { snapshot } from './helpers/snapshot.ts';
import { createWorkspace, type Workspace } from './helpers/workspace.ts';

const run = promisify(execFile);
let ws: Workspace | undefined;
const mounted: string[] = [];
const restore: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const undo of restore.splice(0)) await undo();
  for (const point of mounted.splice(0)) await run('umount', [point]).catch(() => {});
  await ws?.dispose();
  ws = undefined;
});

const where = (p: Problem) => `${p.code} ${p.file}:${p.line}:${p.column} ${p.field}`;
/** Whether a command's output holds a stack trace (a line of one of its frames). */
const hasStack = (text: string) => /^\s+at /m.test(text);

const editTitle = async (ws: Workspace, title: string) => {
  const file = path.join(ws.paths.content, 'manuscripts/orchids.yaml');
  await writeFile(file, (await readFile(file, 'utf8')).replace(/^citation_title: .*$/m, `citation_title: ${title}`));
};

describe('a folder of PDFs that cannot be read', () => {
  // chmod 000 denies nothing to root, who runs these tests on the CI machines: a folder replaced by
  // a file cannot be read as a folder by anyone, and fails the same way (one lstat per PDF in it).
  it('a file where the folder should be: one problem naming the folder, exit 1', async () => {
    ws = await createWorkspace();
    expect((await ws.cli('build')).code).toBe(0);
    const before = await snapshot(ws.paths.out);
    const pdfs = path.join(ws.paths.content, 'media/pdfs');
    await rm(pdfs, { recursive: true });
    await writeFile(pdfs, 'not a folder');

    for (const command of ['build', 'check']) {
      const { code, stdout, stderr } = await ws.cli(command);
      expect(hasStack(stdout + stderr)).toBe(false);
      expect(stderr).toContain('content/media/pdfs/: cannot be read: it is a file, not a folder (a folder)\n');
      expect(code).toBe(1);
    }
    expect(await snapshot(ws.paths.out)).toEqual(before);
    const result = await ws.build('check');
    expect(result.problems.map(where)).toEqual(['io/unreadable-folder content/media/pdfs/:0:0 ']);
  });

  const isRoot = process.getuid?.() === 0;
  if (isRoot) console.warn('[operator-errors] skipped the chmod 000 cases: root reads every file and folder');
  for (const folder of ['media/pdfs', 'media']) {
    it.skipIf(isRoot)(`content/${folder}/ without read permission: one problem naming it, exit 1`, async () => {
      ws = await createWorkspace();
      const unreadable = path.join(ws.paths.content, folder);
      await chmod(unreadable, 0);
      restore.push(() => chmod(unreadable, 0o755));
      for (const command of ['build', 'check']) {
        const { code, stdout, stderr } = await ws.cli(command);
        expect(hasStack(stdout + stderr)).toBe(false);
        expect(stderr).toContain(`content/${folder}/: cannot be read (EACCES)`);
        expect(code).toBe(1);
      }
      const result = await ws.build('check');
      expect(result.problems.map(where)).toEqual([`io/unreadable-folder content/${folder}/:0:0 `]);
    });
  }
});

/** A tmpfs of at most `inodes` files and folders at `point`, or the test skipped when this machine cannot mount one. */
async function smallDisk(context: TestContext, point: string, inodes: number): Promise<void> {
  await mkdir(point, { recursive: true });
  try {
    await run('mount', ['-t', 'tmpfs', '-o', `size=64m,nr_inodes=${inodes}`, 'tmpfs', point]);
  } catch (error) {
    context.skip(`a small tmpfs cannot be mounted here (root is needed): ${(error as Error).message.split('\n')[0]}`);
  }
  mounted.push(point);
}

/** Creates empty files in `folder` until its disk has no free inode, then removes `leave` of them. */
async function useInodes(folder: string, leave: number): Promise<void> {
  await mkdir(folder);
  const made: string[] = [];
  for (;;) {
    const file = path.join(folder, `f${made.length}`);
    try {
      await writeFile(file, '');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
      throw error;
    }
    made.push(file);
  }
  for (const file of made.slice(made.length - leave)) await unlink(file);
}

describe('a disk with no free inodes', () => {
  // Node's recursive mkdir says ENOENT, not ENOSPC, when a folder cannot be made for want of an
  // inode; with a few inodes left, the build fails at different folders: each way is tried.
  for (const [leave, options] of [
    [0, []],
    [1, []],
    [2, ['--no-cache']],
    [3, ['--no-cache']],
  ] as const) {
    it(`with ${leave} left${options.length ? `, ${options.join(' ')}` : ''}: one line, exit 1, the output unchanged`, async (context) => {
      ws = await createWorkspace();
      const disk = path.join(ws.root, 'disk');
      await smallDisk(context, disk, 200);
      expect((await ws.cli('build', '--out', 'disk/dist')).code).toBe(0);
      const before = await snapshot(path.join(disk, 'dist'));
      await editTitle(ws, 'Orchids of the whole of Galičica');
      await useInodes(path.join(disk, 'filler'), leave);

      const { code, stdout, stderr } = await ws.cli('build', '--out', 'disk/dist', ...options);
      expect(stdout).toBe('');
      expect(stderr).toBe(
        'No free inodes left on disk/ (it holds as many files and folders as it can, whatever space is free): build stopped; the output is unchanged.\n',
      );
      expect(code).toBe(1);
      expect(await snapshot(path.join(disk, 'dist'))).toEqual(before);
      expect((await readdir(disk)).sort()).toEqual(['dist', 'filler']);
    });
  }
});

describe('an output folder whose folder cannot be written', () => {
  // A read-only disk: what a folder of another user is to anyone but root (who runs these tests).
  it('stops the build in one line naming it, exit 1, the output unchanged', async (context) => {
    ws = await createWorkspace();
    const disk = path.join(ws.root, 'disk');
    await smallDisk(context, disk, 2000);
    expect((await ws.cli('build', '--out', 'disk/dist')).code).toBe(0);
    const before = await snapshot(path.join(disk, 'dist'));
    await editTitle(ws, 'Orchids of the whole of Galičica');
    await run('mount', ['-o', 'remount,ro', disk]);

    const { code, stdout, stderr } = await ws.cli('build', '--out', 'disk/dist');
    expect(stdout).toBe('');
    expect(hasStack(stderr)).toBe(false);
    expect(stderr).toBe(
      'disk/.dist.lock cannot be made (EROFS: a read-only disk): a build writes its lock and its new output beside disk/dist, in disk/; make that folder writable for this user, or build elsewhere with --out.\n',
    );
    expect(code).toBe(1);
    expect(await snapshot(path.join(disk, 'dist'))).toEqual(before);
  });
});

describe('a damaged build cache is removed, said in one line, and the build is complete', () => {
  const cache = (ws: Workspace) => ws.paths.cache;
  const damages: [string, (ws: Workspace) => Promise<void>][] = [
    [
      'a file where its folder should be',
      async (ws) => {
        await rm(cache(ws), { recursive: true });
        await writeFile(cache(ws), 'not a folder');
      },
    ],
    ...['outputs.bin', 'reads.bin', 'lists.bin'].map((name): [string, (ws: Workspace) => Promise<void>] => [
      `a folder where ${name} should be`,
      async (ws) => {
        await rm(path.join(cache(ws), name), { force: true });
        await mkdir(path.join(cache(ws), name, 'garbage'), { recursive: true });
      },
    ]),
  ];
  for (const [damage, make] of damages) {
    it(damage, async () => {
      ws = await createWorkspace();
      expect((await ws.cli('build')).code).toBe(0);
      await editTitle(ws, 'Orchids of the whole of Galičica');
      await make(ws);

      const { code, stdout, stderr } = await ws.cli('build');
      expect(stderr).toMatch(
        /^Warning: the build cache \(\.cache\/journal-build\/\) was damaged \([^)]+\): it was removed, and is made anew\n$/,
      );
      expect(stdout).toMatch(/^Built /);
      expect(code).toBe(0);
      const mended = await snapshot(ws.paths.out);
      // The next build finds a sound cache, and says nothing more.
      const next = await ws.cli('build');
      expect([next.code, next.stderr]).toEqual([0, '']);

      await rm(cache(ws), { recursive: true, force: true });
      await rm(ws.paths.out, { recursive: true });
      expect((await ws.cli('build')).code).toBe(0);
      expect(mended).toEqual(await snapshot(ws.paths.out));
    });
  }

  it('check mends it too', async () => {
    ws = await createWorkspace();
    await mkdir(path.dirname(cache(ws)), { recursive: true });
    await writeFile(cache(ws), 'not a folder');
    const { code, stdout, stderr } = await ws.cli('check');
    expect(stderr).toMatch(/^Warning: the build cache \(\.cache\/journal-build\/\) was damaged \(.*\n$/);
    expect(stdout).toMatch(/^Checked /);
    expect(code).toBe(0);
  });
});
