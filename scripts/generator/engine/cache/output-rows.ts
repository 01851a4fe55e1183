/**
 * The files of an output folder as rows in columns: what the previous build wrote, read
 * from the build cache, and what this build writes, for the next. At 100,000 manuscripts there are
 * 200,000 rows; an entry and a stamp object per file, in a map by path, cost a quarter of a second
 * to read back after every edit, and as much again in garbage collection.
 *
 * A build writes its rows in the order of its outputs (the lists, the PDFs, the pages), and the next
 * build looks its outputs up in that order: each lookup is then one comparison with the row after
 * the last one found, and the map by path is made only when an output is not where it was.
 */
import type { FileStamp } from '../scan/stat-many.ts';

export interface OutputRows {
  /** How many rows there are. */
  readonly count: number;
  /** A row's output path, relative to the output folder, with forward slashes. */
  name(row: number): string;
  /** The key of a row's inputs ('' for a file without one: never reused). */
  key(row: number): string;
  /** Whether a row's name is `name`, compared in place. */
  isNamed(row: number, name: string): boolean;
  /** Whether a row's key is `key`, compared in place. */
  hasKey(row: number, key: string): boolean;
  /** size, mtimeMs, ino of each file, as it was written. */
  readonly stamps: ArrayLike<number>;
}

export const ROW_STAMP_FIELDS = 3;

export function rowStamp(rows: OutputRows, row: number): FileStamp {
  const at = row * ROW_STAMP_FIELDS;
  return { size: rows.stamps[at]!, mtimeMs: rows.stamps[at + 1]!, ino: rows.stamps[at + 2]! };
}

/**
 * Finds a path's row, trying `hint` (the row after the last one found) and the few after it first:
 * an output deleted since, or written since with its twins, is a few rows to step over. Returns -1
 * when there is no such row.
 */
export function rowFinder(rows: OutputRows): (name: string, hint: number) => number {
  let byName: Map<string, number> | undefined;
  let scansLeft = LINEAR_SCANS;
  return (name, hint) => {
    for (let row = Math.max(0, hint); row < Math.min(rows.count, hint + LOOK_AHEAD); row++)
      if (rows.isNamed(row, name)) return row;
    // A group of outputs starts somewhere in the rows (after the lists, after the PDFs): a few such
    // starts are found by comparing every row, in milliseconds.
    if (!byName && scansLeft > 0) {
      scansLeft--;
      for (let row = 0; row < rows.count; row++) if (rows.isNamed(row, name)) return row;
    }
    if (!byName) {
      byName = new Map();
      for (let row = 0; row < rows.count; row++) byName.set(rows.name(row), row);
    }
    return byName.get(name) ?? -1;
  };
}

/**
 * Rows compared in place before a map of every name is made: at 100,000 manuscripts that map (of
 * 750,000 names) took half a second of a build after one edit.
 */
const LOOK_AHEAD = 4;
const LINEAR_SCANS = 4;

/**
 * The previous build's rows as its build cache keeps them (cache.ts, outputs.bin): each frame's
 * names and keys joined by NUL, with where each row's starts. A name or a key is made into a string
 * of its own only when asked for; a lookup compares in place. Split, the 750,000 names and keys of
 * a build at 100,000 manuscripts were 1.5 million strings (44 MB) that also held on to the texts
 * they were cut from, to the end of the build (docs/performance.md).
 */
export class JoinedRows implements OutputRows {
  readonly count: number;
  readonly stamps: Float64Array;
  readonly #names: readonly string[];
  readonly #keys: readonly string[];
  /** The first row of each frame, and the count after the last. */
  readonly #frameStarts: Int32Array;
  readonly #nameStarts: Int32Array;
  readonly #keyStarts: Int32Array;

  /**
   * From frames of rows: each frame's names and keys joined by NUL, and the stamps of its rows.
   * Undefined when a frame's columns do not agree on its number of rows (a cache never trusted).
   */
  static fromFrames(frames: readonly { names: string; keys: string; stamps: Float64Array }[]): JoinedRows | undefined {
    const counts = frames.map(({ stamps }) => stamps.length / ROW_STAMP_FIELDS);
    if (!counts.every(Number.isInteger)) return undefined;
    const count = counts.reduce((sum, n) => sum + n, 0);
    const frameStarts = new Int32Array(frames.length + 1);
    const nameStarts = new Int32Array(count);
    const keyStarts = new Int32Array(count);
    const stamps = new Float64Array(count * ROW_STAMP_FIELDS);
    let row = 0;
    for (let f = 0; f < frames.length; f++) {
      const { names, keys, stamps: frameStamps } = frames[f]!;
      frameStarts[f] = row;
      stamps.set(frameStamps, row * ROW_STAMP_FIELDS);
      const end = row + counts[f]!;
      if (!startsOf(names, nameStarts, row, end) || !startsOf(keys, keyStarts, row, end)) return undefined;
      row = end;
    }
    frameStarts[frames.length] = count;
    return new JoinedRows(
      count,
      stamps,
      frames.map(({ names }) => names),
      frames.map(({ keys }) => keys),
      frameStarts,
      nameStarts,
      keyStarts,
    );
  }

  private constructor(
    count: number,
    stamps: Float64Array,
    names: readonly string[],
    keys: readonly string[],
    frameStarts: Int32Array,
    nameStarts: Int32Array,
    keyStarts: Int32Array,
  ) {
    this.count = count;
    this.stamps = stamps;
    this.#names = names;
    this.#keys = keys;
    this.#frameStarts = frameStarts;
    this.#nameStarts = nameStarts;
    this.#keyStarts = keyStarts;
  }

  name(row: number): string {
    return this.#cut(this.#names, this.#nameStarts, row);
  }

  key(row: number): string {
    return this.#cut(this.#keys, this.#keyStarts, row);
  }

  isNamed(row: number, name: string): boolean {
    return this.#is(this.#names, this.#nameStarts, row, name);
  }

  hasKey(row: number, key: string): boolean {
    return this.#is(this.#keys, this.#keyStarts, row, key);
  }

  #cut(texts: readonly string[], starts: Int32Array, row: number): string {
    const frame = this.#frameOf(row);
    const text = texts[frame]!;
    return text.slice(starts[row]!, this.#endOf(text, starts, frame, row));
  }

  #is(texts: readonly string[], starts: Int32Array, row: number, value: string): boolean {
    if (row < 0 || row >= this.count) return false;
    const frame = this.#frameOf(row);
    const text = texts[frame]!;
    const start = starts[row]!;
    return this.#endOf(text, starts, frame, row) - start === value.length && text.startsWith(value, start);
  }

  /** Where a row's text ends: before the NUL that starts the next row's, or at the end of its frame's. */
  #endOf(text: string, starts: Int32Array, frame: number, row: number): number {
    return row + 1 < this.#frameStarts[frame + 1]! ? starts[row + 1]! - 1 : text.length;
  }

  /** The frame a row is in: a binary search over the frames' first rows (a few hundred frames). */
  #frameOf(row: number): number {
    const firsts = this.#frameStarts;
    let low = 0;
    let high = firsts.length - 2;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (firsts[middle]! <= row) low = middle;
      else high = middle - 1;
    }
    return low;
  }
}

/**
 * Notes in `starts[from..end)` where each of the NUL-joined texts in `joined` starts; false when
 * `joined` holds another number of them.
 */
function startsOf(joined: string, starts: Int32Array, from: number, end: number): boolean {
  if (end === from) return joined === '';
  let at = 0;
  for (let row = from; row < end; row++) {
    starts[row] = at;
    if (row + 1 < end) {
      const nul = joined.indexOf('\0', at);
      if (nul < 0) return false;
      at = nul + 1;
    }
  }
  return joined.indexOf('\0', at) < 0;
}

/**
 * Rows made one at a time, in order: rows of their own, and rows taken from the previous build's
 * (`copy`), kept as where they are there rather than as their name and key. After a build with
 * nothing changed, every row is one of those. The stamps are numbers in a typed array, grown by
 * doubling or made to the size asked for: at 100,000 manuscripts a list of 2.5 million numbers, grown a
 * little at a time, left tens of MB of copies for a full collection at the end of a cold build.
 */
export class OutputRowsBuilder implements OutputRows {
  /** A row's own name and key; undefined for a row taken from `#source`. */
  readonly #names: (string | undefined)[] = [];
  readonly #keys: (string | undefined)[] = [];
  /** The rows the copies are taken from (the one set of rows copied from, not made one at a time). */
  #source: OutputRows | undefined;
  /** Each row's row in `#source`, -1 for a row of its own; grown with the stamps. */
  #sourceRows: Int32Array;
  /** ROW_STAMP_FIELDS numbers per row; what follows the last row is room to grow into. */
  stamps: Float64Array;

  /** `rows`: how many rows are expected (more may be added). */
  constructor(rows = 1_024) {
    this.stamps = new Float64Array(Math.max(1, rows) * ROW_STAMP_FIELDS);
    this.#sourceRows = new Int32Array(Math.max(1, rows));
  }

  get count(): number {
    return this.#names.length;
  }

  name(row: number): string {
    return this.#names[row] ?? this.#source!.name(this.#sourceRows[row]!);
  }

  key(row: number): string {
    return this.#keys[row] ?? this.#source!.key(this.#sourceRows[row]!);
  }

  isNamed(row: number, name: string): boolean {
    if (row < 0 || row >= this.count) return false;
    const own = this.#names[row];
    return own === undefined ? this.#source!.isNamed(this.#sourceRows[row]!, name) : own === name;
  }

  hasKey(row: number, key: string): boolean {
    if (row < 0 || row >= this.count) return false;
    const own = this.#keys[row];
    return own === undefined ? this.#source!.hasKey(this.#sourceRows[row]!, key) : own === key;
  }

  /** Every row's name, in order. */
  names(): string[] {
    return Array.from({ length: this.count }, (_, row) => this.name(row));
  }

  add(name: string, key: string, size: number, mtimeMs: number, ino: number): void {
    this.#push(name, key, -1, size, mtimeMs, ino);
  }

  /** Sets the stamp of a row added before. */
  stamp(row: number, stamp: FileStamp): void {
    const at = row * ROW_STAMP_FIELDS;
    this.stamps[at] = stamp.size;
    this.stamps[at + 1] = stamp.mtimeMs;
    this.stamps[at + 2] = stamp.ino;
  }

  /**
   * Adds `from`'s row `row`, under its own name and key: as a place in `from` when the rows taken
   * so far come from there (or from nowhere yet) and `from` is not made one at a time, else as
   * its name and key.
   */
  copy(from: OutputRows, row: number): void {
    const at = row * ROW_STAMP_FIELDS;
    const { stamps } = from;
    if (!(from instanceof OutputRowsBuilder) && (this.#source ?? from) === from) {
      this.#source = from;
      this.#push(undefined, undefined, row, stamps[at]!, stamps[at + 1]!, stamps[at + 2]!);
    } else this.#push(from.name(row), from.key(row), -1, stamps[at]!, stamps[at + 1]!, stamps[at + 2]!);
  }

  #push(
    name: string | undefined,
    key: string | undefined,
    sourceRow: number,
    size: number,
    mtimeMs: number,
    ino: number,
  ): void {
    const row = this.#names.length;
    const at = row * ROW_STAMP_FIELDS;
    this.#names.push(name);
    this.#keys.push(key);
    if (at + ROW_STAMP_FIELDS > this.stamps.length) {
      const grown = new Float64Array(this.stamps.length * 2);
      grown.set(this.stamps);
      this.stamps = grown;
    }
    if (row >= this.#sourceRows.length) {
      const grown = new Int32Array(this.#sourceRows.length * 2);
      grown.set(this.#sourceRows);
      this.#sourceRows = grown;
    }
    this.#sourceRows[row] = sourceRow;
    this.stamps[at] = size;
    this.stamps[at + 1] = mtimeMs;
    this.stamps[at + 2] = ino;
  }
}
