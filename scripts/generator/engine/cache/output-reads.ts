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
 * The cache's form: the paths joined by newlines, a part of up to PATHS_PER_PART at a time (each
 * part a frame of the cache's file), and `index[i]` the place of path i's reads in `table`.
 */
export interface PackedReads {
  paths: string[];
  table: string[];
  index: Uint32Array;
}

/**
 * Paths joined at a time while packing: a few joined strings of 4,096 paths stay in the young
 * generation, and each is written as it is. Joined whole, they were a text of 20 MB and its
 * serialized copy at the end of a cold build at 100,000 manuscripts.
 */
const PATHS_PER_PART = 4_096;

/**
 * Packs the reads of `paths` (in that order; a path without reads is left out). At the end of a
 * build at 100,000 manuscripts, arrays of 650,000 paths and places made whole were garbage of the
 * old generation, collected only once the heap reached its limit: tens of MB of the build's peak.
 */
export function packReads(paths: Iterable<string>, reads: ReadsByPath): PackedReads {
  const table: string[] = [];
  const places = new Map<string, number>();
  let index = new Uint32Array(PATHS_PER_PART);
  let count = 0;
  const parts: string[] = [];
  let part: string[] = [];
  for (const path of paths) {
    const read = reads.get(path);
    if (read === undefined) continue;
    let place = places.get(read);
    if (place === undefined) {
      place = table.length;
      places.set(read, place);
      table.push(read);
    }
    if (count === index.length) {
      const grown = new Uint32Array(index.length * 2);
      grown.set(index);
      index = grown;
    }
    index[count++] = place;
    part.push(path);
    if (part.length === PATHS_PER_PART) {
      parts.push(part.join('\n'));
      part = [];
    }
  }
  if (part.length > 0) parts.push(part.join('\n'));
  return { paths: parts, table, index: index.slice(0, count) };
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

  #find(path: string): number | undefined {
    if (!this.#byPath) {
      this.#byPath = new Map();
      const names = this.#paths.split('\n');
      for (let i = 0; i < this.#index.length; i++) this.#byPath.set(names[i]!, i);
    }
    return this.#byPath.get(path);
  }
}
