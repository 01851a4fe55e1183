/**
 * The lists' gzip twins are written in segments: one gzip member that any reader decodes to the
 * exact bytes, the same bytes whether segments were reused or compressed afresh, and after an edit
 * inside one segment only that segment is compressed again.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  gzipSegments,
  segmentedTwins,
  type SegmentTable,
} from '../scripts/generator/engine/compress/segmented-twins.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'segmented-twins-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Twelve chunks of varied JSON-like text (about 30 KB each): three segments of four chunks. */
const chunks = (edited = false) =>
  Array.from({ length: 12 }, (_, i) =>
    Buffer.from(
      `${i === 0 ? '[' : ','}${Array.from({ length: 300 }, (_, k) => JSON.stringify({ id: i * 1000 + k, title: `Record ${k} “Пакошево” 𝔘 ${edited && i === 5 ? 'edited at length' : ''}` })).join(',')}${i === 11 ? ']' : ''}`,
    ),
  );

interface Twins {
  gz: Buffer;
  tables: SegmentTable[];
  /** The keys of the segments taken from the previous twins, not compressed. */
  taken: string[];
}

/** Compresses `parts` into twins, taking what it can from `previous` (found by the tables, as the list writer does). */
async function compress(name: string, parts: Buffer[], previous?: Twins, keys?: string[]): Promise<Twins> {
  const twins = [{ codec: gzipSegments(6), file: createWriteStream(path.join(dir, `${name}.gz`)) }];
  const known = new Map<string, Buffer>();
  if (previous) {
    [previous.gz].forEach((bytes, i) => {
      let position = previous.tables[i]!.start;
      previous.tables[i]!.keys.split('\n').forEach((key, k) => {
        const length = previous.tables[i]!.lengths[k]!;
        known.set(key, bytes.subarray(position, position + length));
        position += length;
      });
    });
  }
  const taken: string[] = [];
  const sink = segmentedTwins(twins, (key) => {
    if (known.has(key)) taken.push(key);
    return known.get(key);
  });
  for (const [i, part] of parts.entries()) await sink.write(part, keys?.[i]);
  const { tables } = await sink.end();
  await Promise.all(twins.map(({ file }) => once(file, 'close')));
  return {
    gz: await readFile(path.join(dir, `${name}.gz`)),
    tables,
    taken,
  };
}

const keysOf = (twins: Twins, prefix: string) =>
  twins.tables.flatMap((table) => table.keys.split('\n')).filter((key) => key.startsWith(prefix));

describe('segmented twins', () => {
  it('are one gzip member that zlib decodes to the exact bytes', async () => {
    const parts = chunks();
    const made = await compress('a', parts);
    const { gz } = made;
    expect(keysOf(made, 'gz ').length).toBe(3);
    // The table says where each segment lies: it adds up to the twin, less its head and its tail.
    expect(made.tables[0]!.start + made.tables[0]!.lengths.reduce((a, b) => a + b, 0)).toBe(gz.length - 10);
    expect(zlib.gunzipSync(gz)).toEqual(Buffer.concat(parts));
  });

  it('decode to what one gzip stream of the whole decodes to (the plain way)', async () => {
    const parts = chunks();
    const { gz } = await compress('plain', parts);
    const whole = zlib.gzipSync(Buffer.concat(parts), { level: 6 });
    expect(zlib.gunzipSync(gz)).toEqual(zlib.gunzipSync(whole));
  });

  it('decode with the gzip program too', async () => {
    const parts = chunks();
    await compress('programs', parts);
    expect(execFileSync('gzip', ['-t', path.join(dir, 'programs.gz')]).length).toBe(0);
    expect(execFileSync('gzip', ['-dc', path.join(dir, 'programs.gz')])).toEqual(Buffer.concat(parts));
  });

  it('of an empty list decode to it', async () => {
    const { gz } = await compress('empty', [Buffer.from('[]')]);
    expect(zlib.gunzipSync(gz).toString()).toBe('[]');
  });

  it('after an edit that lengthens one segment, reuse what it left alone and give the bytes a fresh compression gives', async () => {
    const first = await compress('b', chunks());
    const warm = await compress('c', chunks(true), first);
    const cold = await compress('d', chunks(true));
    expect(warm.gz).toEqual(cold.gz);
    expect(zlib.gunzipSync(warm.gz)).toEqual(Buffer.concat(chunks(true)));
    // The first and the last segment: the edit is in the second.
    expect(warm.taken.length).toBe(2);
    expect(cold.taken).toEqual([]);
  });

  it("keyed by their chunks' keys, give the same bytes, and reuse the segments whose chunks kept their keys", async () => {
    const keys = (edited = false) => chunks().map((_, i) => `chunk ${i}${edited && i === 5 ? ' edited' : ''}`);
    const first = await compress('e', chunks(), undefined, keys());
    const warm = await compress('f', chunks(true), first, keys(true));
    const unkeyed = await compress('g', chunks(true));
    expect(warm.gz).toEqual(unkeyed.gz);
    expect(warm.taken.length).toBe(2);
    // Keys and bytes are digested apart: a segment keyed by its chunks is never taken for one keyed by its bytes.
    expect(keysOf(first, '').some((key) => keysOf(unkeyed, '').includes(key))).toBe(false);
  });
});
