/**
 * The file writer writes the pages and copies or links the PDFs on a thread of its own, or, given
 * few files, on the caller's thread with the same code: either way every file arrives with its
 * exact bytes, including bytes that were views on a shared buffer, and a file that cannot be
 * written fails the build instead of going missing.
 */
import { lstat, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileWriter } from '../scripts/generator/engine/write/file-writer.ts';
import { AbstractText, abstractText } from '../scripts/generator/render/abstract-text.ts';
import { stampOfStat, type FileStamp } from '../scripts/generator/engine/scan/stat-many.ts';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'file-writer-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe.each([
  ['on its thread', { inThreadFiles: 0 }],
  ["on the caller's thread", { inThreadFiles: Infinity }],
  ['as many files as it is given', {}],
] as const)('the file writer, %s,', (name, mode) => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(root, `${name.replace(/\W+/g, '-')}-`));
  });

  it('writes every file with its bytes, in batches, whether its buffer was its own or shared', async () => {
    const writer = createFileWriter(undefined, mode);
    for (let i = 0; i < 300; i++) {
      const text = `<p>page ${i} “Пакошево” 𝔘</p>`;
      await writer.write(path.join(dir, `${i}.html`), i % 2 ? new TextEncoder().encode(text) : Buffer.from(text));
    }
    await writer.close();
    for (const i of [0, 1, 63, 64, 299])
      expect(await readFile(path.join(dir, `${i}.html`), 'utf8')).toBe(`<p>page ${i} “Пакошево” 𝔘</p>`);
  });

  it('copies a file as a file of its own, and links it when asked', async () => {
    const source = path.join(dir, 'source.pdf');
    await writeFile(source, '%PDF-1.4 source');
    const writer = createFileWriter(undefined, mode);
    await writer.copy(source, path.join(dir, 'copied.pdf'), 'copy');
    await writer.copy(source, path.join(dir, 'linked.pdf'), 'link');
    await writer.close();
    expect(await readFile(path.join(dir, 'copied.pdf'), 'utf8')).toBe('%PDF-1.4 source');
    expect(await readFile(path.join(dir, 'linked.pdf'), 'utf8')).toBe('%PDF-1.4 source');
    expect((await stat(path.join(dir, 'copied.pdf'))).ino).not.toBe((await stat(source)).ino);
    expect((await stat(path.join(dir, 'linked.pdf'))).ino).toBe((await stat(source)).ino);
  });

  it('copies empty, small and large files byte for byte (a small file is read and written, a large one copied by the kernel)', async () => {
    const sizes = [0, 1, 5_000, (1 << 20) - 1, 1 << 20, (3 << 20) + 17];
    const writer = createFileWriter(undefined, mode);
    for (const size of sizes) {
      const bytes = Buffer.alloc(size);
      for (let i = 0; i < size; i++) bytes[i] = (i * 31 + size) & 0xff;
      await writeFile(path.join(dir, `source-${size}.pdf`), bytes);
      await writer.copy(path.join(dir, `source-${size}.pdf`), path.join(dir, `copy-${size}.pdf`), 'copy');
    }
    await writer.close();
    for (const size of sizes) {
      expect(
        (await readFile(path.join(dir, `copy-${size}.pdf`))).equals(
          await readFile(path.join(dir, `source-${size}.pdf`)),
        ),
        `${size} bytes`,
      ).toBe(true);
    }
  });

  it('answers with the stamp of each file it makes, as lstat gives it once all are written', async () => {
    const source = path.join(dir, 'stamped-source.pdf');
    await writeFile(source, '%PDF-1.4 stamped');
    await writeFile(path.join(dir, 'big-source.pdf'), Buffer.alloc((1 << 20) + 5, 7));
    const stamps = new Map<number, FileStamp>();
    const writer = createFileWriter((tag, stamp) => stamps.set(tag, stamp), mode);
    const files: string[] = [];
    for (let i = 0; i < 150; i++) {
      const file = path.join(dir, `stamped-${i}`);
      files.push(file);
      if (i % 5 === 0) await writer.write(file, Buffer.from(`bytes ${i}`), i);
      else if (i % 5 === 1) await writer.writeText(file, ['text ', String(i), ' “Пакошево”'], i);
      else if (i % 5 === 2) await writer.copy(source, file, 'copy', i);
      else if (i % 5 === 3) await writer.copy(source, file, 'link', i);
      else await writer.copy(path.join(dir, 'big-source.pdf'), file, 'copy', i);
    }
    await writer.write(path.join(dir, 'not-tagged'), Buffer.from('x'));
    await writer.close();
    expect([...stamps.keys()].sort((a, b) => a - b)).toEqual(files.map((_, i) => i));
    for (const [i, file] of files.entries()) expect(stamps.get(i), file).toEqual(stampOfStat(await lstat(file)));
    expect(await readFile(files[1]!, 'utf8')).toBe('text 1 “Пакошево”');
  });

  it('reports a file it cannot copy', async () => {
    const writer = createFileWriter(undefined, mode);
    await writer.copy(path.join(dir, 'missing.pdf'), path.join(dir, 'copy-of-missing.pdf'), 'link');
    await expect(writer.close()).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('writes texts as UTF-8, many to a batch, and one larger than a batch', async () => {
    const writer = createFileWriter(undefined, mode);
    const texts = Array.from({ length: 200 }, (_, i) => `<p>page ${i} “Пакошево” 𝔘 ${'µ'.repeat(i * 40)}</p>`);
    texts.push(`<p>${'Пакошево '.repeat(60_000)}</p>`);
    for (const [i, text] of texts.entries()) await writer.writeText(path.join(dir, `text-${i}.html`), text);
    // The same texts as parts (as landing pages come): cut inside the Cyrillic, and on both sides of
    // the astral character (each part is encoded on its own: a pair is never cut, see FileWriter).
    for (const [i, text] of texts.entries()) {
      const astral = text.indexOf('𝔘');
      const cuts = [0, text.indexOf('к') + 1, astral, astral + 2, text.length]
        .filter((cut) => cut > 0)
        .sort((a, b) => a - b);
      cuts.unshift(0);
      await writer.writeText(
        path.join(dir, `parts-${i}.html`),
        cuts.slice(1).map((cut, k) => text.slice(cuts[k], cut)),
      );
    }
    await writer.close();
    for (const [i, text] of texts.entries()) {
      expect(await readFile(path.join(dir, `text-${i}.html`), 'utf8'), `text-${i}`).toBe(text);
      expect(await readFile(path.join(dir, `parts-${i}.html`), 'utf8'), `parts-${i}`).toBe(text);
    }
  });

  it("makes a page's parts on its thread, a part named twice once, each page from its own abstract", async () => {
    const writer = createFileWriter(undefined, mode);
    const abstracts = ['<p>Newts of <em>Ohrid</em>.</p>', '<p>Newts of Prespa.</p>', '<p>Newts of <em>Ohrid</em>.</p>'];
    const pages = Array.from({ length: 300 }, (_, i) => abstracts[i % abstracts.length]!);
    for (const [i, abstract] of pages.entries()) {
      const json = new TextEncoder().encode(JSON.stringify(abstract));
      // The summary twice, as a landing page names it (its description and Open Graph's), then the HTML.
      const summary = new AbstractText('summary', json);
      await writer.writeText(path.join(dir, `deferred-${i}.html`), [
        `<p>${i}</p>`,
        summary,
        '|',
        summary,
        '|',
        new AbstractText('html', json),
      ]);
    }
    await writer.close();
    for (const [i, abstract] of pages.entries()) {
      const text = abstractText('summary', abstract);
      expect(await readFile(path.join(dir, `deferred-${i}.html`), 'utf8'), `deferred-${i}`).toBe(
        `<p>${i}</p>${text}|${text}|${abstractText('html', abstract)}`,
      );
    }
  });

  it('reports a file it cannot write', async () => {
    const writer = createFileWriter(undefined, mode);
    await writer.write(path.join(dir, 'no-such-folder', 'page.html'), new TextEncoder().encode('x'));
    await expect(writer.close()).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('once stopped, fails what still waits for it and anything written after, rather than leaving it waiting', async () => {
    const writer = createFileWriter(undefined, mode);
    // Twenty batches handed over at once: some are still waiting for the thread when it is stopped.
    const writes = Array.from({ length: 64 * 20 }, (_, i) =>
      writer.write(path.join(dir, `stopped-${i}.html`), new TextEncoder().encode(`<p>${i}</p>`)),
    );
    for (const write of writes) write.catch(() => {});
    await writer.abort();
    expect(
      await writer.close().then(
        () => 'closed',
        (error: Error) => error.message,
      ),
    ).toBe('writing the pages was stopped');
    await expect(writer.write(path.join(dir, 'after.html'), new TextEncoder().encode('x'))).rejects.toThrow(
      'writing the pages was stopped',
    );
  });
});
