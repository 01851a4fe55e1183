/**
 * The previous output's search index, as a build takes it (search-index.ts): the keys kept for each
 * shard in the build cache, each file's key and stamp, and the files handed to the write stage
 * unread where they are still as written, or set aside until written.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { OutputFile } from '../../../shared/output-file.ts';
import { Stopped } from '../../../shared/stopped.ts';
import { rowFinder, ROW_STAMP_FIELDS, type OutputRows } from '../cache/output-rows.ts';
import { SetAsideFile } from '../load/set-aside.ts';
import { STAT_FIELDS, type FolderListing, type Scan } from '../scan/stat-many.ts';

/** An index file's key (OutputFile.key): its digest, under a prefix no other output's key has. */
export const keyOf = (fileDigest: string): string => `search/${fileDigest}`;

/** The keys of one shard's index last written, its languages and its files' digests (kept in the build cache). */
export interface IndexKeys {
  records: string | undefined;
  input: string;
  languages: string[];
  files: [path: string, sha256: string][];
  /**
   * Each file's stamp as the output has it once written (ROW_STAMP_FIELDS numbers a file, in the
   * order of `files`; NaN where it is not known), from the write stage's rows.
   */
  stamps?: Float64Array;
}

/**
 * Each index file's stamp as the output's rows have it, into its shard's keys. The files are looked
 * up in the order they were given, which is the order of their rows: each one is then found where
 * the one before it ends (rowFinder).
 */
export function stampsFrom(written: OutputRows, keys: readonly IndexKeys[], order: Int32Array): void {
  for (const shard of keys) shard.stamps = new Float64Array(shard.files.length * ROW_STAMP_FIELDS).fill(NaN);
  const find = rowFinder(written);
  let hint = 0;
  for (let at = 0; at < order.length; at += 2) {
    const shard = keys[order[at]!]!;
    const i = order[at + 1]!;
    const row = find(shard.files[i]![0], hint);
    if (row < 0) continue;
    hint = row + 1;
    for (let field = 0; field < ROW_STAMP_FIELDS; field++)
      shard.stamps![i * ROW_STAMP_FIELDS + field] = written.stampField(row, field);
  }
}

/** The previous output's index files: where each is, and whether it is still as it was written. */
export interface PreviousFiles {
  at(file: string): string;
  /** Whether `file` has the stamp at `stamps[place]` in the listing the build started with. */
  intact(file: string, stamps: Float64Array, place: number): Promise<boolean>;
}

/** `listed`: the output folder's listing when the build started; without it, each file is read and compared. */
export function previousFilesIn(outDir: string, listed: Scan | undefined): PreviousFiles {
  // The index's files come a folder at a time: the last folder's listing is asked for once.
  let last: { folder: string; listing: Promise<FolderListing | undefined> } | undefined;
  return {
    at: (file) => path.join(outDir, ...file.split('/')),
    async intact(file, stamps, place) {
      if (!listed) return false;
      const slash = file.lastIndexOf('/');
      const folder = path.join(outDir, ...file.slice(0, Math.max(slash, 0)).split('/'));
      if (last?.folder !== folder) last = { folder, listing: listed.folder(folder) };
      const listing = await last.listing;
      const found = listing?.column.position(file.slice(slash + 1));
      if (found === undefined || listing!.kind(found) !== 'file') return false;
      const v = listing!.values;
      for (let field = 0; field < ROW_STAMP_FIELDS; field++)
        if (v[found * STAT_FIELDS + 1 + field] !== stamps[place * ROW_STAMP_FIELDS + field]) return false;
      return true;
    },
  };
}

/**
 * The previous output's index files, when every one is there with the bytes it was written with.
 * One with the stamp it was written with is not read: the write stage keeps it where it is (it has
 * the same key and stamp there), and reads it only where it writes the output whole. Any other is
 * read and compared with its digest now, and set aside.
 */
export async function takePrevious(
  keys: IndexKeys,
  previous: PreviousFiles,
  keep: Keep,
): Promise<OutputFile[] | undefined> {
  const files: OutputFile[] = [];
  for (const [place, [file, sha256]] of keys.files.entries()) {
    if (
      keys.stamps?.length === keys.files.length * ROW_STAMP_FIELDS &&
      (await previous.intact(file, keys.stamps, place))
    ) {
      files.push(inPlace(file, previous, sha256));
      continue;
    }
    let body: Uint8Array;
    try {
      body = readFileSync(previous.at(file));
    } catch {
      return undefined;
    }
    if (fileDigest(body) !== sha256) return undefined;
    files.push(keep(file, body, keyOf(sha256)));
  }
  return files;
}

/**
 * A previous index file kept where it is, read only if the write stage asks for its bytes. Its place
 * on disk is made then too, not held as a string for each of 100,000 files to the end of the build.
 */
function inPlace(file: string, previous: PreviousFiles, sha256: string): OutputFile {
  return {
    path: file,
    key: keyOf(sha256),
    get body() {
      const bytes = readFileSync(previous.at(file));
      if (fileDigest(bytes) !== sha256)
        throw new Stopped(
          `The search index's file ${file} changed in the output folder while the build ran: run the build again.`,
        );
      return bytes;
    },
  };
}

/** An index file whose bytes are set aside until the write stage asks for them. */
export type Keep = (path: string, bytes: Uint8Array, key: string) => OutputFile;

/**
 * Sets the index's files aside in a file of the build cache's folder (set-aside.ts), read back one by
 * one as they are written: Pagefind makes them while the pages are written, and held as bytes every
 * shard's stayed in memory until the end of the build (about 250 MB at 100,000 imported
 * manuscripts, in a cold build and in one that takes the previous index alike). Where no file can be
 * set aside, they are held as before.
 */
export function keeper(cacheDir: string): Keep {
  // Opened now, while the build runs, never once a stopped build has returned: a file made then
  // could land in a folder its caller is removing.
  const aside = SetAsideFile.open(cacheDir);
  return (file, bytes, key) => {
    const kept = aside ? aside.keep(bytes) : bytes;
    return {
      path: file,
      key,
      get body() {
        return kept instanceof Uint8Array ? kept : kept.bytes();
      },
    };
  };
}

/**
 * An index file's digest, kept in the build cache and in its key: base64url, as the OAI-PMH index's
 * keys, a third shorter than hex in the output's rows (about 103,000 keys at 100,000 manuscripts).
 */
export function fileDigest(bytes: string | Uint8Array): string {
  return createHash('sha256').update(bytes).digest('base64url');
}
