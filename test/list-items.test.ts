/**
 * The API lists after an edit: items whose key the previous build wrote are taken from the
 * previous file by byte range, the rest are rendered, and the result is exactly the list rendered
 * afresh, chunk for chunk (the chunks are what the segmented gzip groups into segments).
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { build } from '../scripts/generator/build.ts';
import {
  chunkKeys,
  ITEMS_PER_CHUNK,
  joinChunk,
  splicedChunks,
  type ChunkPart,
  type ListItems,
  type ListTable,
} from '../scripts/generator/engine/write/list-items.ts';
import { siteOf } from '../scripts/generator/stages/resolve.ts';

/** The list as text chunks, every item rendered: what splicing gives without a previous file. */
function* renderedChunks(items: ListItems): Generator<string> {
  for (const parts of splicedChunks(items, undefined)) yield Buffer.concat(parts as Uint8Array[]).toString('utf8');
}
import type { AuthorRecord, ManuscriptRecord } from '../scripts/generator/model/records.ts';
import { createUnpacker, packManuscript } from '../scripts/generator/engine/load/packed-manuscript.ts';
import { toJson } from '../scripts/generator/render/json-text.ts';
import { publishedManuscript, renderApi } from '../scripts/generator/render/api.ts';
import type { JournalInput } from '../scripts/generator/model/schema.ts';
import { listFile } from '../scripts/shared/contract.ts';
import { projectPaths } from '../scripts/project.ts';
import { age } from './helpers/incremental.ts';
import { createWorkspace, type Workspace } from './helpers/workspace.ts';
import { seededRandom } from '../scripts/synthetic/seeded-random.ts';

interface Item {
  key: string;
  json: string;
}

const TEXTS = ['Pinus', 'Пакошево', '𝔘𝔫𝔦', 'é\u0301', 'עברית', 'a\u2028b', '"quoted"', '\\', ''];

function item(next: () => number, serial: number): Item {
  const words = Array.from({ length: Math.floor(next() * 40) }, () => TEXTS[Math.floor(next() * TEXTS.length)]);
  const json = JSON.stringify({ id: serial, title: words.join(' ') });
  return { key: `k${serial}`, json };
}

/** The list's items as the renderers give them, counting the items rendered. */
function listOf(items: readonly Item[]): ListItems & { keys: readonly string[]; rendered: number[] } {
  const rendered: number[] = [];
  return {
    count: items.length,
    keys: items.map((i) => i.key),
    render: (i) => {
      rendered.push(i);
      return items[i]!.json;
    },
    rendered,
  };
}

/** Chunks as the list writer makes them, reading their ranges from the previous file. */
function joined(chunks: Iterable<ChunkPart[]>, previous?: { bytes: Buffer }): Buffer[] {
  return [...chunks].map((parts) =>
    joinChunk(parts, ({ position, length }, into, at) => {
      if (!previous) throw new Error('a chunk names the previous file, and there is none');
      into.set(previous.bytes.subarray(position, position + length), at);
    }),
  );
}

/** Writes `items` as the write stage does, and returns the file's bytes and its table. */
function written(items: readonly Item[]): { bytes: Buffer; chunks: Buffer[]; table: ListTable; rendered: number } {
  const list = listOf(items);
  const record = { lengths: new Uint32Array(items.length), rendered: 0 };
  const chunks = joined(splicedChunks(list, undefined, record));
  const bytes = Buffer.concat(chunks);
  return {
    bytes,
    chunks,
    rendered: record.rendered,
    table: {
      key: 'site',
      stamps: [{ size: bytes.length, mtimeMs: 0, ino: 0 }],
      keys: items.map((i) => i.key).join('\n'),
      lengths: record.lengths,
    },
  };
}

/**
 * The layout the chunks must have, written out on its own: `[`, then the items in groups of
 * ITEMS_PER_CHUNK joined by `,` (each group after the first led by `,`), then `]`.
 */
function fresh(items: readonly Item[]): string[] {
  const groups: string[] = [];
  for (let start = 0; start < items.length; start += ITEMS_PER_CHUNK) {
    groups.push(
      (start === 0 ? '' : ',') +
        items
          .slice(start, start + ITEMS_PER_CHUNK)
          .map((i) => i.json)
          .join(','),
    );
  }
  return ['[', ...groups, ']'];
}
/** Chunks compared as text: a deep comparison of buffers goes byte by byte, and slowly. */
const texts = (chunks: Buffer[]) => chunks.map((chunk) => chunk.toString('utf8'));

describe('a list taken from the previous build where its items did not change', () => {
  it("without a previous file, renders the list in its chunks, as bytes and as text, with each item's length", () => {
    for (const count of [0, 1, ITEMS_PER_CHUNK - 1, ITEMS_PER_CHUNK, ITEMS_PER_CHUNK * 3 + 7]) {
      const next = seededRandom(count + 1);
      const items = Array.from({ length: count }, (_, i) => item(next, i));
      const file = written(items);
      expect(texts(file.chunks)).toEqual(fresh(items));
      expect([...renderedChunks(listOf(items))]).toEqual(fresh(items));
      expect(JSON.parse(file.bytes.toString('utf8'))).toEqual(items.map((i) => JSON.parse(i.json)));
      expect([...file.table.lengths]).toEqual(items.map((i) => Buffer.byteLength(i.json)));
      expect(file.rendered).toBe(count);
    }
  });

  it('after edits, deletions, insertions, moves and repeated keys, equals the list rendered afresh and renders only new keys', () => {
    let sameKeys = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const next = seededRandom(seed);
      let serial = 0;
      const before = Array.from({ length: Math.floor(next() * ITEMS_PER_CHUNK * 4) }, () => item(next, serial++));
      const after = [...before];
      for (let change = Math.floor(next() * 12); change > 0; change--) {
        const at = Math.floor(next() * (after.length + 1));
        const kind = next();
        if (kind < 0.25 && after.length > 0)
          after.splice(Math.min(at, after.length - 1), 1); // deleted
        else if (kind < 0.5)
          after.splice(at, 0, item(next, serial++)); // added
        else if (kind < 0.7 && after.length > 0)
          after[Math.min(at, after.length - 1)] = item(next, serial++); // edited: a new key
        else if (kind < 0.85 && after.length > 1)
          after.splice(at, 0, after.splice(Math.floor(next() * after.length), 1)[0]!); // moved
        else if (after.length > 0) after.splice(at, 0, after[Math.floor(next() * after.length)]!); // the same record twice
      }
      if (next() < 0.1) after.reverse();
      const previous = written(before);
      const list = listOf(after);
      const record = { lengths: new Uint32Array(after.length), rendered: 0 };
      const chunks = joined(splicedChunks(list, previous.table, record), previous);
      expect(texts(chunks), `seed ${seed}`).toEqual(fresh(after));
      expect([...record.lengths]).toEqual(after.map((i) => Buffer.byteLength(i.json)));
      const known = new Set(before.map((i) => i.key));
      expect(list.rendered.map((i) => after[i]!.key).sort()).toEqual(
        after
          .filter((i) => !known.has(i.key))
          .map((i) => i.key)
          .sort(),
      );
      expect(record.rendered).toBe(list.rendered.length);
      // One key per chunk, and a chunk whose key the previous list had holds that chunk's bytes.
      const keys = [...chunkKeys(list)];
      expect(keys.length, `seed ${seed}`).toBe(chunks.length);
      const earlier = new Map([...chunkKeys(listOf(before))].map((key, i) => [key, previous.chunks[i]!]));
      keys.forEach((key, i) => {
        if (earlier.has(key)) expect(chunks[i]!.equals(earlier.get(key)!), `seed ${seed}, chunk ${i}`).toBe(true);
      });
      sameKeys += keys.filter((key) => key.startsWith('items') && earlier.has(key)).length;
    }
    // Chunks of items left alone keep their keys: the check above is not empty.
    expect(sameKeys).toBeGreaterThan(5);
  });

  it('after one edit, takes every other chunk as one range of the previous file, and the edited one around its item', () => {
    const next = seededRandom(11);
    const before = Array.from({ length: ITEMS_PER_CHUNK * 4 + 10 }, (_, i) => item(next, i));
    const after = [...before];
    const edited = ITEMS_PER_CHUNK * 2 + 7;
    after[edited] = item(next, before.length);
    const previous = written(before);
    const record = { lengths: new Uint32Array(after.length), rendered: 0 };
    const parts = [...splicedChunks(listOf(after), previous.table, record)];
    const ranges = (chunk: ChunkPart[]) => chunk.filter((part) => !(part instanceof Uint8Array));
    // `[`, five chunks, `]`: the edited item's chunk is a range before it, the item, a range after it.
    expect(parts.map((chunk) => ranges(chunk).length)).toEqual([0, 1, 1, 2, 1, 1, 0]);
    expect(texts(joined(parts, previous))).toEqual(fresh(after));
    expect(record.rendered).toBe(1);
  });
});

let workspace: Workspace | undefined;
afterEach(async () => {
  await workspace?.dispose();
  workspace = undefined;
});

const agedWorkspace = async () => age(await createWorkspace());

async function expectListsAsCold(ws: Workspace) {
  const coldPaths = projectPaths(ws.root, { out: 'dist-cold', cache: '.cache-cold' });
  expect((await build(coldPaths, 'build', { cache: false })).ok).toBe(true);
  for (const list of ['authors', 'volumes', 'manuscripts']) {
    for (const suffix of ['', '.gz', '.br']) {
      const file = `api/${list}/index.json${suffix}`;
      expect(
        (await readFile(path.join(ws.paths.out, file))).equals(await readFile(path.join(coldPaths.out, file))),
        file,
      ).toBe(true);
    }
  }
}

describe('items given in pieces', () => {
  it('make the chunks and lengths their joined text makes, whether a piece is text or bytes', () => {
    const next = seededRandom(7);
    const items = Array.from({ length: ITEMS_PER_CHUNK * 2 + 3 }, (_, i) => item(next, i));
    const list = listOf(items);
    // Each item cut at random places (never inside a character), its pieces alternately text and UTF-8 bytes.
    const pieces: ListItems = {
      ...list,
      render: (i) => {
        const chars = [...items[i]!.json];
        const cuts = [
          0,
          ...Array.from({ length: 4 }, () => Math.floor(next() * chars.length)).sort((a, b) => a - b),
          chars.length,
        ];
        return cuts.slice(1).map((end, k) => {
          const text = chars.slice(cuts[k], end).join('');
          return k % 2 ? Buffer.from(text, 'utf8') : text;
        });
      },
    };
    const record = { lengths: new Uint32Array(items.length), rendered: 0 };
    expect(texts(joined(splicedChunks(pieces, undefined, record)))).toEqual(fresh(items));
    expect([...record.lengths]).toEqual(items.map((i) => Buffer.byteLength(i.json)));
  });

  it("publish a packed manuscript's long fields as publishedManuscript serializes them, byte for byte", () => {
    const journal = {
      title: 'Journal',
      base_url: 'https://journal.example',
      media_url: 'https://media.example',
      citation_issn: '1857 - 9639',
      citation_language: 'English',
    } as JournalInput;
    const base = {
      citation_volume: 2,
      citation_title: 'Title “quoted” \u2028 𝔘',
      citation_date: '2021-01-02',
      section: 'Zoology',
      abstract: '<p>Line\u2028separator\u2029 “Пакошево” \\ "quoted" &amp; 12&nbsp;°C 𝔘</p>',
      keywords: 'larvae, "temperature", 𝔘.',
      document: { kind: 'local', path: 'pdfs/a.pdf' },
      authors: ['ana', { as_published: 'Hristina Ilievska' }],
    };
    const plain = [
      { ...base, id: 1 },
      { ...base, id: 2, citation_language: '', udc: '', citation_issn: '' },
      {
        ...base,
        id: 3,
        citation_language: 'Македонски',
        udc: '57 59',
        citation_issn: '1234 - 5678',
        document: { kind: 'remote', url: 'https://elsewhere.example/a.pdf' },
      },
    ].map(
      (m, i) =>
        ({
          ...m,
          origin: { file: `content/manuscripts/m${i}.yaml`, key: `m${i}`, at: {} },
        }) as unknown as ManuscriptRecord,
    );
    const unpack = createUnpacker(() => {
      throw new Error('a packed record is never read from its file');
    });
    const packed = plain.map((m) => {
      const { slim, packed: bytes } = packManuscript(m);
      return unpack(slim, bytes);
    });
    const ana = { name: 'Ana', surname: 'Petrovska', origin: { key: 'ana' } } as AuthorRecord;
    const found = [ana, undefined];
    const list = renderApi(
      siteOf({ journal, authors: [ana], volumes: [], manuscripts: packed, manuscriptAuthors: packed.map(() => found) }),
    ).find((output) => output.path === listFile('manuscripts'))!;
    const text = [...(list.body as () => Iterable<string>)()].join('');
    expect(text).toBe(`[${plain.map((m) => toJson(publishedManuscript(m, journal, found))).join(',')}]`);
    expect(text).toContain('"authors":["Ana Petrovska","Hristina Ilievska"]');
    expect(text).toContain('\\u2028separator');
    // The unpacked record reads the same long fields as the plain one.
    expect(packed.map((m) => [m.abstract, m.keywords, m.citation_language, m.udc, m.citation_issn])).toEqual(
      plain.map((m) => [m.abstract, m.keywords, m.citation_language, m.udc, m.citation_issn]),
    );
  });
});

describe('the lists after an edit, in a real build', () => {
  it('render only the edited manuscript; the other items come from the previous lists', async () => {
    workspace = await agedWorkspace();
    const first = await workspace.build();
    expect(first.written?.renderedItems).toBe(first.counts.authors + first.counts.volumes + first.counts.manuscripts);
    // Each list is one segment here, in its gzip twin (the brotli twin is one stream, not in segments).
    expect(first.written?.compressedSegments).toBe(3);
    const file = path.join(workspace.paths.content, 'manuscripts/salamanders.yaml');
    await writeFile(
      file,
      (await readFile(file, 'utf8')).replace(/^citation_title: .*$/m, 'citation_title: Fire salamanders revisited'),
    );
    const second = await workspace.build();
    expect(second.ok).toBe(true);
    expect(second.written?.renderedItems).toBe(1);
    // The authors' and volumes' lists are written again (the site changed), their segments taken from their twins.
    expect(second.written?.compressedSegments).toBe(1);
    await expectListsAsCold(workspace);
  });

  it('render every item again when the previous list was changed by hand', async () => {
    workspace = await agedWorkspace();
    const first = await workspace.build();
    const list = path.join(workspace.paths.out, 'api/manuscripts/index.json');
    // The same size, and a new stamp: only the stamp tells that the file is not the one written.
    const bytes = await readFile(list, 'utf8');
    expect(bytes).toContain('Orchids of Galičica');
    await writeFile(list, bytes.replace('Orchids of Galičica', 'Orchids of Galičicx'));
    const file = path.join(workspace.paths.content, 'manuscripts/salamanders.yaml');
    await writeFile(
      file,
      (await readFile(file, 'utf8')).replace(/^citation_title: .*$/m, 'citation_title: Fire salamanders revisited'),
    );
    const second = await workspace.build();
    expect(second.written?.renderedItems).toBe(first.counts.manuscripts);
    expect(await readFile(list, 'utf8')).toContain('Orchids of Galičica');
    await expectListsAsCold(workspace);
  });
});
