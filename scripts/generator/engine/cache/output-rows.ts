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
  /** Output paths, relative to the output folder, with forward slashes. */
  names: readonly string[];
  /** The key of each file's inputs ('' for a file without one: never reused). */
  keys: readonly string[];
  /** size, mtimeMs, ino of each file, as it was written. */
  stamps: ArrayLike<number>;
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
    for (let row = hint; row < hint + LOOK_AHEAD; row++) if (rows.names[row] === name) return row;
    // A group of outputs starts somewhere in the rows (after the lists, after the PDFs): a few such
    // starts are found by comparing every row, in milliseconds.
    if (!byName && scansLeft > 0) {
      scansLeft--;
      const row = rows.names.indexOf(name);
      if (row >= 0) return row;
    }
    if (!byName) {
      byName = new Map();
      for (let row = 0; row < rows.names.length; row++) byName.set(rows.names[row]!, row);
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
 * Rows made one at a time, in order. The stamps are numbers in a typed array, grown by doubling or
 * made to the size asked for: at 100,000 manuscripts a list of 2.5 million numbers, grown a
 * little at a time, left tens of MB of copies for a full collection at the end of a cold build.
 */
export class OutputRowsBuilder implements OutputRows {
  readonly names: string[] = [];
  readonly keys: string[] = [];
  /** ROW_STAMP_FIELDS numbers per row; what follows the last row is room to grow into. */
  stamps: Float64Array;

  /** `rows`: how many rows are expected (more may be added). */
  constructor(rows = 1_024) {
    this.stamps = new Float64Array(Math.max(1, rows) * ROW_STAMP_FIELDS);
  }

  add(name: string, key: string, size: number, mtimeMs: number, ino: number): void {
    const at = this.names.length * ROW_STAMP_FIELDS;
    this.names.push(name);
    this.keys.push(key);
    if (at + ROW_STAMP_FIELDS > this.stamps.length) {
      const grown = new Float64Array(this.stamps.length * 2);
      grown.set(this.stamps);
      this.stamps = grown;
    }
    this.stamps[at] = size;
    this.stamps[at + 1] = mtimeMs;
    this.stamps[at + 2] = ino;
  }

  /** Sets the stamp of a row added before. */
  stamp(row: number, stamp: FileStamp): void {
    const at = row * ROW_STAMP_FIELDS;
    this.stamps[at] = stamp.size;
    this.stamps[at + 1] = stamp.mtimeMs;
    this.stamps[at + 2] = stamp.ino;
  }

  /** Adds `from`'s row `row`, under its own name and key. */
  copy(from: OutputRows, row: number): void {
    const at = row * ROW_STAMP_FIELDS;
    this.add(from.names[row]!, from.keys[row]!, from.stamps[at]!, from.stamps[at + 1]!, from.stamps[at + 2]!);
  }
}
