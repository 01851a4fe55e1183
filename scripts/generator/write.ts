/**
 * Stage 6: write everything into a staging folder beside the output folder, then swap it in.
 * A build that fails at any point leaves the previous output exactly as it was.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { copyFile, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { once } from 'node:events';
import zlib from 'node:zlib';
import type { MediaCopy } from './media.ts';
import { forEachLimited } from './media.ts';
import type { OutputFile } from './output.ts';

/**
 * Compression levels for the precompressed twins. Both are the maximum: the files are written once
 * and served many times, and at the sample's size the cost is milliseconds (see docs/performance.md).
 */
export const GZIP_OPTIONS: zlib.ZlibOptions = { level: 9 };
export const BROTLI_OPTIONS: zlib.BrotliOptions = {
  params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT },
};

export interface WriteStats {
  files: number;
  bytes: Record<string, number>;
}

export async function writeSite(outDir: string, outputs: readonly OutputFile[], copies: readonly MediaCopy[]): Promise<WriteStats> {
  const parent = path.dirname(outDir);
  const base = path.basename(outDir);
  const staging = path.join(parent, `.${base}-staging-${process.pid}`);
  const previous = path.join(parent, `.${base}-previous-${process.pid}`);
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  const bytes: Record<string, number> = {};
  try {
    for (const output of outputs) Object.assign(bytes, await writeOutput(staging, output));
    await forEachLimited(copies, 16, async (copy) => {
      const target = path.join(staging, ...copy.to.split('/'));
      await mkdir(path.dirname(target), { recursive: true });
      await copyFile(copy.from, target);
    });
    // Swap: the old folder steps aside, the new one takes its name, the old one goes.
    const hadPrevious = await rename(outDir, previous).then(() => true, (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return false;
      throw error;
    });
    await rename(staging, outDir);
    if (hadPrevious) await rm(previous, { recursive: true, force: true });
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  return { files: Object.keys(bytes).length + copies.length, bytes };
}

async function writeOutput(root: string, output: OutputFile): Promise<Record<string, number>> {
  const target = path.join(root, ...output.path.split('/'));
  await mkdir(path.dirname(target), { recursive: true });
  if (typeof output.body !== 'function') {
    const data = typeof output.body === 'string' ? Buffer.from(output.body, 'utf8') : output.body;
    await writeFile(target, data);
    if (!output.precompress) return { [output.path]: data.length };
    const gz = zlib.gzipSync(data, GZIP_OPTIONS);
    const br = zlib.brotliCompressSync(data, BROTLI_OPTIONS);
    await writeFile(`${target}.gz`, gz);
    await writeFile(`${target}.br`, br);
    return { [output.path]: data.length, [`${output.path}.gz`]: gz.length, [`${output.path}.br`]: br.length };
  }
  return streamOutput(target, output);
}

/** Streams the chunks to the file and, in the same pass, through gzip and brotli. */
async function streamOutput(target: string, output: OutputFile): Promise<Record<string, number>> {
  const sinks: { suffix: string; file: WriteStream; transform?: zlib.Gzip | zlib.BrotliCompress }[] = [
    { suffix: '', file: createWriteStream(target) },
  ];
  if (output.precompress) {
    sinks.push({ suffix: '.gz', file: createWriteStream(`${target}.gz`), transform: zlib.createGzip(GZIP_OPTIONS) });
    sinks.push({ suffix: '.br', file: createWriteStream(`${target}.br`), transform: zlib.createBrotliCompress(BROTLI_OPTIONS) });
  }
  const finished = sinks.map(async (sink) => {
    if (sink.transform) sink.transform.pipe(sink.file);
    await once(sink.file, 'close');
  });
  const failed = new Promise<never>((_, reject) => {
    for (const sink of sinks) {
      sink.file.on('error', reject);
      sink.transform?.on('error', reject);
    }
  });
  const body = output.body as () => Iterable<string>;
  for (const chunk of body()) {
    const buffer = Buffer.from(chunk, 'utf8');
    for (const sink of sinks) {
      const writable = sink.transform ?? sink.file;
      if (!writable.write(buffer)) await Promise.race([once(writable, 'drain'), failed]);
    }
  }
  for (const sink of sinks) (sink.transform ?? sink.file).end();
  await Promise.race([Promise.all(finished), failed]);
  const sizes: Record<string, number> = {};
  for (const sink of sinks) sizes[`${output.path}${sink.suffix}`] = sink.file.bytesWritten;
  return sizes;
}
