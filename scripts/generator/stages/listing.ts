/**
 * What the stages read of the file system in bulk: folders' listings with each entry's stamp, and
 * the stamps and first bytes of many files at once. The stages speak only of these interfaces; the
 * engine answers them (engine/scan/), and the build hands its answers in. At 100,000 manuscripts
 * that is 350,000 stamps, which is why a stage never takes them one by one.
 */

/** What identifies a file's state without reading it (the fast path, as git's index does). */
export interface FileStamp {
  size: number;
  mtimeMs: number;
  ino: number;
}

/** The stamp in what `lstat` or `fstat` said of a file. */
export function stampOfStat(stat: FileStamp): FileStamp {
  return { size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino };
}

export function sameStamp(a: FileStamp, b: FileStamp): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino;
}

/** Numbers per path in a listing's values: kind, size, mtimeMs, ino. */
export const STAT_FIELDS = 4;

export type StatKind = 'missing' | 'file' | 'symlink' | 'other' | 'directory';
const KINDS: readonly StatKind[] = ['missing', 'file', 'symlink', 'other', 'directory'];

export interface Stats {
  kind(i: number): StatKind;
  /** The stamp of path `i`, when it exists. */
  stamp(i: number): FileStamp | undefined;
  /** The same in columns: STAT_FIELDS numbers per path, its kind (the index in KINDS), size, mtimeMs and ino. */
  values: Float64Array;
}

/** `values` (STAT_FIELDS numbers per path) read as Stats. */
export function statsOf(values: Float64Array): Stats {
  return {
    values,
    kind: (i) => KINDS[values[i * STAT_FIELDS]!]!,
    stamp: (i) =>
      values[i * STAT_FIELDS] === 0
        ? undefined
        : {
            size: values[i * STAT_FIELDS + 1]!,
            mtimeMs: values[i * STAT_FIELDS + 2]!,
            ino: values[i * STAT_FIELDS + 3]!,
          },
  };
}

/** A folder's names, sorted by UTF-16 code units (as `<` compares). */
export interface Names {
  readonly length: number;
  /** The names joined by NUL: one string to compare a whole listing with. */
  readonly joined: string;
  at(i: number): string;
  /** Whether name `i` is `text` from `from` on. */
  matches(i: number, text: string, from?: number): boolean;
  /** The position of `name`, if it is there. */
  position(name: string): number | undefined;
  /** The position of the name that is `text` from `from` on, if there is one: for many lookups in any order. */
  find(text: string, from?: number): number | undefined;
  /** Every name, as strings. */
  all(): readonly string[];
}

/** Names held as an array of strings. */
export class NameList implements Names {
  readonly #names: readonly string[];
  #joined: string | undefined;

  constructor(names: readonly string[]) {
    this.#names = names;
  }

  get length(): number {
    return this.#names.length;
  }

  get joined(): string {
    return (this.#joined ??= this.#names.join('\0'));
  }

  at(i: number): string {
    return this.#names[i]!;
  }

  matches(i: number, text: string, from = 0): boolean {
    const name = this.#names[i];
    return name !== undefined && name.length === text.length - from && text.endsWith(name);
  }

  position(name: string): number | undefined {
    return positionInSorted(this, name);
  }

  find(text: string, from = 0): number | undefined {
    return this.position(text.slice(from));
  }

  all(): readonly string[] {
    return this.#names;
  }
}

/** The position of `name` in sorted names: a binary search, so no map of 100,000 names is made. */
export function positionInSorted(names: Pick<Names, 'length' | 'at'>, name: string): number | undefined {
  let low = 0;
  let high = names.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const known = names.at(middle);
    if (known === name) return middle;
    if (known < name) low = middle + 1;
    else high = middle - 1;
  }
  return undefined;
}

/** A folder's entries, sorted by UTF-16 code units, each with what `lstat` said of it. */
export interface FolderListing extends Stats {
  /** The names as strings (`column` holds the same, with the lookups). */
  readonly names: readonly string[];
  column: Names;
}

export interface Scan {
  /**
   * The listing of `folder` (absolute, as given to the scan, or a folder found under a recursive
   * one); undefined when it could not be listed, or was never reached (under a symbolic link).
   */
  folder(folder: string): Promise<FolderListing | undefined>;
}

/** Many files at once, for the media checks. */
export interface ManyFiles {
  /** What `lstat` says of each path. */
  stat(paths: readonly string[]): Promise<Stats>;
  /** Whether each path starts with `magic`: 1 it does, 0 it does not, 2 it could not be read. */
  startWith(paths: readonly string[], magic: Uint8Array): Promise<Uint8Array>;
  /**
   * `stamp` when it is old enough for the next build to trust it, else undefined: a file changed
   * again within the same clock tick would keep its stamp (the engine knows the tick; a stage has
   * no clock).
   */
  trusted(stamp: FileStamp | undefined): FileStamp | undefined;
}
