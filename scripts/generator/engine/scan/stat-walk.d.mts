/** Types of stat-walk.mjs (plain JavaScript, shared with the stat workers). */
export declare const STAT_FIELDS: 4;
export declare const SHARED_FOLDER: number;
export declare const RACY_MS: number;
export declare function startsWithInto(
  out: Uint8Array,
  paths: readonly string[],
  magic: Uint8Array,
  start?: number,
  end?: number,
): void;
export declare function stampInto(
  values: Float64Array,
  prefix: string,
  names: readonly string[],
  start?: number,
  end?: number,
): void;
export type Stamp = (values: Float64Array, at: number, path: string) => void;
export declare const stampOne: Stamp;
export declare function startsOf(names: readonly string[], starts?: Int32Array): Int32Array;
export declare function nameAt(joined: string, starts: Int32Array, i: number): string;
export declare function startsInJoined(joined: string, count: number, starts?: Int32Array): Int32Array | undefined;
export declare function stampJoined(
  values: Float64Array,
  prefix: string,
  joined: string,
  starts: Int32Array,
  start: number,
  end: number,
): void;
export declare function stampShared(
  values: Float64Array,
  prefix: string,
  joined: string,
  starts: Int32Array,
  control: Int32Array,
): void;
/** A large folder as it is listed, before its stamps are all taken: `starts`, `values` and `control` are in shared memory. */
export interface SharedFolder {
  joined: string;
  starts: Int32Array;
  values: Float64Array;
  control: Int32Array;
  prefix: string;
}
/** Where large folders' listings are kept between scans, and before when a folder's stamp must date to be kept. */
export interface KeptListingsPlace {
  dir: string;
  trustedBefore: number;
}
export interface KeptListings {
  stampOf(folder: string): number[] | undefined;
  read(
    folder: string,
    stamp: readonly number[],
    starts?: (count: number) => Int32Array,
  ): { joined: string; count: number; starts: Int32Array } | undefined;
  write(folder: string, stamp: readonly number[], joined: string, count: number): void;
}
export declare function keptListings(place: KeptListingsPlace): KeptListings;
export declare function walkFolders(
  root: string,
  recursive: boolean,
  found: (folder: string, listing: { joined: string; count: number; values: Float64Array } | undefined) => void,
  share?: (folder: string, shared: SharedFolder) => void,
  kept?: KeptListings,
): void;
