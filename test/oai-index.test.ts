/**
 * The OAI-PMH index in chunks (scripts/generator/render/oai/oai-index.ts): every item once, in order,
 * in chunks of the sizes asked for, for the whole list and for each set; and after an edit, only the
 * chunks it changes (and the head) are new files, with new keys: the build takes every other one from
 * the previous output.
 */
import { describe, expect, it } from 'vitest';
import { CHUNKING, indexFiles, type IndexItem } from '../scripts/generator/render/oai/oai-index.ts';
import { renderOai } from '../scripts/generator/render/oai/oai.ts';
import { manuscript, site, volume } from './helpers/synthetic-site.ts';

const HEAD = { identifierPrefix: 'oai:journal.example.org:', earliestDatestamp: '2020-01-01', sets: ['a', 'b', 'c'] };

/** `count` items, several a day, in every set `a`, every other in `b`, none in `c`. */
function itemsOf(count: number): IndexItem[] {
  return Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    datestamp: new Date(Date.UTC(2020, 0, 1 + Math.floor(i / 7))).toISOString().slice(0, 10),
    sets: i % 2 ? [0] : [0, 1],
  }));
}

type Entry = [string, number, string, number, number];
interface Head {
  items: { count: number; chunks: Entry[] };
  setItems: { count: number; chunks: Entry[] }[];
  ids: [number, number][];
}

function parsed(files: { path: string; text: string }[]) {
  const byPath = new Map(files.map((file) => [file.path, file.text]));
  const head = JSON.parse(byPath.get('oai/items.json')!) as Head;
  const chunk = (name: string) => JSON.parse(byPath.get(`oai/items/${name}.json`)!) as [number, string, number[]][];
  const list = (chunks: Entry[], prefix = '') => chunks.map((entry) => chunk(`${prefix}${entry[1]}`));
  return { byPath, head, chunk, list };
}

describe('the index in chunks', () => {
  const items = itemsOf(20_000);
  const files = indexFiles(HEAD, items);
  const { head, chunk, list } = parsed(files);

  it('holds every item once, in order, in chunks of min to max items, as the head says', () => {
    const chunks = list(head.items.chunks);
    expect(chunks.flat().map((item) => item[0])).toEqual(items.map((item) => item.id));
    expect(head.items.count).toBe(20_000);
    chunks.forEach((items, k) => {
      const entry = head.items.chunks[k]!;
      expect(entry).toEqual([items[0]![1], items[0]![0], items.at(-1)![1], items.at(-1)![0], items.length]);
      if (k < chunks.length - 1) expect(items.length).toBeGreaterThanOrEqual(CHUNKING.min);
      expect(items.length).toBeLessThanOrEqual(CHUNKING.max);
    });
    // About a thousand a chunk: neither one chunk nor a chunk per page.
    expect(chunks.length).toBeGreaterThan(10);
    expect(chunks.length).toBeLessThan(40);
  });

  it("gives each set its own chunks, and ids' blocks that hold every id", () => {
    expect(list(head.setItems[1]!.chunks, 'b-').flat()).toEqual(
      items.filter((item) => item.sets.includes(1)).map((item) => [item.id, item.datestamp, item.sets]),
    );
    expect(head.setItems[2]).toEqual({ count: 0, chunks: [] });
    const ids = head.ids.flatMap(([first, last]) => {
      const block = chunk(`ids-${first}`) as unknown as number[];
      expect([block[0], block.at(-1)]).toEqual([first, last]);
      return block;
    });
    expect(ids).toEqual(items.map((item) => item.id));
  });

  it('after an item moves to the end, only the chunks it left and joined are new', () => {
    const moved = items.filter((item) => item.id !== 5000);
    moved.push({ ...items[4999]!, datestamp: '2030-01-01' });
    const after = indexFiles(HEAD, moved);
    const before = new Map(files.map((file) => [file.path, file.text]));
    const changed = after.filter((file) => before.get(file.path) !== file.text).map((file) => file.path);
    const gone = [...before.keys()].filter((path) => !after.some((file) => file.path === path));
    // The head; the chunk of the whole list and of each of its sets it left, and the last ones,
    // which it joined; no block of ids.
    expect(changed.length + gone.length).toBeLessThanOrEqual(1 + 2 * 2 + 2 * 2);
    expect(changed).toContain('oai/items.json');
    expect(changed.filter((path) => path.includes('ids-'))).toEqual([]);
  });

  it('is empty for a repository with no item', () => {
    const { head } = parsed(indexFiles(HEAD, []));
    expect(head).toMatchObject({ items: { count: 0, chunks: [] }, ids: [] });
  });
});

describe('the index as the build keys it', () => {
  const journal = { oai: { admin_email: 'editor@journal.example.org' } };
  const manuscripts = (modified?: string) =>
    Array.from({ length: 6000 }, (_, i) =>
      manuscript(i + 1, {
        citation_date: new Date(Date.UTC(2020, 0, 1 + Math.floor(i / 9))).toISOString().slice(0, 10),
        ...(i === 99 && modified ? { modified } : {}),
      }),
    );
  const keys = (modified?: string) =>
    new Map(
      renderOai(site({ volumes: [volume(1, 'Volume I', '2021-12-01')], manuscripts: manuscripts(modified), journal }))
        .filter((output) => output.path === 'oai/items.json' || output.path.startsWith('oai/items/'))
        .map((output) => [output.path, output.key]),
    );

  it('keys each file by its bytes: the same content, the same keys; a correction, new keys for its chunks only', () => {
    const before = keys();
    expect(keys()).toEqual(before);
    const after = keys('2030-01-01');
    const changed = [...after].filter(([path, key]) => before.get(path) !== key).map(([path]) => path);
    expect(changed).toContain('oai/items.json');
    // Of about 3 x 6 chunks (the whole list, the volume, the section) and the ids' blocks.
    expect(changed.length).toBeLessThanOrEqual(1 + 3 * 2);
    expect(after.size).toBeGreaterThan(3 * 4);
  });
});
