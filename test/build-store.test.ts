/**
 * The build's store (engine/store/build-store.ts): sections read back as committed, another
 * fingerprint empties it, a damaged or unopenable store makes the build cold with a warning and
 * never fails it, and a process killed while it commits leaves what it was changing untrusted and
 * the rest as it was.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, STORE_FILE, type BuildStore } from '../scripts/generator/engine/store/build-store.ts';

const STORE_MODULE = fileURLToPath(new URL('../scripts/generator/engine/store/build-store.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');

let dir: string;
let opened: BuildStore[] = [];
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'build-store-'));
});
afterEach(async () => {
  for (const store of opened) store.close();
  opened = [];
  await rm(dir, { recursive: true, force: true });
});

function open(fingerprint = 'one', where = dir): BuildStore {
  const store = openStore(where, fingerprint);
  opened.push(store);
  return store;
}

function close(store: BuildStore): void {
  store.close();
  opened = opened.filter((other) => other !== store);
}

const frames = (count: number, tag = 'frame'): { name: string; stamps: Float64Array }[] =>
  Array.from({ length: count }, (_, i) => ({ name: `${tag} ${i}`, stamps: new Float64Array([i, i / 8, 1e12 + i]) }));

describe('the build store', () => {
  it('gives back each section as committed, in order, across batches, and shorter after a shorter commit', () => {
    const store = open();
    expect(store.warning).toBeUndefined();
    expect(store.section('outputs')).toBeUndefined();
    expect(store.commit({ outputs: frames(200), reads: ['a', 'b'] })).toBeUndefined();
    expect(store.section('outputs')).toEqual(frames(200));
    close(store);

    const again = open();
    expect(again.section('outputs')).toEqual(frames(200));
    expect(again.section('reads')).toEqual(['a', 'b']);
    again.commit({ outputs: frames(3, 'shorter') });
    close(again);
    const third = open();
    expect(third.section('outputs')).toEqual(frames(3, 'shorter'));
    expect(third.section('reads')).toEqual(['a', 'b']);
  });

  it('is emptied when opened with another fingerprint', () => {
    const store = open('one');
    store.commit({ outputs: frames(5) });
    close(store);
    const other = open('two');
    expect(other.section('outputs')).toBeUndefined();
    expect(other.warning).toBeUndefined();
    close(other);
    expect(open('one').section('outputs')).toBeUndefined();
  });

  it('forgets a section at once, and keeps the others', () => {
    const store = open();
    store.commit({ outputs: frames(5), reads: ['r'] });
    expect(store.forget(['outputs'])).toBeUndefined();
    close(store);
    const again = open();
    expect(again.section('outputs')).toBeUndefined();
    expect(again.section('reads')).toEqual(['r']);
  });

  for (const damage of ['overwritten', 'truncated', 'a folder'] as const)
    it(`made anew with a warning when its file is ${damage}`, async () => {
      const store = open();
      store.commit({ outputs: frames(300) });
      close(store);
      const file = path.join(dir, STORE_FILE);
      const bytes = await readFile(file);
      if (damage === 'overwritten') await writeFile(file, Buffer.alloc(bytes.length, 0x41));
      if (damage === 'truncated') await truncate(file, Math.floor(bytes.length / 2));
      if (damage === 'a folder') {
        await rm(file);
        await mkdir(path.join(file, 'garbage'), { recursive: true });
      }

      const mended = open();
      expect(mended.warning).toMatch(/^the build cache \(.*\/\) was damaged \(.+\): it was removed, and is made anew$/);
      expect(mended.section('outputs')).toBeUndefined();
      expect(mended.commit({ outputs: frames(2) })).toBeUndefined();
      close(mended);
      const next = open();
      expect([next.warning, next.section('outputs')]).toEqual([undefined, frames(2)]);
    });

  it('does not trust a value whose bytes were changed on the disk', async () => {
    const store = open();
    store.commit({ outputs: ['a value of its own, found in the file'] });
    close(store);
    const file = path.join(dir, STORE_FILE);
    const bytes = await readFile(file);
    // LMDB copies a page on write: the value may be in the file twice, the older copy unused.
    let flipped = 0;
    for (let at = bytes.indexOf('found in the file'); at >= 0; at = bytes.indexOf('found in the file', at + 1)) {
      bytes[at] = bytes[at]! ^ 0x01;
      flipped++;
    }
    expect(flipped).toBeGreaterThan(0);
    await writeFile(file, bytes);
    const damaged = open();
    expect(damaged.warning).toBeUndefined();
    expect(damaged.section('outputs')).toBeUndefined();
  });

  it('holds nothing and warns, never throws, where it cannot be made', async () => {
    const blocker = path.join(dir, 'a-file');
    await writeFile(blocker, 'not a folder');
    const store = open('one', path.join(blocker, 'cache'));
    expect(store.warning).toMatch(/^the build cache \(.*\) could not be opened \(.+\): the output is complete/);
    expect(store.section('outputs')).toBeUndefined();
    expect(store.commit({ outputs: ['x'] })).toBeUndefined();
  });

  describe('a process killed while it commits', () => {
    /** Commits `outputs` of 500 frames in a child process that kills itself at the 300th. */
    async function runKilled(fingerprint: string): Promise<void> {
      const child = `
        import { openStore } from ${JSON.stringify(STORE_MODULE)};
        const store = openStore(${JSON.stringify(dir)}, ${JSON.stringify(fingerprint)});
        store.commit({ outputs: (function* () {
          for (let i = 0; i < 500; i++) {
            if (i === 300) process.kill(process.pid, 'SIGKILL');
            yield { name: 'killed ' + i };
          }
        })() });
      `;
      const script = path.join(dir, 'child.mts');
      await writeFile(script, child);
      const result = spawnSync(process.execPath, ['--import', TSX, script], { encoding: 'utf8' });
      expect([result.signal, result.stderr]).toEqual(['SIGKILL', '']);
    }

    it('leaves the section it was committing untrusted and the others as they were', async () => {
      const store = open();
      store.commit({ outputs: frames(100), reads: ['kept'] });
      close(store);
      await runKilled('one');
      const next = open();
      expect(next.warning).toBeUndefined();
      expect(next.section('outputs')).toBeUndefined();
      expect(next.section('reads')).toEqual(['kept']);
    });

    it('leaves a store emptied by its new fingerprint without that fingerprint', async () => {
      const store = open('old');
      store.commit({ outputs: frames(100), reads: ['old'] });
      close(store);
      await runKilled('new');
      const next = open('new');
      expect([next.section('outputs'), next.section('reads')]).toEqual([undefined, undefined]);
      close(next);
      expect(open('old').section('reads')).toBeUndefined();
    });
  });
});
