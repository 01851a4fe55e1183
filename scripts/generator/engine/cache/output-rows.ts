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
  /** The first row named `name`, -1 if none is. */
  rowNamed(name: string): number;
  /** The names of rows `start` to `end` (excluded), joined by NUL. */
  joinedNames(start: number, end: number): string;
  /** The keys of rows `start` to `end` (excluded), joined by NUL. */
  joinedKeys(start: number, end: number): string;
  /** Field `field` of a row's stamp as the file was written: 0 its size, 1 its mtimeMs, 2 its inode. */
  stampField(row: number, field: number): number;
}

export const ROW_STAMP_FIELDS = 3;

export function rowStamp(rows: OutputRows, row: number): FileStamp {
  return { size: rows.stampField(row, 0), mtimeMs: rows.stampField(row, 1), ino: rows.stampField(row, 2) };
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
      const row = rows.rowNamed(name);
      if (row >= 0) return row;
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
 * names and keys joined by NUL, with where each row starts. A name or a key is made into a string
 * of its own only when asked for; a lookup compares in place. Split, the 750,000 names and keys of
 * a build at 100,000 manuscripts were 1.5 million strings (44 MB) that also held on to the texts
 * they were cut from, to the end of the build (docs/performance.md).
 */
export class JoinedRows implements OutputRows {
  readonly count: number;
  readonly #stamps: Float64Array;
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
    // One more than the rows: each frame's starts end with where its text would go on
    // (startsInJoined), which the next frame's first start then takes the place of.
    const nameStarts = new Int32Array(count + 1);
    const keyStarts = new Int32Array(count + 1);
    const stamps = new Float64Array(count * ROW_STAMP_FIELDS);
    let row = 0;
    for (let f = 0; f < frames.length; f++) {
      const { names, keys, stamps: frameStamps } = frames[f]!;
      frameStarts[f] = row;
      stamps.set(frameStamps, row * ROW_STAMP_FIELDS);
      const end = row + counts[f]!;
      if (
        !startsInJoined(names, end - row, nameStarts.subarray(row, end + 1)) ||
        !startsInJoined(keys, end - row, keyStarts.subarray(row, end + 1))
      )
        return undefined;
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
    this.#stamps = stamps;
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

  stampField(row: number, field: number): number {
    return this.#stamps[row * ROW_STAMP_FIELDS + field]!;
  }

  rowNamed(name: string): number {
    if (name === '' || name.includes('\0')) return -1;
    for (let frame = 0; frame < this.#names.length; frame++) {
      const text = this.#names[frame]!;
      // Searched for in the frame's text at once; a match counts only as a whole name.
      for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
        const end = at + name.length;
        if ((at === 0 || text.charCodeAt(at - 1) === 0) && (end === text.length || text.charCodeAt(end) === 0))
          return this.#rowAt(frame, at);
      }
    }
    return -1;
  }

  /** The row whose name starts at `at` in its frame's text. */
  #rowAt(frame: number, at: number): number {
    return lastAtMost(this.#nameStarts, at, this.#frameStarts[frame]!, this.#frameStarts[frame + 1]! - 1);
  }

  joinedNames(start: number, end: number): string {
    return this.#joined(this.#names, this.#nameStarts, start, end);
  }

  joinedKeys(start: number, end: number): string {
    return this.#joined(this.#keys, this.#keyStarts, start, end);
  }

  /** Rows `start` to `end` of a column, joined: cut from each frame's text at once. */
  #joined(texts: readonly string[], starts: Int32Array, start: number, end: number): string {
    const parts: string[] = [];
    for (let row = start; row < end;) {
      const frame = this.#frameOf(row);
      const last = Math.min(end, this.#frameStarts[frame + 1]!) - 1;
      const text = texts[frame]!;
      parts.push(text.slice(starts[row]!, this.#endOf(text, starts, frame, last)));
      row = last + 1;
    }
    return parts.join('\0');
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
    return lastAtMost(this.#frameStarts, row, 0, this.#frameStarts.length - 2);
  }
}

/**
 * The last place from `low` to `high` in `sorted` whose number is at most `value` (`low` when none
 * is): the frame a row is in, by the frames' first rows, or the row a name starts, by the rows'
 * starts.
 */
function lastAtMost(sorted: Int32Array, value: number, low: number, high: number): number {
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (sorted[middle]! <= value) low = middle;
    else high = middle - 1;
  }
  return low;
}

/**
 * Rows made one at a time, in order: rows of their own, and rows taken from the previous build's
 * (`copy`), kept as where they are there, without their name, key or stamp. After a build with
 * nothing changed, every row is one of those. The stamps of its own rows are numbers in a typed
 * array, grown by doubling or made to the size asked for: at 100,000 manuscripts a list of 2.5
 * million numbers, grown a little at a time, left tens of MB of copies for a full collection at the
 * end of a cold build.
 */
export class OutputRowsBuilder implements OutputRows {
  #count = 0;
  /** The names and keys of the rows of its own, in order. */
  readonly #ownNames: string[] = [];
  readonly #ownKeys: string[] = [];
  /** ROW_STAMP_FIELDS numbers for each row of its own; what follows the last is room to grow into. */
  #ownStamps: Float64Array;
  /** The rows the copies are taken from (the one set of rows copied from, not made one at a time). */
  #source: OutputRows | undefined;
  /**
   * Each row's row in `#source`, or, for a row of its own, -1 less its place among those (-1 for
   * the first); grown by doubling.
   */
  #rows: Int32Array;

  /** `rows`: how many rows are expected (more may be added), `own`: how many of them of its own. */
  constructor(rows = 1_024, own = rows) {
    this.#rows = new Int32Array(Math.max(1, rows));
    this.#ownStamps = new Float64Array(Math.max(1, own) * ROW_STAMP_FIELDS);
  }

  get count(): number {
    return this.#count;
  }

  name(row: number): string {
    const at = this.#rows[row]!;
    return at < 0 ? this.#ownNames[-1 - at]! : this.#source!.name(at);
  }

  key(row: number): string {
    const at = this.#rows[row]!;
    return at < 0 ? this.#ownKeys[-1 - at]! : this.#source!.key(at);
  }

  isNamed(row: number, name: string): boolean {
    if (row < 0 || row >= this.#count) return false;
    const at = this.#rows[row]!;
    return at < 0 ? this.#ownNames[-1 - at] === name : this.#source!.isNamed(at, name);
  }

  hasKey(row: number, key: string): boolean {
    if (row < 0 || row >= this.#count) return false;
    const at = this.#rows[row]!;
    return at < 0 ? this.#ownKeys[-1 - at] === key : this.#source!.hasKey(at, key);
  }

  stampField(row: number, field: number): number {
    const at = this.#rows[row]!;
    return at < 0 ? this.#ownStamps[(-1 - at) * ROW_STAMP_FIELDS + field]! : this.#source!.stampField(at, field);
  }

  rowNamed(name: string): number {
    for (let row = 0; row < this.#count; row++) if (this.isNamed(row, name)) return row;
    return -1;
  }

  joinedNames(start: number, end: number): string {
    return this.#joined(start, end, this.#ownNames, (source, first, last) => source.joinedNames(first, last));
  }

  joinedKeys(start: number, end: number): string {
    return this.#joined(start, end, this.#ownKeys, (source, first, last) => source.joinedKeys(first, last));
  }

  /**
   * Rows `start` to `end` of a column, joined: the rows taken from consecutive rows of `#source`
   * joined there, at once (after a build with nothing changed, every row).
   */
  #joined(
    start: number,
    end: number,
    own: readonly string[],
    joinedThere: (source: OutputRows, first: number, end: number) => string,
  ): string {
    const parts: string[] = [];
    for (let row = start; row < end;) {
      const at = this.#rows[row]!;
      if (at < 0) {
        parts.push(own[-1 - at]!);
        row++;
        continue;
      }
      let next = row + 1;
      while (next < end && this.#rows[next] === at + (next - row)) next++;
      parts.push(joinedThere(this.#source!, at, at + (next - row)));
      row = next;
    }
    return parts.join('\0');
  }

  /** Every row's name, in order. */
  names(): string[] {
    return Array.from({ length: this.#count }, (_, row) => this.name(row));
  }

  add(name: string, key: string, size: number, mtimeMs: number, ino: number): void {
    const own = this.#ownNames.length;
    this.#ownNames.push(name);
    this.#ownKeys.push(key);
    const at = own * ROW_STAMP_FIELDS;
    if (at + ROW_STAMP_FIELDS > this.#ownStamps.length) {
      const grown = new Float64Array(this.#ownStamps.length * 2);
      grown.set(this.#ownStamps);
      this.#ownStamps = grown;
    }
    this.#ownStamps[at] = size;
    this.#ownStamps[at + 1] = mtimeMs;
    this.#ownStamps[at + 2] = ino;
    this.#push(-1 - own);
  }

  /** Sets the stamp of a row of its own added before. */
  stamp(row: number, stamp: FileStamp): void {
    const at = (-1 - this.#rows[row]!) * ROW_STAMP_FIELDS;
    if (at < 0) throw new Error('the stamp of a row taken from other rows is theirs');
    this.#ownStamps[at] = stamp.size;
    this.#ownStamps[at + 1] = stamp.mtimeMs;
    this.#ownStamps[at + 2] = stamp.ino;
  }

  /**
   * Adds `from`'s row `row`, under its own name, key and stamp: as a place in `from` when the rows
   * taken so far come from there (or from nowhere yet) and `from` is not made one at a time, else
   * as a row of its own.
   */
  copy(from: OutputRows, row: number): void {
    if (!(from instanceof OutputRowsBuilder) && (this.#source ?? from) === from) {
      this.#source = from;
      this.#push(row);
    } else
      this.add(
        from.name(row),
        from.key(row),
        from.stampField(row, 0),
        from.stampField(row, 1),
        from.stampField(row, 2),
      );
  }

  #push(place: number): void {
    const row = this.#count++;
    if (row >= this.#rows.length) {
      const grown = new Int32Array(this.#rows.length * 2);
      grown.set(this.#rows);
      this.#rows = grown;
    }
    this.#rows[row] = place;
  }
}

/**
 * Where each of `count` names joined by NUL starts, into `starts`, and one more number where the
 * next would; undefined when they are not `count` names.
 */
function startsInJoined(joined: string, count: number, starts: Int32Array): Int32Array | undefined {
  let at = 0;
  for (let i = 0; i < count; i++) {
    starts[i] = at;
    const end = joined.indexOf('\0', at);
    if (end < 0 !== (i === count - 1)) return undefined;
    at = (end < 0 ? joined.length : end) + 1;
  }
  starts[count] = at;
  return count === 0 && joined !== '' ? undefined : starts;
}
