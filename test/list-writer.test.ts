/**
 * The list writer's thread (or, for small lists, the caller's): it writes a list from chunks of
 * bytes and ranges of the previous build's list, its gzip twin from segments compressed or taken from the previous twin, and its
 * brotli twin as one stream. The files decode to the exact list; a previous file that changed
 * meanwhile is refused; a stop closes everything.
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChunkPart } from '../scripts/generator/engine/write/list-items.ts';
import {
  createListWriter,
  type ListWriterOptions,
  type ListWriterSetup,
  type PreviousListFile,
  type WrittenList,
} from '../scripts/generator/engine/write/list-writer.ts';
import { stampOfStat } from '../scripts/generator/engine/scan/stat-many.ts';
import { BROTLI_OPTIONS, GZIP_LEVEL } from '../scripts/generator/engine/write/site-writer.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'list-writer-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Nine chunks of about 40 KB: three segments of four chunks, the last short. */
const texts = (edited = false) =>
  Array.from(
    { length: 9 },
    (_, i) =>
      `${i === 0 ? '[' : ','}${Array.from({ length: 400 }, (_, k) => JSON.stringify({ id: i * 1000 + k, title: `Record ${k} “Пакошево” ${edited && i === 6 ? 'edited' : ''}` })).join(',')}${i === 8 ? ']' : ''}`,
  );
const keys = (edited = false) => texts(edited).map((_, i) => `chunk ${i}${edited && i === 6 ? ' edited' : ''}`);

/** Where the lists are written (set by each block below). */
let mode: ListWriterOptions = {};

async function write(
  name: string,
  chunks: ChunkPart[][],
  chunkKeys: string[],
  setup: Partial<ListWriterSetup> = {},
  previous?: PreviousListFile,
): Promise<WrittenList & { file: string }> {
  const writer = createListWriter({ gzipLevel: GZIP_LEVEL, brotli: BROTLI_OPTIONS, ...setup }, mode);
  try {
    const file = path.join(dir, name);
    const written = await writer.write(
      { file, precompress: true, ...(previous ? { previous } : {}) },
      chunks,
      chunkKeys.values(),
    );
    return { ...written, file };
  } finally {
    await writer.close();
  }
}

/** The files a list was written as, as the next build finds them. */
async function previousOf(list: WrittenList & { file: string }): Promise<PreviousListFile> {
  const stampOf = async (file: string) => stampOfStat(await stat(file));
  return {
    file: list.file,
    stamp: await stampOf(list.file),
    twins: await Promise.all(
      Object.entries(list.twins).map(async ([suffix, table]) => ({
        suffix,
        file: `${list.file}${suffix}`,
        stamp: await stampOf(`${list.file}${suffix}`),
        table,
      })),
    ),
  };
}

async function expectDecoded(file: string, text: string) {
  expect((await readFile(file)).toString('utf8')).toBe(text);
  expect(zlib.gunzipSync(await readFile(`${file}.gz`)).toString('utf8')).toBe(text);
  expect(zlib.brotliDecompressSync(await readFile(`${file}.br`)).toString('utf8')).toBe(text);
}

describe.each([
  ['on its thread', { inThreadBytes: 0 }],
  ["on the caller's thread (lists this small)", {}],
] as const)('the list writer, %s,', (_, options) => {
  beforeAll(() => {
    mode = options;
  });

  it('writes a list and its twins from chunks of bytes, gzip in segments and brotli as one stream', async () => {
    const chunks = texts().map((text) => [Buffer.from(text)]);
    const written = await write('a.json', chunks, keys());
    await expectDecoded(written.file, texts().join(''));
    expect(Object.keys(written.twins)).toEqual(['.gz']);
    expect(written.compressed).toBe(3);
    expect(written.sizes['']).toBe(Buffer.byteLength(texts().join('')));
    // Brotli as one stream: what zlib makes of the whole list at the same settings.
    expect(await readFile(`${written.file}.br`)).toEqual(zlib.brotliCompressSync(texts().join(''), BROTLI_OPTIONS));
  });

  it('reads ranges of the previous list and takes the gzip segments the edit left alone from the previous twin', async () => {
    const first = await write(
      'c.json',
      texts().map((text) => [Buffer.from(text)]),
      keys(),
    );
    const bytes = await readFile(first.file);
    // Every chunk but the edited one named as its range of the previous list.
    let position = 0;
    const chunks = texts(true).map((text, i): ChunkPart[] => {
      const length = Buffer.byteLength(texts()[i]!);
      const range = { position, length };
      position += length;
      return i === 6 ? [Buffer.from(text)] : [range];
    });
    expect(position).toBe(bytes.length);
    const second = await write('d.json', chunks, keys(true), {}, await previousOf(first));
    await expectDecoded(second.file, texts(true).join(''));
    // The edited chunk's segment; the other two segments are taken.
    expect(second.compressed).toBe(1);
    const cold = await write(
      'e.json',
      texts(true).map((text) => [Buffer.from(text)]),
      keys(true),
    );
    for (const suffix of ['.gz', '.br'])
      expect((await readFile(`${second.file}${suffix}`)).equals(await readFile(`${cold.file}${suffix}`)), suffix).toBe(
        true,
      );
  });

  it('refuses a previous file that changed after the build found it', async () => {
    const first = await write(
      'f.json',
      texts().map((text) => [Buffer.from(text)]),
      keys(),
    );
    const previous = await previousOf(first);
    await writeFile(first.file, (await readFile(first.file)).toString('utf8').replace('Record', 'Recorx'));
    await expect(write('g.json', [[{ position: 0, length: 10 }]], ['x'], {}, previous)).rejects.toThrow(
      'changed while the build was running',
    );
  });

  it('stops where it is when the write is abandoned, and says so', async () => {
    const writer = createListWriter({ gzipLevel: GZIP_LEVEL, brotli: BROTLI_OPTIONS }, mode);
    try {
      // Chunks that never end (too many for the caller's thread), sent as the thread takes them.
      function* endless(): Generator<ChunkPart[]> {
        for (let i = 0; ; i++) yield [Buffer.from(`${i === 0 ? '[' : ','}${'"x",'.repeat(250_000)}0`)];
      }
      const writing = writer.write({ file: path.join(dir, 'h.json'), precompress: true }, endless(), undefined);
      setTimeout(() => void writer.stop(), 200);
      await expect(writing).rejects.toThrow('was stopped');
    } finally {
      await writer.close();
    }
  });
});
