/**
 * Which files of the previous output can stand for this build's: same key, and still exactly as
 * that build wrote them (same stamp). The previous output's files are only ever replaced, never
 * modified, so a file with its recorded stamp holds the recorded bytes.
 */

import path from 'node:path';

import type { OutputRows } from '../cache/output-rows.ts';
import type { MediaCopy } from '../../stages/media.ts';

import { KEY_AS_RECORDED, PRECOMPRESSED, type OutputFile } from '../../../shared/output-file.ts';

import { STAT_FIELDS, type FolderListing, type Scan } from '../scan/stat-many.ts';

/**
 * An output path (forward slashes, relative, checked by the renderers and findOutputConflicts) inside
 * a folder. Concatenated: `path.join` per file cost about a second at 200,000 files; every
 * platform's file functions take `/`.
 */
export function under(folder: string, relative: string): string {
  return `${folder}/${relative}`;
}

/**
 * What the search for reusable files reads of an output (or of a PDF's copy). The outputs are given
 * as they are: an object and a list of files made for each of 650,000 outputs at 100,000
 * manuscripts lived through the search and were old garbage of a cold build (about 34 MB).
 */
export type ReusableOutput = Pick<OutputFile, 'path' | 'precompress' | 'key'>;

/** The files an output is written as: itself, and its precompressed twins. */
export function relativesOf(output: ReusableOutput): string[] {
  return output.precompress
    ? [output.path, ...PRECOMPRESSED.map((suffix) => `${output.path}${suffix}`)]
    : [output.path];
}

/** A PDF's key: its source and that source's stamp when checked (none when too recent to trust). */
export function mediaKey(copy: MediaCopy): string | undefined {
  return copy.stamp ? `${copy.from}\n${copy.stamp.size} ${copy.stamp.mtimeMs} ${copy.stamp.ino}` : undefined;
}

/** What the previous build wrote into this output folder (its manifest's rows), and a finder over them. */
export interface PreviousOutput {
  rows: OutputRows;
  find: (name: string, hint: number) => number;
}

/**
 * The previous build's files that can stand for this build's: same key, and still exactly as that
 * build wrote them (same stamp: the previous output's files are only ever replaced, never modified,
 * so a file with its recorded stamp holds the recorded bytes). An output counts only if all its
 * files do. The stamps are the ones `listed` took when the build started (content-scan.ts); a file
 * in a folder it did not list (missing then, or reached through a link) is not reused.
 *
 * Returns the previous row of each of the wanted outputs' files, in order, -1 where there is none to
 * reuse. The outputs are looked for in the order the previous build wrote them (output-rows.ts).
 */
export async function findReusable(
  outDir: string,
  previous: PreviousOutput | undefined,
  wanted: readonly ReusableOutput[],
  listed: Scan | undefined,
): Promise<Int32Array> {
  const rows = new Int32Array(fileCount(wanted)).fill(-1);
  if (!listed || !previous || previous.rows.count === 0) return rows;
  // Relative folder → its listing, with where the search in it stands: at 100,000 manuscripts,
  // 750,000 files in about twenty folders.
  const listings = new Map<string, ListingSearch | undefined>();
  const folderOfNext = folderFinder();
  const folders = new Set<string>();
  for (const output of wanted) for (const relative of relativesOf(output)) folders.add(folderOfNext(relative));
  // Named as the scan names them (path.join), whatever the platform's separator.
  for (const folder of folders) {
    const listing = await listed.folder(path.join(outDir, ...folder.split('/')));
    listings.set(folder, listing && { listing, lastFound: -1 });
  }
  /** Where the file `relative` names (its name from `start`) is in the search's listing. */
  const positionIn = (search: ListingSearch, relative: string, start: number): number | undefined => {
    const { column } = search.listing;
    const next = search.lastFound + 1;
    // Compared in place with the listing's joined names (a name sliced per file was 200,000
    // strings; the listing's 750,000 names split at 100,000 manuscripts, 28 MB to the end of a
    // build after an edit), a few names on: a file not looked for (its output changed) is one to
    // step over.
    let at: number | undefined;
    for (let guess = next; guess < next + LOOK_AHEAD && at === undefined; guess++)
      if (column.matches(guess, relative, start)) at = guess;
    at ??= column.find(relative, start);
    if (at !== undefined) search.lastFound = at;
    return at;
  };
  const { rows: previousRows } = previous;
  // 750,000 files at 100,000 manuscripts: no closure or object per file.
  const intact = (relative: string, row: number): boolean => {
    const folder = folderOfNext(relative);
    const search = listings.get(folder);
    const at = search && positionIn(search, relative, folder === '' ? 0 : folder.length + 1);
    if (at === undefined || search!.listing.kind(at) !== 'file') return false;
    const v = search!.listing.values;
    return (
      v[at * STAT_FIELDS + 1] === previousRows.stampField(row, 0) &&
      v[at * STAT_FIELDS + 2] === previousRows.stampField(row, 1) &&
      v[at * STAT_FIELDS + 3] === previousRows.stampField(row, 2)
    );
  };
  let hint = 0;
  let end = 0;
  for (const output of wanted) {
    const { key } = output;
    const relatives = relativesOf(output);
    const first = end;
    end += relatives.length;
    if (key === undefined) continue;
    for (let k = 0; k < relatives.length; k++) {
      const row = previous.find(relatives[k]!, hint);
      // An output's files are consecutive rows: one not reused is stepped over whole.
      if (row >= 0) hint = row + relatives.length - k;
      if (row < 0 || !sameKey(previous.rows, row, key) || !intact(relatives[k]!, row)) {
        rows.fill(-1, first, end);
        break;
      }
      rows[first + k] = row;
      hint = row + 1;
    }
  }
  return rows;
}

/**
 * One folder's listing as findReusable searches it: the name after the last one found is tried
 * first (outputs in the listing's order, as the PDFs are, need nothing more), and a search of the
 * whole listing (Names.find) only for a name elsewhere.
 */
interface ListingSearch {
  readonly listing: FolderListing;
  lastFound: number;
}

/** Whether the file of a previous row stands for an output keyed `key` (OutputFile.key). */
function sameKey(rows: OutputRows, row: number, key: string): boolean {
  return key === KEY_AS_RECORDED || rows.hasKey(row, key);
}

/** The files of a group of outputs, in order: each one's previous row to reuse (-1: none) and, once written, its tag. */
export interface FilePlan {
  files: string[];
  rows: Int32Array;
  tags: Int32Array;
}

export async function filePlan(
  outDir: string,
  previous: PreviousOutput | undefined,
  wanted: readonly ReusableOutput[],
  listed: Scan | undefined,
): Promise<FilePlan> {
  const rows = await findReusable(outDir, previous, wanted, listed);
  const files = new Array<string>(rows.length);
  let file = 0;
  for (const output of wanted) for (const relative of relativesOf(output)) files[file++] = relative;
  return { files, rows, tags: new Int32Array(rows.length).fill(-1) };
}

/** How many files the outputs are written as (relativesOf, without a list made for each). */
export function fileCount(outputs: readonly ReusableOutput[]): number {
  let count = 0;
  for (const output of outputs) count += output.precompress ? 1 + PRECOMPRESSED.length : 1;
  return count;
}

/**
 * The folder of each relative output path given ('' for the root), the one before's given again
 * when it is the same: consecutive outputs are mostly in one folder, and a folder sliced per file
 * was 200,000 strings, each hashed to look its listing up.
 */
export function folderFinder(): (relative: string) => string {
  let last: string | undefined;
  return (relative) => {
    const slash = relative.lastIndexOf('/');
    if (last !== undefined && Math.max(slash, 0) === last.length && relative.startsWith(last)) return last;
    return (last = folderOf(relative));
  };
}

/** The folder of a relative output path ('' for the root). */
export function folderOf(relative: string): string {
  const slash = relative.lastIndexOf('/');
  return slash < 0 ? '' : relative.slice(0, slash);
}

/** Names of a listing compared in place, after the last one found, before a map of them all is made. */
const LOOK_AHEAD = 4;

/** Written files stamped at once (statMany). */
export const STAT_SLICE = 50_000;
