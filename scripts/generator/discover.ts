/**
 * Stage 1: find the content files. Each collection's folder is listed and stamped once, on worker
 * threads (content-scan.ts), sorted by UTF-16 code units (directory order is not stable across
 * machines); symlinks and stray files are reported rather than followed or ignored.
 */
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { COLLECTION_NAMES, type CollectionName } from './schema.ts';
import { RECORD_KEY } from './formats.ts';
import type { Problem } from './problems.ts';
import { STAT_FIELDS, statsOf, type Scan, type Stats } from './stat-many.ts';

export const CONTENT_EXTENSIONS = ['.yaml', '.yml', '.json'] as const;

export interface SourceFile {
  collection: CollectionName;
  /** The record's key: its file name without extension (authors are referenced by it). */
  key: string;
  /** Path relative to the project root, forward slashes: used in every report. */
  file: string;
  /** The file's name in its folder: `file` ends with it. */
  name: string;
  absolutePath: string;
}

export interface JournalDiscovery {
  journalFile: { file: string; absolutePath: string } | undefined;
  problems: Problem[];
}

export interface Discovery extends JournalDiscovery {
  files: Record<CollectionName, SourceFile[]>;
  /**
   * What `lstat` said of each file when its folder was listed, in discovery order (the collections
   * in COLLECTION_NAMES order): the load stage compares these stamps with the build cache's.
   */
  stats: Stats;
  /**
   * A collection folder's names joined by NUL (FolderListing.joined), when every one of them is a
   * file found (nearly always): the check index tells it has the same files with one comparison.
   */
  listed: Partial<Record<CollectionName, string>>;
}

const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const JOURNAL_NAMES = new Set(['journal.yaml', 'journal.yml', 'journal.json']);

/**
 * The journal settings file: exactly one of journal.yaml, journal.yml, journal.json, a regular file
 * (a link is not followed). Found in the content folder's listing: a glob library for three names
 * cost every command 30 ms to load (issue 4: a check after one edit takes under a second).
 */
export async function discoverJournal(projectRoot: string, contentDir: string): Promise<JournalDiscovery> {
  const problems: Problem[] = [];
  const relative = (absolute: string) => path.relative(projectRoot, absolute).split(path.sep).join('/');
  const entries = await readdir(contentDir, { withFileTypes: true }).catch(() => []);
  const journalCandidates = entries.filter((entry) => entry.isFile() && JOURNAL_NAMES.has(entry.name)).map((entry) => entry.name);
  journalCandidates.sort(byCodeUnits);
  const journalName = journalCandidates[0];
  const journalFile = journalName ? { file: relative(path.join(contentDir, journalName)), absolutePath: path.join(contentDir, journalName) } : undefined;
  if (!journalFile) {
    problems.push(whole(relative(path.join(contentDir, 'journal.yaml')), 'io/unreadable', 'is missing', 'the journal settings file (see docs/content-model.md)'));
  }
  for (const extra of journalCandidates.slice(1)) {
    problems.push(whole(relative(path.join(contentDir, extra)), 'ref/duplicate-key', `duplicates ${journalFile?.file}`, 'one journal settings file'));
  }
  return { journalFile, problems };
}

/**
 * The collections' files from `scan` (content-scan.ts), then the journal's (discoverJournal). Each
 * collection is taken as soon as its folder's listing is there (the workers finish them in any
 * order); files and problems come out in COLLECTION_NAMES order all the same.
 */
export async function discover(projectRoot: string, contentDir: string, scan: Scan, journal: JournalDiscovery): Promise<Discovery> {
  const relative = (absolute: string) => path.relative(projectRoot, absolute).split(path.sep).join('/');
  const found = await Promise.all(COLLECTION_NAMES.map(async (collection) => {
    const folder = path.join(contentDir, collection);
    const files: SourceFile[] = [];
    const problems: Problem[] = [];
    const folderStat = await lstat(folder).catch(() => undefined);
    if (folderStat?.isSymbolicLink()) {
      problems.push(whole(relative(folder), 'io/symlink', 'is a symbolic link', 'a real folder inside content/'));
      return { files, problems, stamps: new Float64Array(0), listed: undefined };
    }
    const listing = await scan.folder(folder);
    if (!listing) return { files, problems, stamps: new Float64Array(0), listed: undefined };
    // The stamps of the files kept, in their order (a stray entry or two costs a gap, nothing more).
    const stamps = new Float64Array(listing.names.length * STAT_FIELDS);
    // Two files share a key only if their extensions differ: with one extension in the folder
    // (nearly always), no map of every key is made (at 250,000 files, half of discovery's time).
    let firstExtension: string | undefined;
    let mixed = false;
    // Paths by concatenation: path.join and path.relative per file cost a second at 250,000 files.
    const folderPrefix = `${folder}${path.sep}`;
    const filePrefix = `${relative(folder)}/`;
    listing.names.forEach((name, i) => {
      const file = filePrefix + name;
      const kind = listing.kind(i);
      if (kind === 'directory') {
        problems.push(whole(file, 'io/unexpected-file', 'is a folder', `record files directly in content/${collection}/`));
        return;
      }
      if (kind === 'symlink') {
        problems.push(whole(file, 'io/symlink', 'is a symbolic link', 'a regular file'));
        return;
      }
      // As path.extname: a leading dot starts no extension.
      const dot = name.lastIndexOf('.');
      const extension = dot > 0 ? name.slice(dot) : '';
      if (!(CONTENT_EXTENSIONS as readonly string[]).includes(extension.toLowerCase())) {
        problems.push(whole(file, 'io/unexpected-file', 'is not a content file', 'a .yaml, .yml or .json file'));
        return;
      }
      const key = name.slice(0, dot);
      if (!RECORD_KEY.test(key)) {
        problems.push(whole(file, 'io/unexpected-file', `the file name "${key}" cannot be used as a key`, 'letters, digits, ".", "_" and "-", starting with a letter or digit'));
        return;
      }
      firstExtension ??= extension;
      if (extension !== firstExtension) mixed = true;
      for (let k = 0; k < STAT_FIELDS; k++) stamps[files.length * STAT_FIELDS + k] = listing.values[i * STAT_FIELDS + k]!;
      files.push({ collection, key, file, name, absolutePath: folderPrefix + name });
    });
    if (mixed) dropDuplicateKeys(files, stamps, problems);
    return { files, problems, stamps: stamps.subarray(0, files.length * STAT_FIELDS), listed: files.length === listing.names.length ? listing.joined() : undefined };
  }));
  const files = Object.fromEntries(COLLECTION_NAMES.map((collection, c) => [collection, found[c]!.files])) as Record<CollectionName, SourceFile[]>;
  const stamps = new Float64Array(found.reduce((sum, part) => sum + part.stamps.length, 0));
  found.reduce((offset, part) => (stamps.set(part.stamps, offset), offset + part.stamps.length), 0);
  const listed = Object.fromEntries(COLLECTION_NAMES.flatMap((collection, c) => (found[c]!.listed === undefined ? [] : [[collection, found[c]!.listed]])));
  return { files, journalFile: journal.journalFile, problems: [...found.flatMap((part) => part.problems), ...journal.problems], stats: statsOf(stamps), listed };
}

/** Keeps the first file (in sorted order) of each key, and reports the others, with their stamps taken out too. */
function dropDuplicateKeys(files: SourceFile[], stamps: Float64Array, problems: Problem[]): void {
  const seenKeys = new Map<string, string>();
  let kept = 0;
  files.forEach((source, n) => {
    const previous = seenKeys.get(source.key);
    if (previous) {
      problems.push(whole(source.file, 'ref/duplicate-key', `has the same key "${source.key}" as ${previous}`, 'one file per key'));
      return;
    }
    seenKeys.set(source.key, source.file);
    stamps.copyWithin(kept * STAT_FIELDS, n * STAT_FIELDS, (n + 1) * STAT_FIELDS);
    files[kept++] = source;
  });
  files.length = kept;
}

function whole(file: string, code: Problem['code'], message: string, expected: string): Problem {
  return { code, file, line: 0, column: 0, field: '', message, expected };
}
