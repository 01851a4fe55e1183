/**
 * A list's framing (what comes before its first item, between two, and after its last) is the
 * list's own (ListItems.framing): the write stage and dev splice a list that is not a JSON array
 * exactly as they splice one, and a build after an edit gives the cold build's bytes.
 */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { build } from '../scripts/generator/build.ts';
import { openLiveBuild } from '../scripts/generator/live-build.ts';
import type { Renderer } from '../scripts/generator/model/site.ts';
import { listBody } from '../scripts/generator/render/api.ts';
import { RENDERERS } from '../scripts/generator/render/renderers.ts';
import {
  chunkKeys,
  ITEMS_PER_CHUNK,
  joinChunk,
  splicedChunks,
  tableBytes,
  type ChunkPart,
  type ListItems,
  type ListTable,
} from '../scripts/generator/engine/write/list-items.ts';
import { createListWriter } from '../scripts/generator/engine/write/list-writer.ts';
import { BROTLI_OPTIONS, GZIP_LEVEL } from '../scripts/generator/engine/write/site-writer.ts';
import { stampOfStat } from '../scripts/generator/engine/scan/stat-many.ts';
import { projectPaths } from '../scripts/project.ts';
import { seededRandom } from '../scripts/synthetic/seeded-random.ts';
import { age, outputDifferences, readTree } from './helpers/incremental.ts';
import { NEW_MANUSCRIPT } from './helpers/records.ts';
import { createWorkspace, type Workspace } from './helpers/workspace.ts';

/** JSON Lines: each item on a line of its own, the last one ended too. */
const JSON_LINES = { open: '', separator: '\n', close: '\n' };
/** A framing of several bytes per character, so that a length counted in characters shows. */
const WIDE = { open: '«list»\n', separator: ' · ', close: '\n«end»' };

type Framing = typeof JSON_LINES;

interface Item {
  key: string;
  text: string;
}

function item(next: () => number, serial: number): Item {
  const words = Array.from(
    { length: Math.floor(next() * 30) },
    () => ['Pinus', 'Пакошево', '𝔘𝔫𝔦', ''][Math.floor(next() * 4)],
  );
  return { key: `k${serial}`, text: JSON.stringify({ id: serial, title: words.join(' ') }) };
}

function listOf(items: readonly Item[], framing: Framing): ListItems & { keys: readonly string[] } {
  return { count: items.length, keys: items.map((i) => i.key), render: (i) => items[i]!.text, framing };
}

const frame = (items: readonly Item[], { open, separator, close }: Framing) =>
  open + items.map((i) => i.text).join(separator) + close;

function joined(chunks: Iterable<ChunkPart[]>, previous?: Buffer): Buffer {
  return Buffer.concat(
    [...chunks].map((parts) =>
      joinChunk(parts, ({ position, length }, into, at) =>
        into.set(previous!.subarray(position, position + length), at),
      ),
    ),
  );
}

describe('a list framed otherwise than as a JSON array', () => {
  for (const [name, framing] of [
    ['JSON Lines', JSON_LINES],
    ['a framing of wide characters', WIDE],
  ] as const) {
    it(`${name}: is written with its framing, its table adds up to its file, and an edit splices it`, () => {
      const next = seededRandom(3);
      const before = Array.from({ length: ITEMS_PER_CHUNK * 2 + 5 }, (_, i) => item(next, i));
      const record = { lengths: new Uint32Array(before.length), rendered: 0 };
      const bytes = joined(splicedChunks(listOf(before, framing), undefined, record));
      expect(bytes.toString('utf8')).toBe(frame(before, framing));
      // The body a renderer gives with the items (render/api.ts) makes the same bytes.
      expect([...listBody(listOf(before, framing))].join('')).toBe(frame(before, framing));
      const table: ListTable = {
        key: 'list',
        stamps: [],
        keys: before.map((i) => i.key).join('\n'),
        lengths: record.lengths,
      };
      expect(tableBytes(table, framing)).toBe(bytes.length);
      for (const empty of [[], [before[0]!]]) {
        const lengths = new Uint32Array(empty.length);
        const one = joined(splicedChunks(listOf(empty, framing), undefined, { lengths, rendered: 0 }));
        expect(tableBytes({ ...table, keys: '', lengths }, framing)).toBe(one.length);
      }

      // One item changed, one added, one removed: two rendered, the rest taken from the bytes before.
      const after = [...before];
      after[ITEMS_PER_CHUNK + 3] = item(next, 1000);
      after.splice(7, 0, item(next, 1001));
      after.splice(ITEMS_PER_CHUNK * 2, 1);
      const list = listOf(after, framing);
      const spliced = { lengths: new Uint32Array(after.length), rendered: 0 };
      const chunks = [...splicedChunks(list, table, spliced)];
      expect(joined(chunks, bytes).toString('utf8')).toBe(frame(after, framing));
      expect(spliced.rendered).toBe(2);
      expect(tableBytes({ ...table, lengths: spliced.lengths }, framing)).toBe(
        Buffer.byteLength(frame(after, framing)),
      );
      expect([...chunkKeys(list)]).toHaveLength(chunks.length);
    });
  }
});

describe('a list of JSON Lines through the list writer’s thread', () => {
  it('is written with its twins from its chunks (an empty first one), then spliced from the file and its twins', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'list-framing-'));
    const writer = createListWriter({ gzipLevel: GZIP_LEVEL, brotli: BROTLI_OPTIONS }, { inThreadBytes: 0 });
    try {
      const next = seededRandom(5);
      const before = Array.from({ length: ITEMS_PER_CHUNK * 9 }, (_, i) => item(next, i));
      const write = async (name: string, items: readonly Item[], previous?: { file: string; table: ListTable }) => {
        const file = path.join(dir, name);
        const list = listOf(items, JSON_LINES);
        const record = { lengths: new Uint32Array(items.length), rendered: 0 };
        const stampOf = async (of: string) => stampOfStat(await stat(of));
        const written = await writer.write(
          {
            file,
            precompress: true,
            ...(previous && {
              previous: {
                file: previous.file,
                stamp: await stampOf(previous.file),
                twins: [
                  {
                    suffix: '.gz',
                    file: `${previous.file}.gz`,
                    stamp: await stampOf(`${previous.file}.gz`),
                    table: previous.table.twins!['.gz']!,
                  },
                ],
              },
            }),
          },
          splicedChunks(list, previous?.table, record),
          chunkKeys(list),
        );
        const text = frame(items, JSON_LINES);
        for (const [suffix, decode] of [
          ['', (bytes: Buffer) => bytes],
          ['.gz', zlib.gunzipSync],
          ['.br', zlib.brotliDecompressSync],
        ] as const)
          expect(decode(await readFile(`${file}${suffix}`)).toString('utf8'), suffix).toBe(text);
        const table = {
          key: name,
          stamps: [],
          keys: list.keys.join('\n'),
          lengths: record.lengths,
          twins: written.twins,
        };
        expect(tableBytes(table, JSON_LINES)).toBe(written.sizes['']);
        return { file, table, rendered: record.rendered, compressed: written.compressed };
      };
      const first = await write('first.jsonl', before);
      const after = [...before];
      after[ITEMS_PER_CHUNK * 5 + 1] = item(next, 5000);
      const second = await write('second.jsonl', after, first);
      expect(second.rendered).toBe(1);
      // Only the segment of the edited item is compressed again.
      expect(second.compressed).toBe(1);
    } finally {
      await writer.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

/** The manuscripts as JSON Lines, one `{"id":…,"title":…}` a line: a list no build has seen. */
const manuscriptLines: Renderer = {
  name: 'the manuscripts as lines',
  render: (site) => {
    const manuscripts = site.manuscripts;
    const items: ListItems = {
      count: manuscripts.length,
      render: (i) => JSON.stringify({ id: manuscripts[i]!.id, title: manuscripts[i]!.citation_title }),
      subject: (i) => manuscripts[i]!,
      framing: JSON_LINES,
    };
    return [
      {
        path: 'exports/manuscripts.jsonl',
        items,
        precompress: true,
        body: () => listBody(items),
      },
    ];
  },
};
const renderers = [...RENDERERS, manuscriptLines];
const LINES = 'exports/manuscripts.jsonl';

let ws: Workspace | undefined;
afterEach(async () => {
  await ws?.dispose();
  ws = undefined;
});

/** One manuscript's title changed, one manuscript added and one removed. */
async function edit(workspace: Workspace): Promise<string[]> {
  const salamanders = path.join(workspace.paths.content, 'manuscripts/salamanders.yaml');
  await workspace.write(
    'manuscripts/salamanders.yaml',
    (await readFile(salamanders, 'utf8')).replace(
      /^citation_title: .*$/m,
      'citation_title: Fire salamanders revisited',
    ),
  );
  await workspace.write('manuscripts/new-record.yaml', NEW_MANUSCRIPT);
  await workspace.remove('manuscripts/beetles.json');
  return ['salamanders.yaml', 'new-record.yaml', 'beetles.json'].map((file) =>
    path.join(workspace.paths.content, 'manuscripts', file),
  );
}

async function coldBuild(workspace: Workspace): Promise<string> {
  const cold = projectPaths(workspace.root, { out: 'dist-cold', cache: '.cache-cold' });
  expect((await build(cold, 'build', { cache: false, threads: 0, renderers })).problems).toEqual([]);
  return cold.out;
}

describe('a list of JSON Lines from a renderer', () => {
  it('is the cold build byte for byte after an edit, only the changed and added items rendered', async () => {
    ws = await age(await createWorkspace());
    const first = await build(ws.paths, 'build', { renderers });
    expect(first.problems).toEqual([]);
    const lines = await readFile(path.join(ws.paths.out, LINES), 'utf8');
    const rows = lines.split('\n');
    expect(rows.pop()).toBe('');
    expect(rows.map((row) => Object.keys(JSON.parse(row) as object))).toEqual(
      Array.from({ length: first.counts.manuscripts }, () => ['id', 'title']),
    );

    await edit(ws);
    await age(ws);
    const second = await build(ws.paths, 'build', { renderers });
    expect(second.problems).toEqual([]);
    // Two items in each list of manuscripts (the API's and the lines): the table of the lines is
    // the file's, so their other items are taken from it.
    expect(second.written?.renderedItems).toBe(4);
    expect(await readFile(path.join(ws.paths.out, LINES), 'utf8')).toContain('"title":"Fire salamanders revisited"}\n');
    expect(outputDifferences(await readTree(ws.paths.out), await readTree(await coldBuild(ws)))).toEqual([]);
  });

  it('is served by dev as a cold build writes it, before and after an edit', async () => {
    ws = await createWorkspace();
    const live = await openLiveBuild(ws.paths, { renderers });
    const served = () => {
      const site = live.site;
      if (!site.ok) throw new Error(`the live site has problems: ${JSON.stringify(site.problems)}`);
      return Buffer.from(site.files.bytes(LINES)!);
    };
    const cold = async () => readFile(path.join(await coldBuild(ws!), LINES));
    expect(served().equals(await cold())).toBe(true);
    expect(await live.update(await edit(ws))).toBe(true);
    const after = served();
    expect(after.toString('utf8')).toContain('"title":"Fire salamanders revisited"}\n');
    expect(after.equals(await cold())).toBe(true);
  });
});
