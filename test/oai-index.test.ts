/**
 * The OAI-PMH index in chunks (scripts/generator/render/oai/oai-index.ts): every item once, in order,
 * in chunks of the sizes asked for, for the whole list and for each set; and after an edit, only the
 * chunks it changes (and the head) are new files, with new keys: the build takes every other one from
 * the previous output.
 */
import { describe, expect, it } from 'vitest';
import { CHUNKING, indexFiles, type IndexItem } from '../scripts/generator/render/oai/oai-index.ts';
import { renderOai } from '../scripts/generator/render/oai/oai.ts';
import { datestampOf, sectionSets, setsOf } from '../scripts/generator/render/oai/oai-values.ts';
import type { Site } from '../scripts/generator/model/site.ts';
import { trackReads } from '../scripts/generator/engine/reuse/read-tracking.ts';
import { resolveAuthors } from '../scripts/generator/stages/resolve.ts';
import type { JournalInput } from '../scripts/generator/model/schema.ts';
import { JOURNAL, author, bodyText, manuscript, site, volume } from './helpers/synthetic-site.ts';

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

describe('the index as the build lists it', () => {
  const journal = { oai: { admin_email: 'editor@journal.example.org' }, sections: ['Zoology', 'Botany'] };
  const authors = (modified?: string) =>
    Array.from({ length: 30 }, (_, i) => ({
      ...author(`a-${i}`, 'Ana', `Surname ${i}`, 'Institute'),
      ...(i === 7 && modified ? { modified } : {}),
    }));
  const journalOf = (authorModified?: string) =>
    site({
      authors: authors(authorModified),
      volumes: [
        volume(1, 'Volume I', '2021-12-01'),
        { ...volume(2, 'Volume II', '2022-12-01'), modified: '2023-02-01' },
      ],
      manuscripts: Array.from({ length: 3000 }, (_, i) =>
        manuscript(i + 1, {
          citation_volume: 1 + (i % 2),
          citation_date: new Date(Date.UTC(2020, 0, 1 + Math.floor(i / 5))).toISOString().slice(0, 10),
          section: ['Zoology', 'Botany', 'Ecology', ''][i % 4]!,
          authors: [`a-${i % 30}`, `a-${(i * 7) % 30}`],
          ...(i % 50 === 3 ? { modified: '2021-06-01' } : {}),
        }),
      ),
      journal,
    });
  /** The site with its lookups counted: what listing the outputs asked of it, record by record. */
  const counted = (of: Site) => {
    const asked = { volume: 0, authorsOf: 0 };
    const spy: Site = {
      ...of,
      volume: (id) => (asked.volume++, of.volume(id)),
      authorsOf: (m) => (asked.authorsOf++, of.authorsOf(m)),
    };
    return { spy, asked };
  };
  it("looks no volume up by id, and a manuscript's authors only when an author has a modified date", () => {
    const plain = counted(journalOf());
    renderOai(plain.spy);
    expect(plain.asked).toEqual({ volume: 0, authorsOf: 0 });
    const withAuthorDate = counted(journalOf('2024-03-01'));
    renderOai(withAuthorDate.spy);
    expect(withAuthorDate.asked).toEqual({ volume: 0, authorsOf: 3000 });
  });

  it("notes Identify's reads as the three lists, not each author: an edit makes it again without valuing them one by one", () => {
    const of = journalOf();
    const resolved = {
      journal: { ...JOURNAL, ...journal } as JournalInput,
      authors: [...of.authors],
      volumes: [...of.volumes],
      manuscripts: [...of.manuscripts],
      manuscriptAuthors: resolveAuthors([...of.authors], [...of.manuscripts]),
    };
    const tracker = trackReads(resolved);
    const identify = renderOai(tracker.site).find((output) => output.path === 'oai/identify.xml')!;
    const { value, reads } = tracker.track(() => [...(identify.body as () => Iterable<string>)()]);
    expect(reads.split('\n').sort()).toEqual(['each:authors', 'each:manuscripts', 'each:volumes']);
    expect(value.join('')).toBe(bodyText(renderOai(of).find((output) => output.path === 'oai/identify.xml')));
    expect(value.join('')).toContain('<earliestDatestamp>2020-01-01</earliestDatestamp>');
  });

  it("lists each manuscript with the datestamp and sets its record's header gives", () => {
    for (const authorModified of [undefined, '2024-03-01']) {
      const of = journalOf(authorModified);
      const outputs = renderOai(of);
      const text = (path: string) => bodyText(outputs.find((output) => output.path === path));
      const { sets } = JSON.parse(text('oai/items.json')) as { sets: string[] };
      const listed = outputs
        .filter((output) => /^oai\/items\/\d+\.json$/.test(output.path))
        .flatMap((output) => JSON.parse(bodyText(output)) as [number, string, number[]][]);
      const sections = sectionSets(journal.sections);
      const headers = of.manuscripts
        .map((m) => [m.id, datestampOf(of, m), setsOf(of, m, sections).map((set) => sets.indexOf(set))] as const)
        .sort(([a, x], [b, y]) => (x < y ? -1 : x > y ? 1 : a - b));
      expect(listed).toEqual(headers);
      expect(listed.some(([, datestamp]) => datestamp === '2024-03-01')).toBe(authorModified !== undefined);
    }
  });
});
