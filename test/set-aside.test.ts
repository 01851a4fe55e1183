/**
 * A large journal's manuscripts keep their long fields in a file set aside rather than in memory
 * (engine/load/set-aside.ts). What is read back is what was set aside, byte for byte; nothing is
 * left in the build cache's folder; a disk that fills up keeps the rest in memory; and the site
 * built that way is the site built with the fields in memory.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { build } from '../scripts/generator/build.ts';
import { SetAsideFile } from '../scripts/generator/engine/load/set-aside.ts';
import { projectPaths } from '../scripts/project.ts';
import { outputDifferences, readTree } from './helpers/incremental.ts';
import { createWorkspace, type Workspace } from './helpers/workspace.ts';

const run = promisify(execFile);
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const clean of cleanup.splice(0).reverse()) await clean();
});

/** `count` buffers of varied lengths and bytes, one of them larger than a write batch (1 MiB). */
function buffers(count: number): Uint8Array[] {
  return Array.from({ length: count }, (_, i) => {
    const bytes = new Uint8Array(i === 7 ? 1_500_000 : 1 + ((i * 7919) % 5000));
    for (let k = 0; k < bytes.length; k++) bytes[k] = (i * 31 + k) & 0xff;
    return bytes;
  });
}

describe('the long fields set aside in a file', () => {
  it('reads back each buffer as it was kept, in any order, and leaves no file behind', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'set-aside-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const file = SetAsideFile.open(dir)!;
    expect(file).toBeDefined();
    expect(await readdir(dir)).toEqual([]);
    const kept = buffers(2_000);
    const refs = kept.map((bytes) => file.keep(bytes));
    expect(refs.every((ref) => !(ref instanceof Uint8Array))).toBe(true);
    // Backwards, then forwards: the last one written is still in the batch when first read.
    const order = [...kept.keys()].filter((i) => i % 97 === 0).reverse();
    expect(unequal(refs, kept, order)).toEqual([]);
    expect(unequal(refs, kept, [...kept.keys()])).toEqual([]);
    // Each read is a buffer of its own, not a view on a shared one (it may go to another thread).
    const read = bytesOf(refs[3]!);
    expect(read.byteOffset).toBe(0);
    expect(read.buffer.byteLength).toBe(kept[3]!.byteLength);
  });

  it('keeps in memory what a full disk refuses, and reads every buffer back', async (context) => {
    const point = await mkdtemp(path.join(os.tmpdir(), 'set-aside-disk-'));
    cleanup.push(() => rm(point, { recursive: true, force: true }));
    try {
      await run('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', point]);
    } catch (error) {
      context.skip(`a small tmpfs cannot be mounted here (root is needed): ${(error as Error).message.split('\n')[0]}`);
    }
    cleanup.push(() => run('umount', [point]).catch(() => {}));
    const file = SetAsideFile.open(point)!;
    const kept = buffers(1_500);
    const refs = kept.map((bytes) => file.keep(bytes));
    // About 3.7 MB on a disk of 2 MB: some are in the file, the rest in memory.
    expect(refs.some((ref) => ref instanceof Uint8Array)).toBe(true);
    expect(refs.some((ref) => !(ref instanceof Uint8Array))).toBe(true);
    expect(unequal(refs, kept, [...kept.keys()])).toEqual([]);
    file.close();
  });

  it('is not used where no file can be made, and the fields stay in memory', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'set-aside-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    await writeFile(path.join(dir, 'a-file'), '');
    expect(SetAsideFile.open(path.join(dir, 'a-file', 'cache'))).toBeUndefined();
  });

  it('builds the same site as with the fields in memory, after an edit too', async () => {
    const ws: Workspace = await createWorkspace();
    cleanup.push(() => ws.dispose());
    const aside = await build(ws.paths, 'build', { setAsideLongFields: true, threads: 2 });
    expect(aside.problems).toEqual([]);
    // The file was made, and unlinked: open, and not in the folder.
    if (process.platform === 'linux') expect(await openSetAside(ws.paths.cache)).not.toEqual([]);
    expect(await readdir(ws.paths.cache)).not.toContainEqual(expect.stringMatching(/^long-fields/));
    const inMemory = projectPaths(ws.root, { out: 'dist-memory', cache: '.cache-memory' });
    expect((await build(inMemory, 'build', { setAsideLongFields: false, cache: false })).problems).toEqual([]);
    expect(outputDifferences(await readTree(ws.paths.out), await readTree(inMemory.out))).toEqual([]);

    // An abstract edited: the record loaded again is set aside, the others come from the cache.
    const manuscripts = path.join(ws.paths.content, 'manuscripts');
    const first = (await readdir(manuscripts)).sort().find((name) => name.endsWith('.yaml'));
    const text = await readFile(path.join(manuscripts, first!), 'utf8');
    await ws.write(`manuscripts/${first}`, text.replace(/^abstract: .*$/m, 'abstract: Set aside, and read back.'));
    expect(text).toMatch(/^abstract: /m);
    expect((await build(ws.paths, 'build', { setAsideLongFields: true })).problems).toEqual([]);
    expect((await build(inMemory, 'build', { setAsideLongFields: false, cache: false })).problems).toEqual([]);
    expect(outputDifferences(await readTree(ws.paths.out), await readTree(inMemory.out))).toEqual([]);
    expect(
      [...(await readTree(ws.paths.out)).values()].some((bytes) => bytes.includes('Set aside, and read back.')),
    ).toBe(true);
  });
});

/** The files set aside in `dir` that this process holds open (Linux). */
async function openSetAside(dir: string): Promise<string[]> {
  const links = await Promise.all(
    (await readdir('/proc/self/fd')).map((fd) => readlink(path.join('/proc/self/fd', fd)).catch(() => '')),
  );
  return links.filter((link) => link.startsWith(path.join(dir, 'long-fields.')) && link.endsWith('(deleted)'));
}

/** The places, in `order`, whose buffer reads back other than it was kept. */
function unequal(refs: (Uint8Array | { bytes(): Uint8Array })[], kept: Uint8Array[], order: number[]): number[] {
  return order.filter((i) => !Buffer.from(bytesOf(refs[i]!)).equals(kept[i]!));
}

function bytesOf(ref: Uint8Array | { bytes(): Uint8Array }): Uint8Array {
  return ref instanceof Uint8Array ? ref : ref.bytes();
}
