/**
 * The API lists as items (a build after one edit at 100,000 manuscripts must not serialize
 * the whole 238 MB manuscripts list again). A list is its framing's `open`, its items joined by its
 * `separator`, and its `close` (ListItems.framing: the JSON array's `[`, `,` and `]` unless the
 * renderer says otherwise), cut into chunks of ITEMS_PER_CHUNK items: the chunks are what the write
 * stage streams and what the segmented twins group into segments (segmented-twins.ts), so the
 * layout lives here, once, for both ways of producing it.
 *
 * The write stage records, for each list it writes, every item's key (OutputFile.items) and length
 * in bytes: a ListTable. The next build takes an item whose key it finds in the previous table from
 * the previous file, by byte range (runs of consecutive items in one read), and renders only the rest.
 */
import { framingOf, type ListFraming, type ListItems } from '../../../shared/output-file.ts';
import { bufferView } from '../../../shared/movable-bytes.ts';
import type { SegmentTable } from '../compress/segmented-twins.ts';
import type { FileStamp } from '../scan/stat-many.ts';
import { fnv1a } from '../../../shared/text-hash.ts';

export type { ListItems };

/** What a list file holds, item by item, as the write stage wrote it. */
export interface ListTable {
  /** The list's key (OutputFile.key) when written: with the same key, the files are taken as they are. */
  key: string;
  /**
   * The stamps of the list and of its `.gz` and `.br` twins when written: files that no longer have
   * them are neither taken as they are nor read from (the previous output's files are only ever
   * replaced, never modified).
   */
  stamps: FileStamp[];
  /** The items' keys, newline-joined (a key never holds one: see keyed). */
  keys: string;
  /** What each item read when it was rendered, by its record (reuse.ts). */
  reads?: ReadonlyMap<string, string>;
  lengths: Uint32Array;
  /** Where the compressed segments lie in the twins, by suffix (segmented-twins.ts). */
  twins?: Record<string, SegmentTable>;
}

/** Bytes of the previous build's list file. */
export interface ByteRange {
  position: number;
  length: number;
}

/**
 * A chunk as it is made: bytes, and ranges of the previous file (read by the list writer's thread,
 * list-writer.ts: after one edit, 216 MB this thread never touches).
 */
export type ChunkPart = Uint8Array | ByteRange;

/** Items per chunk: large enough that writing is cheap, small enough to stay off the heap. */
export const ITEMS_PER_CHUNK = 256;

/**
 * A chunk's bytes, its ranges read with `readInto` straight into their place: one buffer for the
 * chunk, not one per range and another to join them (after an edit, 238 MB of the previous
 * manuscripts list went through both). A chunk of bytes alone is taken as it is, not copied.
 */
export function joinChunk(
  parts: readonly ChunkPart[],
  readInto: (range: ByteRange, into: Uint8Array, at: number) => void,
): Buffer {
  const [only] = parts;
  if (parts.length === 1 && only instanceof Uint8Array) return bufferView(only);
  let size = 0;
  for (const part of parts) size += part instanceof Uint8Array ? part.byteLength : part.length;
  const joined = Buffer.allocUnsafe(size);
  let at = 0;
  for (const part of parts) {
    if (part instanceof Uint8Array) joined.set(part, at);
    else readInto(part, joined, at);
    at += part instanceof Uint8Array ? part.byteLength : part.length;
  }
  return joined;
}

/** Whether `items` can be recorded in a table: every item keyed, no key with a newline. */
export function keyed(items: ListItems): items is ListItems & { keys: readonly string[] } {
  return (
    items.keys !== undefined && items.keys.length === items.count && items.keys.every((key) => !key.includes('\n'))
  );
}

/**
 * The size in bytes of the file a table describes, framed by `framing`: the list's own now, which
 * was its own when the table was written too (the framing is the renderer's, and the build cache is
 * dropped whole when the code or the journal's settings change).
 */
export function tableBytes(table: ListTable, framing: ListFraming): number {
  const { open, separator, close } = framingBytes(framing);
  let bytes = open + close + separator * Math.max(0, table.lengths.length - 1);
  for (const length of table.lengths) bytes += length;
  return bytes;
}

/** The sizes in bytes of a framing's texts. */
function framingBytes({ open, separator, close }: ListFraming): Record<keyof ListFraming, number> {
  return {
    open: Buffer.byteLength(open, 'utf8'),
    separator: Buffer.byteLength(separator, 'utf8'),
    close: Buffer.byteLength(close, 'utf8'),
  };
}

/** What splicedChunks reports as it goes: every item's length (for the next table), and how many it rendered. */
export interface SpliceRecord {
  lengths: Uint32Array;
  rendered: number;
}

/**
 * The list's chunks (renderedChunks gives them as text), with each item the previous file (described
 * by `previous`) holds under the same key taken from it, as a range, instead of rendered.
 */
export function* splicedChunks(
  items: ListItems,
  previous: ListTable | undefined,
  record: SpliceRecord = { lengths: new Uint32Array(items.count), rendered: 0 },
): Generator<ChunkPart[]> {
  const { lengths } = record;
  const framing = framingOf(items);
  const { separator } = framing;
  const separatorSize = framingBytes(framing).separator;
  const old = previous ? oldItems(previous, framing) : undefined;
  /** The previous item after the last one taken: where the next chunk most likely starts. */
  let next = 0;
  yield [Buffer.from(framing.open)];
  for (let start = 0; start < items.count; start += ITEMS_PER_CHUNK) {
    const end = Math.min(start + ITEMS_PER_CHUNK, items.count);
    // A chunk whose items are the previous list's, in order, from `next` (after an edit, all but one
    // chunk): one range, found key by key without the bookkeeping of runs below (250,000
    // items a build after every edit). Equal keys, equal bytes: the same chunk as the runs would make.
    const keys = items.keys;
    if (old && keys && old.sameRun(next, keys, start, end)) {
      lengths.set(old.lengths.subarray(next, next + end - start), start);
      const range = {
        position: old.offsets[next]!,
        length: old.offsets[next + end - start - 1]! + old.lengths[next + end - start - 1]! - old.offsets[next]!,
      };
      next += end - start;
      yield start > 0 ? [Buffer.from(separator), range] : [range];
      continue;
    }
    const parts: ChunkPart[] = [];
    // What was rendered since the last range: texts and bytes, and their size in bytes.
    const rendered = new RenderedBytes(parts);
    if (start > 0) rendered.text(separator, separatorSize);
    // A run of consecutive previous items, [first, last]: one read, separators included.
    let first = -1;
    let last = -1;
    const endRun = () => {
      if (first < 0) return;
      rendered.flush();
      parts.push({
        position: old!.offsets[first]!,
        length: old!.offsets[last]! + old!.lengths[last]! - old!.offsets[first]!,
      });
      next = last + 1;
      first = -1;
    };
    for (let i = start; i < end; i++) {
      const key = items.keys?.[i];
      if (old && key !== undefined) {
        // The item after the run first, so that a run survives keys that occur twice (identical records).
        const j = first >= 0 && old.is(last + 1, key) ? last + 1 : old.find(key);
        if (j !== undefined) {
          lengths[i] = old.lengths[j]!;
          if (first >= 0 && j === last + 1) {
            last = j;
            continue;
          }
          endRun();
          if (i > start) rendered.text(separator, separatorSize);
          first = last = j;
          continue;
        }
      }
      endRun();
      const json = items.render(i);
      record.rendered++;
      if (i > start) rendered.text(separator, separatorSize);
      if (typeof json === 'string') {
        lengths[i] = rendered.text(json);
        continue;
      }
      // Pieces: texts are encoded, bytes (JSON already) copied as they are.
      let length = 0;
      for (const piece of json) length += typeof piece === 'string' ? rendered.text(piece) : rendered.bytes(piece);
      lengths[i] = length;
    }
    endRun();
    rendered.flush();
    yield parts;
  }
  yield [Buffer.from(framing.close)];
}

/**
 * Rendered texts and bytes, written into one buffer of their own, of their exact size, when a range
 * or the chunk's end comes (flush): a cold build's chunk is then one buffer, which moves to the
 * list writer's thread as it is (list-writer.ts). A buffer per text between a
 * manuscript's packed fields, then one more to join them, cost the main thread about a second at
 * 100,000 manuscripts.
 */
class RenderedBytes {
  #pieces: (string | Uint8Array)[] = [];
  #size = 0;
  readonly #parts: ChunkPart[];

  constructor(parts: ChunkPart[]) {
    this.#parts = parts;
  }

  /** Adds a text; returns its size in bytes (`size`, when the caller knows it). */
  text(text: string, size = Buffer.byteLength(text, 'utf8')): number {
    this.#pieces.push(text);
    this.#size += size;
    return size;
  }

  bytes(bytes: Uint8Array): number {
    this.#pieces.push(bytes);
    this.#size += bytes.byteLength;
    return bytes.byteLength;
  }

  flush(): void {
    if (this.#pieces.length === 0) return;
    // A buffer of its own from 4 KB on (a chunk's); below, a view on Node's shared pool, which the
    // list writer copies rather than moves (the separators between ranges after an edit).
    const buffer = Buffer.allocUnsafe(this.#size);
    let at = 0;
    for (const piece of this.#pieces) {
      if (typeof piece === 'string') at += buffer.write(piece, at);
      else {
        buffer.set(piece, at);
        at += piece.byteLength;
      }
    }
    this.#parts.push(buffer);
    this.#pieces = [];
    this.#size = 0;
  }
}

/**
 * A key for each chunk splicedChunks yields, in order: equal keys, equal bytes (the items' keys,
 * and what surrounds them in the chunk; the framing's texts are their own keys). The segmented twins
 * key their segments by these instead of hashing the bytes (segmented-twins.ts: 216 MB at 100,000
 * manuscripts).
 */
export function* chunkKeys(items: ListItems & { keys: readonly string[] }): Generator<string> {
  const { open, separator, close } = framingOf(items);
  yield open;
  for (let start = 0; start < items.count; start += ITEMS_PER_CHUNK) {
    yield `items${start === 0 ? '' : separator}\n${items.keys.slice(start, Math.min(start + ITEMS_PER_CHUNK, items.count)).join('\n')}`;
  }
  yield close;
}

/**
 * The previous table's items: where each starts in the file, and a lookup of their keys in the
 * table's newline-joined keys as they are. Splitting them into 250,000 strings and a map
 * of them took the main thread a tenth of a second after every edit, and their garbage as much.
 */
function oldItems(table: ListTable, framing: ListFraming) {
  const { keys, lengths } = table;
  const count = lengths.length;
  const sizes = framingBytes(framing);
  /** Where each key starts in `keys`; keyStarts[count] is one past the end (as if a newline followed). */
  const keyStarts = new Uint32Array(count + 1);
  const offsets = new Float64Array(count);
  let offset = sizes.open;
  let at = 0;
  for (let j = 0; j < count; j++) {
    keyStarts[j] = at;
    offsets[j] = offset;
    offset += lengths[j]! + sizes.separator;
    const newline = keys.indexOf('\n', at);
    at = newline < 0 ? keys.length + 1 : newline + 1;
  }
  keyStarts[count] = Math.max(at, keys.length + 1);
  /** Whether item j's key is `key`. */
  const is = (j: number, key: string): boolean =>
    j < count && keyStarts[j + 1]! - 1 - keyStarts[j]! === key.length && keys.startsWith(key, keyStarts[j]!);
  // An open-addressing table of the items by a hash of their keys, each key's first item found
  // first (items are added in order, and equal keys probe the same slots). Made on the first
  // lookup: a list whose chunks all follow on from the previous list's needs none (sameRun).
  const size = 2 ** Math.ceil(Math.log2(count * 2 + 2));
  let byHash: { slots: Int32Array; hashes: Int32Array } | undefined;
  const made = () => {
    if (byHash) return byHash;
    byHash = { slots: new Int32Array(size).fill(-1), hashes: new Int32Array(size) };
    for (let j = 0; j < count; j++) {
      const h = fnv1a(keys, keyStarts[j]!, keyStarts[j + 1]! - 1);
      let slot = h & (size - 1);
      while (byHash.slots[slot] !== -1) slot = (slot + 1) & (size - 1);
      byHash.slots[slot] = j;
      byHash.hashes[slot] = h;
    }
    return byHash;
  };
  /** The first item whose key is `key`. */
  const find = (key: string): number | undefined => {
    const { slots, hashes } = made();
    const h = fnv1a(key);
    for (let slot = h & (size - 1); slots[slot] !== -1; slot = (slot + 1) & (size - 1)) {
      if (hashes[slot] === h && is(slots[slot]!, key)) return slots[slot];
    }
    return undefined;
  };
  /** Whether items `from`… are `itemKeys` from `start` to `end`, one for one. */
  const sameRun = (from: number, itemKeys: readonly (string | undefined)[], start: number, end: number): boolean => {
    if (from + end - start > count) return false;
    for (let i = start; i < end; i++)
      if (itemKeys[i] === undefined || !is(from + i - start, itemKeys[i]!)) return false;
    return true;
  };
  return { offsets, lengths, is, find, sameRun };
}
