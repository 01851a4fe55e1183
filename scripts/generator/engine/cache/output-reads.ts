/**
 * What each output read when it was last made (reuse/reuse.ts), as the build cache keeps it: the
 * outputs' paths joined by newlines, in the order of the outputs, and for each the number of its
 * reads in a table of the distinct ones. At 100,000 manuscripts there are 650,000 outputs and about
 * half as many distinct reads (a manuscript's page and its three citation files read the same
 * records): a map of a path and a reads string per output, as it was kept before, was 1.3 million
 * strings to read back after every edit and to hold to the end of the build.
 *
 * The next build asks for the outputs in the same order, so each path is compared in place with the
 * one after the last found; a map by path is made only for a path that is not there (an output
 * added since).
 */

/** An output's reads by its path. */
export interface ReadsByPath {
  get(path: string): string | undefined;
}

/**
 * The reads whole, as the next build reads them back: the paths joined by newlines, a part of up
 * to PATHS_PER_PART at a time, and `index[i]` the place of path i's reads in `table`.
 */
export interface PackedReads {
  paths: string[];
  table: string[];
  index: Uint32Array;
}

/**
 * The cache's form, a frame at a time: a part of the paths (a string) or of the table (an array),
 * the parts of each in order whatever comes between them, and last the index. Made one at a time
 * as they are written, the paths' parts and the table are never held whole beside the reads they
 * are made from: at the end of a cold build at 100,000 manuscripts that was about 40 MB at the top
 * of the build's peak of memory.
 */
export type ReadsFrame = string | readonly string[] | Uint32Array;

/**
 * Paths joined at a time while packing: a few joined strings of 4,096 paths stay in the young
 * generation, and each is written as it is. Joined whole, they were a text of 20 MB and its
 * serialized copy at the end of a cold build at 100,000 manuscripts.
 */
const PATHS_PER_PART = 4_096;

/** Distinct reads in a part of the table (a frame of the cache's file). */
const READS_PER_PART = 10_000;

/**
 * Reads added to the previous build's table past which the reads are packed anew (repacked): each
 * output made again after an edit adds its reads, and the reads it had stay in the table.
 */
const STALE_READS = 0.1;

/** The reads from their frames, as they were written (ReadsFrame). */
export function unframed(frames: Iterable<ReadsFrame>): PackedReads {
  const paths: string[] = [];
  const parts: (readonly string[])[] = [];
  let index: Uint32Array = new Uint32Array();
  for (const frame of frames) {
    if (typeof frame === 'string') paths.push(frame);
    else if (frame instanceof Uint32Array) index = frame;
    else parts.push(frame);
  }
  return { paths, table: parts.flat(), index };
}

/**
 * The reads of `paths` (in that order; a path without reads is left out) in frames, each made as
 * it is asked for. At the end of a build at 100,000 manuscripts, arrays of 650,000 paths and places
 * made whole were garbage of the old generation, collected only once the heap reached its limit:
 * tens of MB of the build's peak.
 */
export function* readsFrames(paths: Iterable<string>, reads: ReadsByPath): Generator<ReadsFrame> {
  const places = new Map<string, number>();
  let index = new Uint32Array(PATHS_PER_PART);
  let count = 0;
  let part: string[] = [];
  let added: string[] = [];
  for (const path of paths) {
    const read = reads.get(path);
    if (read === undefined) continue;
    let place = places.get(read);
    if (place === undefined) {
      place = places.size;
      places.set(read, place);
      added.push(read);
      if (added.length === READS_PER_PART) {
        yield added;
        added = [];
      }
    }
    if (count === index.length) {
      const grown = new Uint32Array(index.length * 2);
      grown.set(index);
      index = grown;
    }
    index[count++] = place;
    part.push(path);
    if (part.length === PATHS_PER_PART) {
      yield part.join('\n');
      part = [];
    }
  }
  if (part.length > 0) yield part.join('\n');
  if (added.length > 0) yield added;
  yield index.subarray(0, count);
}

/**
 * The reads of the outputs keyed by their bodies (`paths`, in order) as they are now, in frames
 * made as they are written: `recorded[i]` where output i was made in this build, else what it read
 * when it was last made (`previous`).
 */
export function packReadsNow(
  paths: () => Iterable<string>,
  recorded: readonly (string | undefined)[],
  previous: ReadsByPath | undefined,
): Iterable<ReadsFrame> {
  return (
    (previous instanceof PreviousOutputReads && previous.repacked(paths(), recorded)) ||
    readsFrames(paths(), readsNow(recorded, previous))
  );
}

/**
 * What each output read when it was last made: this build's reads, or the previous build's for an
 * output not made again. Asked for the outputs keyed by their bodies, in the order they were keyed
 * (reuse.ts): this build's are found by their places, and the previous build's in place, since a
 * path they lack (a list, a host file) made a map of every path.
 */
function readsNow(recorded: readonly (string | undefined)[], previous: ReadsByPath | undefined): ReadsByPath {
  let place = 0;
  return {
    get(path) {
      const before = previous?.get(path);
      return recorded[place++] ?? before;
    },
  };
}

/** The reads of the previous build's outputs, looked up by path. */
export class PreviousOutputReads implements ReadsByPath {
  /**
   * The packed reads but for their paths' parts, which are joined into `#paths` and let go: kept,
   * they were the same 16 MB twice to the end of a build after an edit at 100,000 manuscripts.
   */
  readonly #index: Uint32Array;
  readonly #table: readonly string[];
  /** Every path, joined by newlines. */
  readonly #paths: string;
  /** Where each path starts in `paths`, and one past the end of the last. */
  readonly #starts: Uint32Array;
  #next = 0;
  #byPath: Map<string, number> | undefined;

  constructor(packed: PackedReads) {
    this.#index = packed.index;
    this.#table = packed.table;
    this.#paths = packed.paths.join('\n');
    const count = packed.index.length;
    this.#starts = new Uint32Array(count + 1);
    let at = 0;
    for (let i = 0; i < count; i++) {
      this.#starts[i] = at;
      const end = this.#paths.indexOf('\n', at);
      at = end < 0 ? this.#paths.length + 1 : end + 1;
    }
    this.#starts[count] = count === 0 ? 0 : this.#paths.length + 1;
  }

  get(path: string): string | undefined {
    // Asked again in the same order once every path was asked for, it starts over.
    const next = this.#next < this.#index.length ? this.#next : 0;
    const found = this.#at(next, path) ? next : this.#at(next + 1, path) ? next + 1 : this.#find(path);
    if (found === undefined) return undefined;
    this.#next = found + 1;
    return this.#table[this.#index[found]!];
  }

  /** Whether path `i` is `path`, compared in place. */
  #at(i: number, path: string): boolean {
    const start = this.#starts[i];
    return (
      i < this.#index.length && this.#starts[i + 1]! - start! - 1 === path.length && this.#paths.startsWith(path, start)
    );
  }

  /**
   * The reads of `paths` packed as they are now, from these, in frames made as they are written:
   * when `paths` are the outputs these were packed for, in the same order, with `recorded[i]` the
   * reads of path i where it was made again. Undefined when the paths differ, or when the table
   * would hold too many reads no path has any more: readsFrames packs them anew.
   *
   * After an edit nearly every output's reads are as they were: packing them anew made a map of
   * the 325,000 distinct reads and the paths joined again, about 40 MB at the top of the build's
   * peak of memory at 100,000 manuscripts.
   */
  repacked(paths: Iterable<string>, recorded: readonly (string | undefined)[]): Iterable<ReadsFrame> | undefined {
    const count = this.#index.length;
    const index = this.#index.slice();
    const table = this.#table;
    const added: string[] = [];
    const places = new Map<string, number>();
    let i = 0;
    for (const path of paths) {
      if (i >= count || !this.#at(i, path)) return undefined;
      const read = recorded[i];
      if (read !== undefined && read !== table[index[i]!]) {
        let place = places.get(read);
        if (place === undefined) {
          places.set(read, (place = table.length + added.length));
          added.push(read);
        }
        index[i] = place;
      }
      i++;
    }
    if (i !== count || added.length > table.length * STALE_READS + 64) return undefined;
    return this.#frames(index, added);
  }

  /** The paths' parts cut from `#paths`, then the table and `added` after it, then `index`. */
  *#frames(index: Uint32Array, added: readonly string[]): Generator<ReadsFrame> {
    const count = index.length;
    for (let first = 0; first < count; first += PATHS_PER_PART)
      yield this.#paths.slice(this.#starts[first], this.#starts[Math.min(count, first + PATHS_PER_PART)]! - 1);
    for (const reads of [this.#table, added])
      for (let first = 0; first < reads.length; first += READS_PER_PART)
        yield reads.slice(first, first + READS_PER_PART);
    yield index;
  }

  #find(path: string): number | undefined {
    if (!this.#byPath) {
      this.#byPath = new Map();
      const names = this.#paths.split('\n');
      for (let i = 0; i < this.#index.length; i++) this.#byPath.set(names[i]!, i);
    }
    return this.#byPath.get(path);
  }
}
