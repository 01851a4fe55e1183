/**
 * Brotli of a written file on a thread of its own (issue 4): the lists' `.br` twins. It decodes to
 * the exact bytes, gives the same bytes every time, and stops when the write is abandoned.
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
    const size = await brotliFile(source, a, BROTLI_OPTIONS);
    await brotliFile(source, b, BROTLI_OPTIONS);
    const compressed = await readFile(a);
    expect(compressed.length).toBe(size);
    expect(zlib.brotliDecompressSync(compressed).equals(bytes)).toBe(true);
    expect(compressed.equals(await readFile(b))).toBe(true);
  });

  it('stops, and says so, when the write it belongs to is abandoned', async () => {
    const stopping = new AbortController();
    const compressing = brotliFile(source, path.join(dir, 'stopped.br'), BROTLI_OPTIONS, stopping.signal);
    stopping.abort();
    await expect(compressing).rejects.toThrow('was stopped');
  });

  it('reports a file it cannot read', async () => {
    await expect(brotliFile(path.join(dir, 'missing.json'), path.join(dir, 'missing.br'), BROTLI_OPTIONS)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
