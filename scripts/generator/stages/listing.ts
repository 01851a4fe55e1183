/**
 * What the stages read of the file system in bulk: folders' listings with each entry's stamp, and
 * the stamps and first bytes of many files at once. The stages speak only of these interfaces; the
 * engine answers them on worker threads (engine/scan/), and the build hands its answers in. At
 * 100,000 manuscripts that is 350,000 stamps, which is why a stage never takes them one by one.
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
