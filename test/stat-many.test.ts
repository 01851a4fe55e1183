/**
 * statMany answers for each path what `lstat` says: a regular file's stamp, a link as a link
 * (never followed), a folder, nothing; a scan lists folders sorted by code units, with the same.
 */
import { lstatSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanFolders, startsWithMany, statMany, type StatKind } from '../scripts/generator/engine/scan/stat-many.ts';
import { scanContent } from '../scripts/generator/engine/scan/content-scan.ts';
import { NameList } from '../scripts/generator/stages/listing.ts';

let dir: string;
const paths: string[] = [];
const expected: StatKind[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'stat-many-'));
  for (let i = 0; i < 60; i++) {
    const file = path.join(dir, `f${i}`);
    const kind = (['file', 'symlink', 'directory', 'missing'] as const)[i % 4]!;
    if (kind === 'file') await writeFile(file, 'x'.repeat(i));
    if (kind === 'symlink') await symlink(path.join(dir, 'f0'), file);
    if (kind === 'directory') await mkdir(file);
    paths.push(file);
    expected.push(kind);
  }
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('statMany', () => {
  it('gives each path its kind and stamp', async () => {
    const stats = await statMany(paths);
    paths.forEach((file, i) => {
      expect(stats.kind(i), file).toBe(expected[i]);
      const stat = lstatSync(file, { throwIfNoEntry: false });
      expect(stats.stamp(i)).toEqual(stat ? { size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino } : undefined);
    });
  });
});

describe('startsWithMany', () => {
  it('tells which files start with the bytes, and which cannot be read', async () => {
    const magic = Buffer.from('xxxx');
    // Files of 0 to 59 x's: those of 4 or more start with the magic; links are followed, as open does.
    const answers = await startsWithMany(paths, magic);
    paths.forEach((file, i) => {
      const kind = expected[i];
      const readable = kind === 'file' || kind === 'symlink';
      const length = kind === 'symlink' ? 0 : i; // the links point at f0, which is empty
      expect(answers[i], file).toBe(!readable ? 2 : length >= 4 ? 1 : 0);
    });
  });
});

describe('a list of names', () => {
  // Sorted by code units, as a listing is: an astral character (surrogates) before U+FF46.
  const names = ['B.yaml', 'a.yaml', 'a.yaml.yaml', 'c.json', 'é.pdf', '\u{1F600}.pdf', '\uFF46.pdf'];
  const absent = ['', 'a', 'a.yam', 'b.yaml', 'zz', '\u{1F601}.pdf', 'a.yaml\0c.json'];

  it('finds each name by position, in place at the end of a longer text, and none that is not there', () => {
    const column = new NameList(names);
    expect(column.length).toBe(names.length);
    expect(column.joined).toBe(names.join('\0'));
    expect(names.map((_, i) => column.at(i))).toEqual(names);
    expect(names.map((name) => column.position(name))).toEqual(names.map((_, i) => i));
    expect(absent.map((name) => column.position(name))).toEqual(absent.map(() => undefined));
    expect([...names].reverse().map((name) => column.find(`pdfs/${name}`, 5))).toEqual(
      names.map((_, i) => names.length - 1 - i),
    );
    expect(absent.map((name) => column.find(`pdfs/${name}`, 5))).toEqual(absent.map(() => undefined));
    names.forEach((name, i) => {
      expect(column.matches(i, `pdfs/${name}`, 5), name).toBe(true);
      expect(column.matches(i, `pdfs/${name}x`, 5), `${name}x`).toBe(false);
      expect(column.matches(i, `pdfs/${name.slice(1)}`, 4), `${name} shifted`).toBe(false);
      expect(column.matches(i, `pdfs/${name}`, 4), `${name} with the slash`).toBe(false);
    });
    expect(column.matches(names.length, 'B.yaml')).toBe(false);
    expect(column.matches(-1, 'B.yaml')).toBe(false);
    expect(column.all()).toEqual(names);
    const none = new NameList([]);
    expect([none.length, none.all(), none.position(''), none.find(''), none.matches(0, '')]).toEqual([
      0,
      [],
      undefined,
      undefined,
      false,
    ]);
  });

  it('finds every name of a large folder, and none that is not there', () => {
    const many = Array.from({ length: 20_000 }, (_, i) => `${i + 1}.${['bib', 'json', 'ris'][i % 3]}`).sort();
    const column = new NameList(many);
    for (let i = many.length - 1; i >= 0; i -= 7) expect(column.find(`citations/${many[i]}`, 10)).toBe(i);
    for (const name of ['0.bib', '1.bi', '20001.ris', '1.bib\0'])
      expect(column.find(`citations/${name}`, 10), name).toBeUndefined();
  });
});

describe('scanFolders', () => {
  /** Everything a scan says of each folder it reached: names, kinds and stamps, in its order. */
  async function describeScan() {
    const scan = scanFolders([
      { path: path.join(dir, 'flat') },
      { path: path.join(dir, 'tree'), recursive: true },
      { path: path.join(dir, 'absent') },
    ]);
    const folders = ['flat', 'tree', 'tree/a', 'tree/a/deep', 'tree/linked', 'absent'];
    return Promise.all(
      folders.map(async (folder) => {
        const listing = await scan.folder(path.join(dir, folder));
        return (
          listing && {
            folder,
            names: listing.names,
            entries: listing.names.map((name, i) => [
              name,
              listing.kind(i),
              listing.stamp(i),
              listing.column.position(name),
            ]),
            absent: ['b.yaml', 'a.yam', 'zz', '', '\u{1F601}.pdf'].map((name) => listing.column.position(name)),
          }
        );
      }),
    );
  }

  beforeAll(async () => {
    for (const folder of ['flat', 'tree/a/deep', 'tree/b']) await mkdir(path.join(dir, folder), { recursive: true });
    // Names in an order that is not the code-unit order once sorted by locale: "B" < "a" < "é";
    // nor by code points: an astral character (surrogates from U+D800) comes before U+FF46.
    for (const name of ['é.pdf', 'a.yaml', 'B.yaml', 'c.json', '\uFF46.pdf', '\u{1F600}.pdf'])
      await writeFile(path.join(dir, 'flat', name), name);
    await writeFile(path.join(dir, 'tree/a/deep/x.pdf'), '%PDF-');
    await writeFile(path.join(dir, 'tree/b/y.pdf'), '%PDF-1');
    await symlink(path.join(dir, 'tree/b'), path.join(dir, 'tree/linked'));
  });

  it('lists each folder sorted by code units, with what lstat says of each entry, never through a link', async () => {
    const [flat, tree, a, deep, linked, absent] = await describeScan();
    expect(flat!.names).toEqual(['B.yaml', 'a.yaml', 'c.json', 'é.pdf', '\u{1F600}.pdf', '\uFF46.pdf']);
    expect(flat!.absent).toEqual([undefined, undefined, undefined, undefined, undefined]);
    flat!.entries.forEach(([name, kind, stamp, position], i) => {
      const stat = lstatSync(path.join(dir, 'flat', name as string));
      expect([kind, stamp, position]).toEqual(['file', { size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino }, i]);
    });
    expect(tree!.entries.map(([name, kind]) => [name, kind])).toEqual([
      ['a', 'directory'],
      ['b', 'directory'],
      ['linked', 'symlink'],
    ]);
    expect(a!.names).toEqual(['deep']);
    expect(deep!.names).toEqual(['x.pdf']);
    expect(linked).toBeUndefined();
    expect(absent).toBeUndefined();
  });

  it('lists a large folder whole, each entry with its kind and stamp', async () => {
    const big = path.join(dir, 'big');
    await mkdir(path.join(big, 'sub'), { recursive: true });
    const names = Array.from({ length: 20_000 }, (_, i) => `f${String(i).padStart(6, '0')}.yaml`);
    for (const [i, name] of names.entries()) writeFileSync(path.join(big, name), 'x'.repeat(i % 7));
    await symlink(path.join(big, 'sub'), path.join(big, 'link'));
    const listing = (await scanFolders([{ path: big, recursive: true }]).folder(big))!;
    expect(listing.names).toEqual([...names, 'link', 'sub']);
    listing.names.forEach((name, i) => {
      const stat = lstatSync(path.join(big, name));
      const kind = stat.isFile() ? 'file' : stat.isSymbolicLink() ? 'symlink' : 'directory';
      expect([listing.kind(i), listing.stamp(i)], name).toEqual([
        kind,
        { size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino },
      ]);
    });
  });

  it('answers for a folder under a recursive root once that root is walked, before the roots after it', async () => {
    // `tree` is walked, then the large folder of the test before. The media checks wait for a folder
    // under content/media while the previous output is stamped after it (content-scan.ts).
    const big = path.join(dir, 'big');
    const scan = scanFolders([
      { path: path.join(dir, 'tree'), recursive: true },
      { path: big, recursive: true },
    ]);
    const deep = scan.folder(path.join(dir, 'tree/a/deep'));
    const first = await Promise.race([deep.then(() => 'tree/a/deep'), scan.folder(big).then(() => 'big')]);
    expect(first).toBe('tree/a/deep');
    expect((await deep)!.names).toEqual(['x.pdf']);
    // Under the root walked last, and a folder under no root: once the scan is done.
    expect((await scan.folder(path.join(big, 'sub')))!.names).toEqual([]);
    expect(await scan.folder(path.join(dir, 'flat'))).toBeUndefined();
  });
});

describe('scanContent', () => {
  it("lists a journal's folders with what lstat says of each entry", async () => {
    const content = path.join(import.meta.dirname, 'fixtures', 'valid-journal');
    const folders = (await readdir(content, { withFileTypes: true }))
      .filter((entry) => entry.isDirectory())
      .map((entry) => path.join(content, entry.name));
    const scan = scanContent(content);
    for (const folder of folders) {
      const listing = (await scan.folder(folder))!;
      expect(listing.names).toEqual((await readdir(folder)).sort());
      listing.names.forEach((name, i) => {
        const stat = lstatSync(path.join(folder, name));
        expect(listing.stamp(i), name).toEqual({ size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino });
      });
    }
  });
});
