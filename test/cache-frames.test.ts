import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readFrames, writeFrames } from '../scripts/generator/engine/cache/cache.ts';

// A frame read back must not keep the bytes it was read from: the build cache's frames are tens of
// MB at 100,000 manuscripts, and a column of numbers restored as a view of its frame kept every
// frame's bytes alive to the end of the build, beside the strings already made from them.
describe('the build cache, read back', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('gives columns of numbers that hold their own bytes, not their frame', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cache-frames-'));
    dirs.push(dir);
    // Every alignment of the columns after a long text, as the index's columns come after its names.
    const frames = Array.from({ length: 8 }, (_, shift) => ({
      names: 'n'.repeat(1_000_000 + shift),
      bytes: new Uint8Array([1, 2, 3]),
      rows: new Uint32Array([4, 5, 6]),
      stamps: new Float64Array([7.5, 8.5]),
      nested: [{ buffer: Buffer.from('abc') }],
    }));
    expect(writeFrames(dir, 'frames.bin', 'print', frames)).toBeUndefined();
    const read = readFrames<(typeof frames)[number]>(path.join(dir, 'frames.bin'), 'print');
    expect(read).toHaveLength(8);
    for (const frame of read!) {
      for (const column of [frame.bytes, frame.rows, frame.stamps, frame.nested[0]!.buffer]) {
        expect(column.buffer.byteLength).toBeLessThan(10_000);
      }
      expect([...frame.bytes]).toEqual([1, 2, 3]);
      expect([...frame.rows]).toEqual([4, 5, 6]);
      expect([...frame.stamps]).toEqual([7.5, 8.5]);
      expect(Buffer.isBuffer(frame.nested[0]!.buffer)).toBe(true);
      expect(frame.nested[0]!.buffer.toString()).toBe('abc');
    }
  });

  it('writes frames made one at a time, their number known only once the last is made', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cache-frames-'));
    dirs.push(dir);
    function* made(): Generator<string> {
      for (let i = 0; i < 12; i++) yield `frame ${i}`;
    }
    expect(writeFrames(dir, 'made.bin', 'print', made())).toBeUndefined();
    expect(readFrames<string>(path.join(dir, 'made.bin'), 'print')).toEqual(
      Array.from({ length: 12 }, (_, i) => `frame ${i}`),
    );
    expect(readFrames<string>(path.join(dir, 'made.bin'), 'another print')).toBeUndefined();
  });
});
