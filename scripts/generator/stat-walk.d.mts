/** Types of stat-walk.mjs (plain JavaScript, shared with the stat workers). */
export declare const STAT_FIELDS: 4;
export declare function stampInto(values: Float64Array, prefix: string, names: readonly string[], count?: number): void;
export declare function walkFolders(
  root: string,
  recursive: boolean,
  found: (folder: string, listing: { names: string[]; values: Float64Array } | undefined) => void,
): void;
