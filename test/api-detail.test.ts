/**
 * The detail routes, the API root and the sections (SPEC section 10): what a client of the original reads there, checked on the built files. The same paths
 * over HTTP, on every server, are in test/servers/http-contract.ts.
 */
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { build } from '../scripts/generator/build.ts';
import { age } from './helpers/incremental.ts';
import { createWorkspace, type Workspace } from './helpers/workspace.ts';

let ws: Workspace | undefined;
afterEach(async () => {
  await ws?.dispose();
  ws = undefined;
});

const read = (file: string) => readFile(path.join(ws!.paths.out, file), 'utf8');
const inode = async (file: string) => (await stat(path.join(ws!.paths.out, file))).ino;

/** A list's items as the texts they are in the list: the array's JSON cut at its top-level commas. */
function itemTexts(list: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let inString = false;
  let start = 1;
  for (let i = 1; i < list.length - 1; i++) {
    const c = list[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    else if (c === ',' && depth === 0) {
      items.push(list.slice(start, i));
      start = i + 1;
    }
  }
  if (list.length > 2) items.push(list.slice(start, list.length - 1));
  return items;
}

describe('a detail file per record is its item in the list, byte for byte', () => {
  it.each([
    ['on this thread', 0],
    ['on load threads (long fields kept as JSON bytes)', 2],
  ] as const)('manuscripts, volumes and authors, %s', async (_, threads) => {
    ws = await createWorkspace();
    expect((await build(ws.paths, 'build', { threads, cache: false })).problems).toEqual([]);

    const manuscripts = await read('api/manuscripts/index.json');
    const ids = (JSON.parse(manuscripts) as { id: number }[]).map((m) => m.id);
    expect(ids.length).toBeGreaterThan(0);
    expect(await Promise.all(ids.map((id) => read(`api/manuscripts/${id}.json`)))).toEqual(itemTexts(manuscripts));

    // Volumes by their id (a manuscript's citation_volume), in the list's order (by id).
    const volumes = await read('api/volumes/index.json');
    expect([await read('api/volumes/1.json'), await read('api/volumes/2.json')]).toEqual(itemTexts(volumes));

    // Authors by their key; the list is in its own order (by institution), so compared as sets.
    const authors = await read('api/authors/index.json');
    const details = await Promise.all(
      ['ana-petrovska', 'jane-doe', 'marko-nikolov'].map((key) => read(`api/authors/${key}.json`)),
    );
    expect(details.sort()).toEqual(itemTexts(authors).sort());
    expect(JSON.parse(await read('api/authors/jane-doe.json'))).toEqual({
      name: 'Jane',
      surname: 'Doe',
      institution: expect.any(String),
    });
  });

  it('writes no detail for an author whose key would overwrite the list, and no twins', async () => {
    ws = await createWorkspace({
      'authors/index.yaml': 'name: Ind\nsurname: Ex\ninstitution: Somewhere.\n',
    });
    expect((await ws.build()).problems).toEqual([]);
    const authors = JSON.parse(await read('api/authors/index.json')) as { surname: string }[];
    expect(authors.map((a) => a.surname)).toContain('Ex');
    // The details are a few hundred bytes each: no .gz/.br twin beside them (only the list has one).
    const files = await readdir(path.join(ws.paths.out, 'api/authors'));
    expect(files.filter((file) => /\.(gz|br)$/.test(file)).sort()).toEqual(['index.json.br', 'index.json.gz']);
  });
});

describe('the API root and the sections', () => {
  it("names each route's absolute URL under base_url, in the router's order", async () => {
    ws = await createWorkspace();
    expect((await ws.build()).problems).toEqual([]);
    expect(await read('api/index.json')).toBe(
      '{"authors":"https://journal.example.org/api/authors/",' +
        '"volumes":"https://journal.example.org/api/volumes/",' +
        '"manuscripts":"https://journal.example.org/api/manuscripts/",' +
        '"sections":"https://journal.example.org/api/sections/"}',
    );
  });

  it("lists the journal's sections in the order journal.yaml gives them", async () => {
    ws = await createWorkspace();
    expect((await ws.build()).problems).toEqual([]);
    expect(await read('api/sections/index.json')).toBe('[{"title":"Zoology"},{"title":"Botany"}]');
  });

  it("lists the manuscripts' sections in order of first appearance when journal.yaml names none", async () => {
    ws = await createWorkspace();
    const journal = await readFile(path.join(ws.paths.content, 'journal.yaml'), 'utf8');
    await ws.write('journal.yaml', journal.replace(/sections:\n( {2}- .*\n)+/, ''));
    expect((await ws.build()).problems).toEqual([]);
    const sections = JSON.parse(await read('api/sections/index.json')) as { title: string }[];
    const manuscripts = JSON.parse(await read('api/manuscripts/index.json')) as { section: string }[];
    expect(sections).toEqual([...new Set(manuscripts.map((m) => m.section))].map((title) => ({ title })));
  });
});

describe('a build after an edit', () => {
  it("rewrites the edited record's detail and reuses every other one", async () => {
    ws = await age(await createWorkspace());
    expect((await ws.build()).problems).toEqual([]);
    const before = {
      marko: await inode('api/authors/marko-nikolov.json'),
      jane: await inode('api/authors/jane-doe.json'),
      volume: await inode('api/volumes/1.json'),
      root: await inode('api/index.json'),
    };
    const salamanders = await read('api/manuscripts/7.json');

    // Ana is an author of manuscript 7; Jane's record and the volumes are not touched.
    await ws.write('authors/ana-petrovska.yaml', 'name: Ana\nsurname: Renamed\ninstitution: Skopje.\n');
    await ws.write('authors/marko-nikolov.yaml', 'name: Marko\nsurname: Nikolov\ninstitution: Elsewhere.\n');
    await age(ws);
    expect((await ws.build()).problems).toEqual([]);

    expect(JSON.parse(await read('api/authors/marko-nikolov.json')).institution).toBe('Elsewhere.');
    expect(await inode('api/authors/marko-nikolov.json')).not.toBe(before.marko);
    // A manuscript's detail follows its author's record, though the manuscript's file is unchanged.
    expect(await read('api/manuscripts/7.json')).not.toBe(salamanders);
    expect(JSON.parse(await read('api/manuscripts/7.json')).authors).toContain('Ana Renamed');
    expect(await inode('api/authors/jane-doe.json')).toBe(before.jane);
    expect(await inode('api/volumes/1.json')).toBe(before.volume);
    expect(await inode('api/index.json')).toBe(before.root);
  });
});
