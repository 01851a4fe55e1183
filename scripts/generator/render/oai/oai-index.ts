/**
 * The index the OAI-PMH handler answers lists from (docs/oai-pmh.md, "What the build writes"): the
 * items (a manuscript's id, datestamp and set positions) by datestamp, then id, in chunks, and one
 * small head that says where every chunk starts and ends. A request reads the head and the one or
 * two chunks its page falls in, never the whole list: at 100,000 manuscripts the list is 2.7 MB,
 * which nginx's njs took half a second to parse and a Cloudflare worker may not parse at all.
 *
 *   oai/items.json                 the head: the identifier prefix, the sets, and for the whole list
 *                                  and for each set its chunks, each as
 *                                  [first datestamp, first id, last datestamp, last id, count];
 *                                  and the id blocks, each as [first id, last id]
 *   oai/items/<id>.json            a chunk of the whole list, named by its first item's id
 *   oai/items/<set>-<id>.json      a chunk of one set's list: a set's page reads no item of another
 *   oai/items/ids-<id>.json        a block of ids in ascending order, named by its first: GetRecord
 *                                  finds an identifier in the block the head's ranges point to
 *
 * Where a chunk ends is decided by its items alone (content-defined, as rsync and backup tools cut
 * files): after at least `min` items, at an item whose id hashes to a multiple of `spread`, or after
 * `max` items. A manuscript added, removed or moved (a `modified` date) changes the chunks it leaves
 * and joins, not every chunk after it, and a chunk's name stays while its first item does: after
 * an edit the build writes the head and those chunks again, and takes the rest from the previous
 * output (each file's key is its bytes' hash).
 */

import { OAI_FILES } from './oai-values.ts';

/** One manuscript in the index: its id, its datestamp, and its sets as positions in the head's `sets`. */
export interface IndexItem {
  id: number;
  datestamp: string;
  sets: readonly number[];
}

export interface IndexHead {
  identifierPrefix: string;
  earliestDatestamp: string;
  /** Every set's spec: an item names its sets by their positions here. */
  sets: readonly string[];
}

/** Where chunks end (see above): the numbers of items. */
export interface Chunking {
  min: number;
  spread: number;
  max: number;
}

/**
 * About a thousand items a chunk (27 KB): a page of 400 identifiers falls in one or two, and njs
 * parses one in a few milliseconds. Measured at 100,000 manuscripts (docs/oai-pmh.md).
 */
export const CHUNKING: Chunking = { min: 500, spread: 500, max: 2000 };

export interface IndexFile {
  path: string;
  text: string;
}

/** The head and every chunk, from the items in the list's order (datestamp, then id). */
export function indexFiles(head: IndexHead, items: readonly IndexItem[], chunking = CHUNKING): IndexFile[] {
  const files: IndexFile[] = [];
  const listOf = (prefix: string, list: readonly IndexItem[]): string => {
    const entries: string[] = [];
    for (const chunk of chunksOf(list, chunking)) {
      const first = chunk[0]!;
      const last = chunk[chunk.length - 1]!;
      files.push({ path: `oai/items/${prefix}${first.id}.json`, text: chunkText(chunk) });
      entries.push(JSON.stringify([first.datestamp, first.id, last.datestamp, last.id, chunk.length]));
    }
    return `{"count":${list.length},"chunks":[${entries.map((entry) => `\n${entry}`).join(',')}]}`;
  };
  const all = listOf('', items);
  const members = head.sets.map((): IndexItem[] => []);
  for (const item of items) for (const position of item.sets) members[position]!.push(item);
  const bySet = head.sets.map((spec, position) => listOf(`${spec}-`, members[position]!));
  const ids = items.map((item) => item.id).sort((a, b) => a - b);
  const blocks: string[] = [];
  for (const block of chunksOf(ids, chunking, (id) => id)) {
    files.push({ path: `oai/items/ids-${block[0]!}.json`, text: `[${block.join(',')}]\n` });
    blocks.push(`[${block[0]!},${block[block.length - 1]!}]`);
  }
  const text = [
    `{"version":2`,
    `"identifierPrefix":${JSON.stringify(head.identifierPrefix)}`,
    `"earliestDatestamp":${JSON.stringify(head.earliestDatestamp)}`,
    `"sets":${JSON.stringify(head.sets)}`,
    `\n"items":${all}`,
    `\n"setItems":[${bySet.map((list) => `\n${list}`).join(',')}]`,
    `\n"ids":[${blocks.join(',')}]}\n`,
  ].join(',');
  files.unshift({ path: OAI_FILES.items, text });
  return files;
}

/** A chunk: one item a line, `[id,"datestamp",[set positions]]`. */
function chunkText(chunk: readonly IndexItem[]): string {
  const lines = chunk.map((item) => `[${item.id},${JSON.stringify(item.datestamp)},[${item.sets.join(',')}]]`);
  return `[\n${lines.join(',\n')}\n]\n`;
}

/** The list cut where CHUNKING says (above), in order. */
function* chunksOf<T>(
  list: readonly T[],
  { min, spread, max }: Chunking,
  idOf: (item: T) => number = (item) => (item as IndexItem).id,
): Generator<T[]> {
  let chunk: T[] = [];
  for (const item of list) {
    chunk.push(item);
    if (chunk.length >= max || (chunk.length >= min && mixed(idOf(item)) % spread === 0)) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length) yield chunk;
}

/** An id's bits mixed (MurmurHash3's finalizer): consecutive ids end chunks at no regular step. */
function mixed(id: number): number {
  let h = id >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
