/**
 * The previous build's output as rows (output-rows.ts): looked up in the order it was
 * written, with a step over a deleted output and a map for anything else, and kept in the build
 * cache across frames without a row's stamp landing on another's.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  readOutputManifest,
  readOutputReads,
  removeOutputManifest,
  writeOutputManifest,
  writeOutputReads,
} from '../scripts/generator/engine/cache/cache.ts';
import { readsFrames } from '../scripts/generator/engine/cache/output-reads.ts';
import {
  JoinedRows,
  OutputRowsBuilder,
  rowFinder,
  rowStamp,
  type OutputRows,
} from '../scripts/generator/engine/cache/output-rows.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'output-rows-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function pages(count: number): OutputRowsBuilder {
  const rows = new OutputRowsBuilder();
  for (let i = 0; i < count; i++)
    rows.add(`manuscripts/${i + 1}.html`, `page:${i}`, 1000 + i, 1.7e12 + i / 8, 5_000_000 + i);
  return rows;
}

describe("finding an output among the previous build's rows", () => {
  const rows = pages(6);
  it('finds each output in the order written, and one after a deleted output', () => {
    const find = rowFinder(rows);
    expect(find('manuscripts/1.html', 0)).toBe(0);
    expect(find('manuscripts/2.html', 1)).toBe(1);
    // 3 was deleted: 4 is one row further than the hint.
    expect(find('manuscripts/4.html', 2)).toBe(3);
  });

  it('finds an output that moved, and none for an output the previous build did not write', () => {
    const find = rowFinder(rows);
    expect(find('manuscripts/6.html', 0)).toBe(5);
    expect(find('manuscripts/1.html', 4)).toBe(0);
    expect(find('manuscripts/7.html', 0)).toBe(-1);
    expect(find('manuscripts/7.html', 6)).toBe(-1);
  });

  it('finds every output wherever the search starts, before and after it has made a map of the rows', () => {
    const many = pages(40);
    const find = rowFinder(many);
    // Far from the hint, again and again: the first few by comparing every row, then by the map.
    for (const [name, hint, row] of [
      ['manuscripts/31.html', 0, 30],
      ['manuscripts/2.html', 20, 1],
      ['manuscripts/41.html', 0, -1],
      ['manuscripts/12.html', 30, 11],
      ['manuscripts/25.html', 2, 24],
      ['manuscripts/40.html', 0, 39],
      ['manuscripts/7.html', 6, 6],
      ['manuscripts/10.html', 6, 9],
    ] as const)
      expect(find(name, hint), name).toBe(row);
  });
});

describe("the previous build's rows, joined", () => {
  const stamps = (rows: number) => new Float64Array(rows * 3);
  it('are read across frames, an empty one among them', () => {
    const rows = JoinedRows.fromFrames([
      { names: 'a\0b', keys: 'ka\0kb', stamps: stamps(2) },
      { names: '', keys: '', stamps: stamps(0) },
      { names: 'c', keys: 'kc', stamps: stamps(1) },
    ])!;
    expect(Array.from({ length: rows.count }, (_, row) => `${rows.name(row)}:${rows.key(row)}`)).toEqual([
      'a:ka',
      'b:kb',
      'c:kc',
    ]);
    expect([rows.rowNamed('c'), rows.isNamed(1, 'b'), rows.joinedNames(0, 3)]).toEqual([2, true, 'a\0b\0c']);
  });

  it('are not trusted when a frame holds another number of names or keys than of stamps', () => {
    expect(JoinedRows.fromFrames([{ names: 'a\0b', keys: 'ka', stamps: stamps(2) }])).toBeUndefined();
    expect(JoinedRows.fromFrames([{ names: 'a', keys: 'ka', stamps: stamps(2) }])).toBeUndefined();
    expect(JoinedRows.fromFrames([{ names: 'a', keys: 'ka', stamps: stamps(0) }])).toBeUndefined();
  });
});

describe('rows made one at a time', () => {
  it('keeps every stamp past the room it was made with, and a stamp set later', () => {
    const rows = new OutputRowsBuilder(2);
    for (let i = 0; i < 9; i++) rows.add(`p${i}`, `k${i}`, i, 1.7e12 + i / 8, Number.NaN);
    rows.stamp(7, { size: 70, mtimeMs: 1.8e12, ino: 77 });
    expect(rows.names()).toEqual(['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'p8']);
    expect(rowStamp(rows, 8)).toEqual({ size: 8, mtimeMs: 1.7e12 + 1, ino: Number.NaN });
    expect(rowStamp(rows, 7)).toEqual({ size: 70, mtimeMs: 1.8e12, ino: 77 });
    expect(rowStamp(rows, 0)).toEqual({ size: 0, mtimeMs: 1.7e12, ino: Number.NaN });
  });
});

describe('the output manifest in the build cache', () => {
  it("writes the next manifest from the previous one's rows, taken where they are, and from rows of its own", () => {
    const files = pages(5_000);
    writeOutputManifest(dir, 'fingerprint', { out: '/site/dist', files });
    const previous = readOutputManifest(dir, 'fingerprint')!.files;
    // Rows of the previous build's taken as they are, one of this build's, and one taken from another build's rows.
    const next = new OutputRowsBuilder(1);
    for (let row = 0; row < 4_001; row++) if (row !== 2_500) next.copy(previous, row);
    next.add('feed.xml', 'feed', 7, 1.9e12, 9);
    next.copy(files, 4_999);
    writeOutputManifest(dir, 'fingerprint', { out: '/site/dist', files: next });
    const read = readOutputManifest(dir, 'fingerprint')!.files;
    expect(read.count).toBe(4_002);
    expect([read.name(2_499), read.name(2_500), read.key(2_500)]).toEqual([
      'manuscripts/2500.html',
      'manuscripts/2502.html',
      'page:2501',
    ]);
    expect([read.name(3_999), read.key(3_999)]).toEqual(['manuscripts/4001.html', 'page:4000']);
    expect(read.joinedNames(1_998, 2_002)).toBe(
      ['1999', '2000', '2001', '2002'].map((n) => `manuscripts/${n}.html`).join('\0'),
    );
    expect(next.joinedKeys(3_998, 4_002)).toBe(['page:3999', 'page:4000', 'feed', 'page:4999'].join('\0'));
    expect([read.name(4_000), read.key(4_000), rowStamp(read, 4_000)]).toEqual([
      'feed.xml',
      'feed',
      { size: 7, mtimeMs: 1.9e12, ino: 9 },
    ]);
    expect([read.name(4_001), read.key(4_001), rowStamp(read, 4_001)]).toEqual([
      'manuscripts/5000.html',
      'page:4999',
      rowStamp(files, 4_999),
    ]);
    expect(rowStamp(read, 1_234)).toEqual(rowStamp(files, 1_234));
  });

  it('reads back every row with its own key and stamp, across frames', () => {
    // More rows than one frame holds (10,000), so that the second frame's stamps must land after the first's.
    const files = pages(25_003);
    writeOutputManifest(dir, 'fingerprint', { out: '/site/dist', files });
    const read = readOutputManifest(dir, 'fingerprint')!;
    expect(read.out).toBe('/site/dist');
    const column = (rows: OutputRows, of: (row: number) => string) =>
      Array.from({ length: rows.count }, (_, row) => of(row));
    expect(column(read.files, (row) => read.files.name(row))).toEqual(files.names());
    expect(column(read.files, (row) => read.files.key(row))).toEqual(column(files, (row) => files.key(row)));
    for (const row of [0, 9_999, 10_000, 20_001, 25_002])
      expect(rowStamp(read.files, row)).toEqual(rowStamp(files, row));
    // Compared in place, at a frame's first and last rows (2,000 a frame) and past the ends.
    for (const row of [0, 1_999, 2_000, 25_002]) {
      expect(read.files.isNamed(row, `manuscripts/${row + 1}.html`)).toBe(true);
      expect(read.files.hasKey(row, `page:${row}`)).toBe(true);
      expect(read.files.isNamed(row, `manuscripts/${row + 1}.htm`)).toBe(false);
      expect(read.files.isNamed(row, `manuscripts/${row + 1}.html\0`)).toBe(false);
      expect(read.files.hasKey(row, `page:${row + 1}`)).toBe(false);
    }
    expect(read.files.isNamed(-1, 'manuscripts/0.html')).toBe(false);
    expect(read.files.isNamed(25_003, 'manuscripts/25004.html')).toBe(false);
    expect(rowFinder(read.files)('manuscripts/20000.html', 0)).toBe(19_999);
    // Searched for in the frames' texts: a whole name only, at a frame's first row, last row and past it.
    expect(
      ['manuscripts/2000.html', 'manuscripts/2001.html', 'manuscripts/25003.html', 'manuscripts/1.htm'].map((name) =>
        read.files.rowNamed(name),
      ),
    ).toEqual([1_999, 2_000, 25_002, -1]);
    expect(['anuscripts/1.html', 'manuscripts/25004.html', ''].map((name) => read.files.rowNamed(name))).toEqual([
      -1, -1, -1,
    ]);
    expect(readOutputManifest(dir, 'another fingerprint')).toBeUndefined();
  });

  it('goes with the reads recorded with it: reads of an older output are never compared with a newer manifest', () => {
    writeOutputManifest(dir, 'fingerprint', { out: '/site/dist', files: pages(3) });
    const values = { keys: ['', '', 'm1'], values: ['', '', 'hash-m1'], groups: [''], composites: [] };
    writeOutputReads(
      dir,
      'fingerprint',
      readsFrames(['manuscripts/1.html'], new Map([['manuscripts/1.html', 'm:m1']])),
      values,
    );
    expect(readOutputReads(dir, 'fingerprint').values).toEqual(values);
    expect(readOutputReads(dir, 'fingerprint').outputs.get('manuscripts/1.html')).toBe('m:m1');
    // A build about to change the output removes both; one that stops before writing them again
    // leaves neither.
    removeOutputManifest(dir);
    expect(readOutputManifest(dir, 'fingerprint')).toBeUndefined();
    const reads = readOutputReads(dir, 'fingerprint');
    expect(reads.values).toBeUndefined();
    expect(reads.outputs.get('manuscripts/1.html')).toBeUndefined();
  });

  it('keeps the reads of many outputs, their paths in parts, and finds each again', () => {
    const paths = Array.from({ length: 30_000 }, (_, i) => `citations/${i}.bib`);
    const reads = new Map(paths.map((path, i) => [path, `m:m${i % 7_000}`]));
    writeOutputReads(dir, 'fingerprint', readsFrames(paths, reads), undefined);
    const found = readOutputReads(dir, 'fingerprint').outputs;
    expect(paths.filter((path) => found.get(path) !== reads.get(path))).toEqual([]);
    expect(found.get('citations/30000.bib')).toBeUndefined();
  });
});
