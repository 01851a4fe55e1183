/**
 * Brotli of a file on a thread of its own (issue 4): the lists' `.br` twins, compressed while the
 * list is written. It decodes to the exact bytes, gives the same bytes however the writing was
 * reported, and stops when the write is abandoned.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brotliFile } from '../scripts/generator/brotli-file.ts';
import { BROTLI_OPTIONS } from '../scripts/generator/write.ts';

let dir: string;
let source: string;
let bytes: Buffer;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'brotli-file-'));
  source = path.join(dir, 'list.json');
  // A little over three pieces of 1 MiB, so that the last piece is a short one.
  bytes = Buffer.from(JSON.stringify(Array.from({ length: 40_000 }, (_, i) => ({ id: i, title: `Record ${i} “Пакошево” 𝔘 ${'x'.repeat(i % 50)}` }))));
  expect(bytes.length).toBeGreaterThan(3 * 1024 * 1024);
  await writeFile(source, bytes);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('brotli of a written file', () => {
  it('decodes to the exact bytes, and gives the same bytes every time', async () => {
    const [a, b] = [path.join(dir, 'a.br'), path.join(dir, 'b.br')];
    const whole = brotliFile(source, a, BROTLI_OPTIONS);
    whole.complete(bytes.length);
    const size = await whole.result;
    // Told of the file a few bytes at a time, as while it is written: the same bytes come out.
    const followed = brotliFile(source, b, BROTLI_OPTIONS);
    for (let written = 0; written < bytes.length; written += 700_001) followed.written(written);
    followed.complete(bytes.length);
    await followed.result;
    const compressed = await readFile(a);
    expect(compressed.length).toBe(size);
    expect(zlib.brotliDecompressSync(compressed).equals(bytes)).toBe(true);
    expect(compressed.equals(await readFile(b))).toBe(true);
  });

  it('stops, and says so, when the write it belongs to is abandoned', async () => {
    const stopping = new AbortController();
    const compressing = brotliFile(source, path.join(dir, 'stopped.br'), BROTLI_OPTIONS, stopping.signal);
    compressing.written(1 << 20);
    stopping.abort();
    await expect(compressing.result).rejects.toThrow('was stopped');
  });

  it('reports a file it cannot read', async () => {
    const missing = brotliFile(path.join(dir, 'missing.json'), path.join(dir, 'missing.br'), BROTLI_OPTIONS);
    missing.complete(10);
    await expect(missing.result).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
