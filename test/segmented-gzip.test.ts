/**
 * The lists' gzip twins are written in segments (issue 4): one gzip member that any gzip reader
 * decodes to the exact bytes, the same bytes whether segments were reused or compressed afresh,
 * and after an edit inside one segment only that segment is compressed again.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { segmentedGzip, type GzipSegments } from '../scripts/generator/segmented-gzip.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'segmented-gzip-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Twelve chunks of varied JSON-like text: three segments of four chunks. */
const chunks = (edited = false) => Array.from({ length: 12 }, (_, i) =>
  Buffer.from(`${i === 0 ? '[' : ','}${Array.from({ length: 300 }, (_, k) => JSON.stringify({ id: i * 1000 + k, title: `Record ${k} “Пакошево” 𝔘 ${edited && i === 5 ? 'edited' : ''}` })).join(',')}${i === 11 ? ']' : ''}`));

async function compress(name: string, parts: Buffer[], previous: ReadonlyMap<string, Uint8Array>): Promise<{ bytes: Buffer; segments: GzipSegments }> {
  const file = path.join(dir, name);
  const out = createWriteStream(file);
  const segments: GzipSegments = { previous, next: new Map() };
  const gzip = segmentedGzip(out, 6, segments);
  for (const part of parts) await gzip.write(part);
  await gzip.end();
  await once(out, 'close');
  return { bytes: await readFile(file), segments };
}

describe('segmented gzip', () => {
  it('is one gzip member that zlib and the gzip program decode to the exact bytes', async () => {
    const parts = chunks();
    const { bytes, segments } = await compress('a.gz', parts, new Map());
    expect(segments.next.size).toBe(3);
    expect(zlib.gunzipSync(bytes)).toEqual(Buffer.concat(parts));
    expect(execFileSync('gzip', ['-t', path.join(dir, 'a.gz')]).length).toBe(0);
    expect(execFileSync('gzip', ['-dc', path.join(dir, 'a.gz')])).toEqual(Buffer.concat(parts));
  });

  it('after an edit inside one segment, reuses the other two and gives the bytes a fresh compression gives', async () => {
    const first = await compress('b.gz', chunks(), new Map());
    const warm = await compress('c.gz', chunks(true), first.segments.next);
    const cold = await compress('d.gz', chunks(true), new Map());
    expect(warm.bytes).toEqual(cold.bytes);
    expect(zlib.gunzipSync(warm.bytes)).toEqual(Buffer.concat(chunks(true)));
    const reused = [...warm.segments.next.values()].filter((segment) => [...first.segments.next.values()].includes(segment));
    expect(reused.length).toBe(2);
  });
});
