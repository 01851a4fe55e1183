/**
 * statMany answers for each path what `lstat` says, whether the path was taken by this
 * thread or by a worker: a regular file's stamp, a link as a link (never followed), a folder, nothing.
 */
import { execFile } from 'node:child_process';
import { lstatSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  NameColumn,
  scanFolders,
  startsWithMany,
  statMany,
  type StatKind,
} from '../scripts/generator/engine/scan/stat-many.ts';
import { scanContent } from '../scripts/generator/engine/scan/content-scan.ts';
import { SHARED_FOLDER, STAT_FIELDS, stampOne } from '../scripts/generator/engine/scan/stat-walk.mjs';

const run = promisify(execFile);
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
  for (const [label, perWorker] of [
    ['on this thread', 1_000_000],
    ['split with workers', 10],
  ] as const) {
    it(`gives each path its kind and stamp, ${label}`, async () => {
      const stats = await statMany(paths, perWorker);
      paths.forEach((file, i) => {
        expect(stats.kind(i), file).toBe(expected[i]);
        const stat = lstatSync(file, { throwIfNoEntry: false });
        expect(stats.stamp(i)).toEqual(stat ? { size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino } : undefined);
      });
    });
  }
});

describe('startsWithMany', () => {
  const cases = [
    ['on this thread', { minPathsPerWorker: 1_000_000 }],
    ['split with workers', { minPathsPerWorker: 10 }],
    ['left to workers', { minPathsPerWorker: 10, shareThisThread: false }],
    ['on this thread, when too few to leave to workers', { minPathsPerWorker: 1_000_000, shareThisThread: false }],
  ] as const;
  for (const [label, options] of cases) {
    it(`tells which files start with the bytes, and which cannot be read, ${label}`, async () => {
      const magic = Buffer.from('xxxx');
      // Files of 0 to 59 x's: those of 4 or more start with the magic; links are followed, as open does.
      const answers = await startsWithMany(paths, magic, options);
      paths.forEach((file, i) => {
        const kind = expected[i];
        const readable = kind === 'file' || kind === 'symlink';
        const length = kind === 'symlink' ? 0 : i; // the links point at f0, which is empty
        expect(answers[i], file).toBe(!readable ? 2 : length >= 4 ? 1 : 0);
      });
    });
  }
});

describe('the stamp of one path', () => {
  it("is what Node's public lstatSync says of a file, a link, a folder and a missing path", () => {
    for (const file of [...paths, dir, path.join(dir, 'absent')]) {
      const stamp = new Float64Array(STAT_FIELDS);
      stampOne(stamp, 0, file);
      const stat = lstatSync(file, { throwIfNoEntry: false });
      const kind = !stat ? 0 : stat.isFile() ? 1 : stat.isSymbolicLink() ? 2 : stat.isDirectory() ? 4 : 3;
      expect([...stamp], file).toEqual(stat ? [kind, stat.size, stat.mtimeMs, stat.ino] : [0, 0, 0, 0]);
    }
  });

  it('prints no warning when Node is asked to warn of pending deprecations (no internal is used)', async () => {
    const walk = pathToFileURL(path.join(import.meta.dirname, '../scripts/generator/engine/scan/stat-walk.mjs')).href;
    const script = `import('${walk}').then((walk) => { walk.stampOne(new Float64Array(4), 0, '.'); console.log('stamped'); })`;
    const { stdout, stderr } = await run(process.execPath, [
      '--pending-deprecation',
      '--throw-deprecation',
      '-e',
      script,
    ]);
    expect(stdout.trim()).toBe('stamped');
    expect(stderr).toBe('');
  });
});

describe('a column of names', () => {
  // Sorted by code units, as a listing is: an astral character (surrogates) before U+FF46.
  const names = ['B.yaml', 'a.yaml', 'a.yaml.yaml', 'c.json', 'é.pdf', '\u{1F600}.pdf', '\uFF46.pdf'];
  const absent = ['', 'a', 'a.yam', 'b.yaml', 'zz', '\u{1F601}.pdf', 'a.yaml\0c.json'];

  it('reads the same whether it holds the joined names a worker sends or the names themselves', () => {
    for (const column of [NameColumn.fromJoined(names.join('\0'), names.length), NameColumn.fromNames(names)]) {
      expect(column.length).toBe(names.length);
      expect(column.joined).toBe(names.join('\0'));
      expect(names.map((_, i) => column.at(i))).toEqual(names);
      expect(names.map((name) => column.position(name))).toEqual(names.map((_, i) => i));
      expect(absent.map((name) => column.position(name))).toEqual(absent.map(() => undefined));
      // By the table of hashes, in any order, and in place at the end of a longer text.
      expect([...names].reverse().map((name) => column.find(`pdfs/${name}`, 5))).toEqual(
        names.map((_, i) => names.length - 1 - i),
      );
      expect(absent.map((name) => column.find(`pdfs/${name}`, 5))).toEqual(absent.map(() => undefined));
      // In place: name i against the end of a longer text, as a PDF's path ends with its name.
      names.forEach((name, i) => {
        expect(column.matches(i, `pdfs/${name}`, 5), name).toBe(true);
        expect(column.matches(i, `pdfs/${name}x`, 5), `${name}x`).toBe(false);
        expect(column.matches(i, `pdfs/${name.slice(1)}`, 4), `${name} shifted`).toBe(false);
        expect(column.matches(i, `pdfs/${name}`, 4), `${name} with the slash`).toBe(false);
      });
      expect(column.matches(names.length, 'B.yaml')).toBe(false);
      expect(column.matches(-1, 'B.yaml')).toBe(false);
      expect(column.all()).toEqual(names);
    }
    const none = NameColumn.fromJoined('', 0);
    expect([none.length, none.all(), none.position(''), none.find(''), none.matches(0, '')]).toEqual([
      0,
      [],
      undefined,
      undefined,
      false,
    ]);
  });
});

describe("finding a name in a large folder's column", () => {
  it('finds every name, and none that is not there, with the table of hashes full enough to collide', () => {
    const names = Array.from({ length: 20_000 }, (_, i) => `${i + 1}.${['bib', 'json', 'ris'][i % 3]}`).sort();
    const column = NameColumn.fromJoined(names.join('\0'), names.length);
    for (let i = names.length - 1; i >= 0; i -= 7) expect(column.find(`citations/${names[i]}`, 10)).toBe(i);
    for (const name of ['0.bib', '1.bi', '20001.ris', '1.bib\0'])
      expect(column.find(`citations/${name}`, 10), name).toBeUndefined();
  });
});

describe('scanFolders', () => {
  /** Everything a scan says of each folder it reached: names, kinds and stamps, in its order. */
  async function describeScan(threads: number) {
    const scan = scanFolders(
      [
        { path: path.join(dir, 'flat') },
        { path: path.join(dir, 'tree'), recursive: true },
        { path: path.join(dir, 'absent') },
      ],
      threads,
    );
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
    const [flat, tree, a, deep, linked, absent] = await describeScan(0);
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

  it('says the same on worker threads as on this thread', async () => {
    expect(await describeScan(2)).toEqual(await describeScan(0));
  });

  it('says the same of a folder large enough to be stamped in shares by workers and this thread', async () => {
    const big = path.join(dir, 'big');
    await mkdir(path.join(big, 'sub'), { recursive: true });
    const names = Array.from({ length: SHARED_FOLDER + 5_000 }, (_, i) => `f${String(i).padStart(6, '0')}.yaml`);
    for (const [i, name] of names.entries()) writeFileSync(path.join(big, name), 'x'.repeat(i % 7));
    await symlink(path.join(big, 'sub'), path.join(big, 'link'));
    const describeBig = async (threads: number) => {
      const listing = (await scanFolders([{ path: big, recursive: true }], threads).folder(big))!;
      return listing.names.map((name, i) => [name, listing.kind(i), listing.stamp(i)]);
    };
    const alone = await describeBig(0);
    expect(alone).toHaveLength(names.length + 2);
    expect(alone.filter(([, kind]) => kind === 'file')).toHaveLength(names.length);
    expect(await describeBig(2)).toEqual(alone);
    // With a second folder and workers that help each other, the worker that claims the small
    // folder has none left once it is done, and takes chunks of the large one the other is stamping.
    const both = scanFolders([{ path: path.join(dir, 'flat') }, { path: big, recursive: true }], 2, {
      helpEachOther: true,
    });
    const listing = (await both.folder(big))!;
    expect(listing.names.map((name, i) => [name, listing.kind(i), listing.stamp(i)])).toEqual(alone);
    expect((await both.folder(path.join(dir, 'flat')))!.names).toHaveLength(6);
    // Its listing kept, then read back into shared memory for the threads that share its stamps.
    const listings = { dir: path.join(dir, 'big-listings'), trustedBefore: Date.now() + 60_000 };
    for (const round of ['kept', 'read back']) {
      const keptScan = scanFolders(
        [{ path: path.join(dir, 'flat') }, { path: big, recursive: true, keepListings: true }],
        2,
        { helpEachOther: true, listings },
      );
      const again = (await keptScan.folder(big))!;
      expect(
        again.names.map((name, i) => [name, again.kind(i), again.stamp(i)]),
        round,
      ).toEqual(alone);
      expect(await readdir(listings.dir), round).toHaveLength(1);
    }
  });

  describe('with listings kept between scans', () => {
    const folder = () => path.join(dir, 'kept');
    const listingsDir = () => path.join(dir, 'listings');
    const scanKept = async (threads: number, trustedBefore: number) =>
      (await scanFolders([{ path: folder(), keepListings: true }], threads, {
        listings: { dir: listingsDir(), trustedBefore },
      }).folder(folder()))!;
    const names = Array.from({ length: 1_100 }, (_, i) => `f${String(i).padStart(4, '0')}.yaml`);

    beforeAll(async () => {
      await mkdir(folder());
      for (const name of names) writeFileSync(path.join(folder(), name), name);
    });

    it('keeps no listing of a folder changed too recently to trust its stamp', async () => {
      expect((await scanKept(0, Date.now() - 60_000)).names).toEqual(names);
      await expect(readdir(listingsDir())).rejects.toThrow();
    });

    it('reads a listing back while its folder keeps its stamp, still stamps each entry, and lists a changed folder again', async () => {
      expect((await scanKept(0, Date.now() + 60_000)).names).toEqual(names);
      const [kept] = await readdir(listingsDir());
      const file = path.join(listingsDir(), kept!);
      // A name changed in the kept listing: read back, it shows that the folder was not listed.
      await writeFile(file, (await readFile(file, 'utf8')).replace('f0005.yaml', 'g0005.yaml'));
      for (const threads of [0, 2]) {
        const listing = await scanKept(threads, Date.now() + 60_000);
        expect(listing.names[5], `${threads} threads`).toBe('g0005.yaml');
        expect([listing.kind(5), listing.kind(6)], `${threads} threads`).toEqual(['missing', 'file']);
      }
      // A damaged listing (a name fewer than it says) is listed again.
      const text = await readFile(file, 'utf8');
      await writeFile(file, text.slice(0, text.lastIndexOf('\0')));
      expect((await scanKept(0, Date.now() + 60_000)).names).toEqual(names);
      await writeFile(file, text);
      // An entry added: the folder's times change, and it is listed again (and kept again).
      await new Promise((resolve) => setTimeout(resolve, 50));
      writeFileSync(path.join(folder(), 'f9999.yaml'), 'new');
      for (const threads of [2, 0])
        expect((await scanKept(threads, Date.now() + 60_000)).names, `${threads} threads`).toEqual([
          ...names,
          'f9999.yaml',
        ]);
      expect(await readFile(file, 'utf8')).toContain('f0005.yaml');
    });
  });

  it('answers for a folder under a recursive root once that root is walked, before the roots after it', async () => {
    // One worker walks `tree`, then the large folder of the test before. The media checks wait for
    // a folder under content/media while the previous output is stamped after it (content-scan.ts).
    const big = path.join(dir, 'big');
    const scan = scanFolders(
      [
        { path: path.join(dir, 'tree'), recursive: true },
        { path: big, recursive: true },
      ],
      1,
    );
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
  it('scans a small journal on this thread, with the answers the workers give', async () => {
    const content = path.join(import.meta.dirname, 'fixtures', 'valid-journal');
    const folders = (await readdir(content, { withFileTypes: true }))
      .filter((entry) => entry.isDirectory())
      .map((entry) => path.join(content, entry.name));
    const describe = async (scan: ReturnType<typeof scanContent>) =>
      Promise.all(
        folders.map(async (folder) => {
          const listing = await scan.folder(folder);
          return listing && listing.names.map((name: string, i: number) => [name, listing.kind(i), listing.stamp(i)]);
        }),
      );
    // As the command line starts it (small: on this thread), and on two workers.
    expect(await describe(scanContent(content))).toEqual(await describe(scanContent(content, { threads: 2 })));
  });
});
