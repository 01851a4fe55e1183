/**
 * The shrink check counts the items of the previous output's lists without parsing them whole
 * (scripts/generator/engine/write/previous-lists.ts): the count must be JSON.parse's, whatever the
 * items hold.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { countListItems } from '../scripts/generator/engine/write/previous-lists.ts';

let dir: string | undefined;
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

it('counts a list as JSON.parse does: commas, brackets and escaped quotes inside items are not items', async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'list-count-'));
  const lists = [
    [],
    [{}],
    ['a'],
    [{ name: 'A, B', note: 'x [1, 2] {y}', quote: 'say "hi", \\ back' }, { authors: ['a', 'b', 'c'] }, 3],
    Array.from({ length: 5000 }, (_, i) => ({ id: i, title: `T${i}, with ] and [ and "quotes"` })),
  ];
  for (const [n, list] of lists.entries()) {
    const file = path.join(dir, `${n}.json`);
    await writeFile(file, JSON.stringify(list));
    expect(countListItems(file), JSON.stringify(list).slice(0, 60)).toBe(list.length);
  }
  await writeFile(path.join(dir, 'object.json'), '{"a":1}');
  expect(countListItems(path.join(dir, 'object.json'))).toBeUndefined();
  await writeFile(path.join(dir, 'cut.json'), '[{"a":1},');
  expect(countListItems(path.join(dir, 'cut.json'))).toBeUndefined();
  expect(countListItems(path.join(dir, 'absent.json'))).toBeUndefined();
});
