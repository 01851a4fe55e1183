/**
 * Stage 1: find the content files. Each collection's folder is listed and stamped once, on worker
 * threads (content-scan.ts), sorted by UTF-16 code units (directory order is not stable across
 * machines); symlinks and stray files are reported rather than followed or ignored.
 */
import { lstat, readdir, readlink } from 'node:fs/promises';
import path from 'node:path';
import { COLLECTION_NAMES, type CollectionName } from '../model/schema.ts';
import { RECORD_KEY } from '../model/formats.ts';
import type { Problem } from '../model/problems.ts';
import { READABLE_FOLDER } from './media-folder-access.ts';
import { caseTwins, caseTwinsMessage, mayFold } from './case-fold.ts';
import { compareText } from '../../shared/compare-text.ts';
import { NameList, STAT_FIELDS, statsOf, type FolderListing, type Names, type Scan, type Stats } from './listing.ts';
import { keyOf, NO_NAMES, SourceFiles, type CollectionFiles, type SourceFile } from './source-files.ts';

export const CONTENT_EXTENSIONS = ['.yaml', '.yml', '.json'] as const;
/** The file that keeps an empty folder in git: no content, and no problem. */
const KEEP_FOLDER = '.gitkeep';

export { keyOf, SourceFiles, type CollectionFiles, type SourceFile };

export interface JournalDiscovery {
  journalFile: { file: string; absolutePath: string } | undefined;
  problems: Problem[];
}

export interface Discovery extends JournalDiscovery {
  files: SourceFiles;
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

const JOURNAL_NAMES = new Set(['journal.yaml', 'journal.yml', 'journal.json']);

/**
 * The journal settings file: exactly one of journal.yaml, journal.yml, journal.json, a regular file
 * (a link is not followed). Found in the content folder's listing: a glob library for three names
 * costs every command 30 ms to load, and a check after one edit has under a second in all.
 */
export async function discoverJournal(projectRoot: string, contentDir: string): Promise<JournalDiscovery> {
  const problems: Problem[] = [];
  const relative = (absolute: string) => path.relative(projectRoot, absolute).split(path.sep).join('/');
  const entries = await readdir(contentDir, { withFileTypes: true }).catch(() => []);
  const journalCandidates = entries
    .filter((entry) => entry.isFile() && JOURNAL_NAMES.has(entry.name))
    .map((entry) => entry.name);
  journalCandidates.sort(compareText);
  const journalName = journalCandidates[0];
  const journalFile = journalName
    ? { file: relative(path.join(contentDir, journalName)), absolutePath: path.join(contentDir, journalName) }
    : undefined;
  if (!journalFile) {
    // A folder (or a link) of the name is not "missing": the editor sees it there.
    const others = entries.filter((entry) => JOURNAL_NAMES.has(entry.name)).sort((a, b) => compareText(a.name, b.name));
    for (const other of others)
      problems.push(
        whole(
          relative(path.join(contentDir, other.name)),
          other.isSymbolicLink() ? 'io/symlink' : 'io/not-a-file',
          other.isDirectory()
            ? 'is a folder, not a file'
            : other.isSymbolicLink()
              ? 'is a symbolic link, not a file'
              : 'is not a regular file',
          'the journal settings file, a file of field: value lines (see docs/content-model.md)',
        ),
      );
    if (others.length === 0)
      problems.push(
        whole(
          relative(path.join(contentDir, 'journal.yaml')),
          'io/unreadable',
          'is missing',
          'the journal settings file (see docs/content-model.md)',
        ),
      );
  }
  for (const extra of journalCandidates.slice(1)) {
    problems.push(
      whole(
        relative(path.join(contentDir, extra)),
        'ref/duplicate-key',
        `duplicates ${journalFile?.file}`,
        'one journal settings file',
      ),
    );
  }
  return { journalFile, problems };
}

/**
 * The collections' files from `scan` (content-scan.ts), then the journal's (discoverJournal). Each
 * collection is taken as soon as its folder's listing is there (the workers finish them in any
 * order); files and problems come out in COLLECTION_NAMES order all the same.
 *
 * `known` gives a collection's files found by an earlier run (the check index's, NUL-joined): a
 * listing that is exactly those names, all still files, is taken without a look at each name.
 */
export async function discover(
  projectRoot: string,
  contentDir: string,
  scan: Scan,
  journal: JournalDiscovery,
  known: (collection: CollectionName) => string | undefined = () => undefined,
): Promise<Discovery> {
  const relative = (absolute: string) => path.relative(projectRoot, absolute).split(path.sep).join('/');
  const found = await Promise.all(
    COLLECTION_NAMES.map(async (collection) => {
      const folder = path.join(contentDir, collection);
      // Paths by concatenation: path.join and path.relative per file cost a second at 250,000 files.
      const place = { collection, filePrefix: `${relative(folder)}/`, absolutePrefix: `${folder}${path.sep}` };
      const nothing = {
        folder: { ...place, names: NO_NAMES, extension: undefined },
        stamps: new Float64Array(0),
        listed: undefined,
      };
      const problems: Problem[] = [];
      // A collection that is not read is one problem with its path: never an empty list published,
      // nor one "no author has the key" per reference (build.ts skips those checks).
      const folderStat = await lstat(folder).catch((error: NodeJS.ErrnoException) => error);
      const folderFile = place.filePrefix;
      if (folderStat instanceof Error) {
        problems.push(
          folderStat.code === 'ENOENT'
            ? whole(folderFile, 'io/missing-folder', 'is missing', `the folder of the ${collection}, even if empty`)
            : whole(folderFile, 'io/unreadable-folder', `cannot be read (${folderStat.code})`, READABLE_FOLDER),
        );
        return { ...nothing, problems };
      }
      if (folderStat.isSymbolicLink()) {
        const target = await readlink(folder).catch(() => '?');
        problems.push(
          whole(folderFile, 'io/symlink', `is a symbolic link to ${target}`, 'a real folder inside content/'),
        );
        return { ...nothing, problems };
      }
      if (!folderStat.isDirectory()) {
        problems.push(
          whole(folderFile, 'io/unreadable-folder', 'cannot be read: it is a file, not a folder', 'a folder'),
        );
        return { ...nothing, problems };
      }
      const listing = await scan.folder(folder);
      if (!listing) {
        const reason = await readdir(folder).then(
          () => 'it changed while it was read',
          (error: NodeJS.ErrnoException) => error.code,
        );
        problems.push(whole(folderFile, 'io/unreadable-folder', `cannot be read (${reason})`, READABLE_FOLDER));
        return { ...nothing, problems };
      }
      const column = listing.column;
      // The files found last time, every one still a file (nearly always): each name passed the checks
      // below then, and passes them now (250,000 names not looked at again after every edit).
      if (column.length > 0 && column.joined === known(collection) && allFiles(listing)) {
        const extension = sharedExtension(column);
        if (extension !== undefined) {
          // Twins were reported last time too, and are again: an unchanged listing is no excuse.
          if (mayFold(column.joined)) reportCaseTwins(place.filePrefix, column.all(), problems);
          return {
            folder: { ...place, names: column, extension },
            stamps: listing.values,
            problems,
            listed: column.joined,
          };
        }
      }
      // The names and stamps of the files kept, in their order: the listing's own when every entry is
      // a content file (nearly always); a copy without the others when not.
      const listed = listing.names;
      let names: string[] | undefined;
      let stamps: Float64Array | undefined;
      // Two files share a key only if their extensions differ: with one extension in the folder
      // (nearly always), no map of every key is made (at 250,000 files, half of discovery's time).
      let firstExtension: string | undefined;
      let mixed = false;
      const leaveOut = (i: number, problem?: Problem) => {
        if (problem) problems.push(problem);
        if (names) return;
        names = listed.slice(0, i);
        stamps = new Float64Array(listing.values.length);
        stamps.set(listing.values.subarray(0, i * STAT_FIELDS));
      };
      listed.forEach((name, i) => {
        const kind = listing.kind(i);
        if (kind === 'directory')
          return leaveOut(
            i,
            whole(
              place.filePrefix + name,
              'io/unexpected-file',
              'is a folder',
              `record files directly in content/${collection}/`,
            ),
          );
        if (kind === 'symlink')
          return leaveOut(i, whole(place.filePrefix + name, 'io/symlink', 'is a symbolic link', 'a regular file'));
        // Reading a FIFO waits for a writer forever; a socket or a device is no content either.
        if (kind !== 'file')
          return leaveOut(
            i,
            whole(
              place.filePrefix + name,
              'io/not-a-file',
              'is not a regular file (a FIFO, socket or device)',
              'a regular file',
            ),
          );
        // Git keeps no empty folder: a new journal's empty collections hold a `.gitkeep`.
        if (name === KEEP_FOLDER) return leaveOut(i);
        // As path.extname: a leading dot starts no extension.
        const dot = name.lastIndexOf('.');
        const extension = dot > 0 ? name.slice(dot) : '';
        if (!(CONTENT_EXTENSIONS as readonly string[]).includes(extension.toLowerCase())) {
          return leaveOut(
            i,
            whole(
              place.filePrefix + name,
              'io/unexpected-file',
              'is not a content file',
              'a .yaml, .yml or .json file',
            ),
          );
        }
        const key = name.slice(0, dot);
        if (!RECORD_KEY.test(key)) {
          return leaveOut(
            i,
            whole(
              place.filePrefix + name,
              'io/unexpected-file',
              `the file name "${key}" cannot be used as a key`,
              'letters, digits, ".", "_" and "-", starting with a letter or digit',
            ),
          );
        }
        firstExtension ??= extension;
        if (extension !== firstExtension) mixed = true;
        if (!names) return;
        stamps!.set(listing.values.subarray(i * STAT_FIELDS, (i + 1) * STAT_FIELDS), names.length * STAT_FIELDS);
        names.push(name);
      });
      const kept = {
        names: names ?? listed,
        stamps: stamps ? stamps.subarray(0, names!.length * STAT_FIELDS) : listing.values,
      };
      if (mixed) {
        const unique = dropDuplicateKeys(place.filePrefix, kept.names, kept.stamps, problems);
        reportCaseTwins(place.filePrefix, unique.names, problems);
        return {
          folder: { ...place, names: new NameList(unique.names), extension: undefined },
          stamps: unique.stamps,
          problems,
          listed: undefined,
        };
      }
      if (mayFold(names ? names.join('\0') : column.joined))
        reportCaseTwins(place.filePrefix, names ?? column.all(), problems);
      return {
        folder: { ...place, names: names ? new NameList(names) : column, extension: firstExtension },
        stamps: kept.stamps,
        problems,
        listed: names ? undefined : column.joined,
      };
    }),
  );
  const stamps = new Float64Array(found.reduce((sum, part) => sum + part.stamps.length, 0));
  found.reduce((offset, part) => (stamps.set(part.stamps, offset), offset + part.stamps.length), 0);
  const listed = Object.fromEntries(
    COLLECTION_NAMES.flatMap((collection, c) =>
      found[c]!.listed === undefined ? [] : [[collection, found[c]!.listed]],
    ),
  );
  return {
    files: new SourceFiles(found.map((part) => part.folder)),
    journalFile: journal.journalFile,
    problems: [...found.flatMap((part) => part.problems), ...journal.problems],
    stats: statsOf(stamps),
    listed,
  };
}

/** Whether every entry of a listing is a regular file. */
function allFiles(listing: FolderListing): boolean {
  const values = listing.values;
  for (let at = 0; at < values.length; at += STAT_FIELDS) if (values[at] !== 1) return false;
  return true;
}

/**
 * The extension every name has (as path.extname gives it), or undefined when they differ: counted
 * in the joined names, where each name ends in a NUL but the last, without a string per name.
 */
function sharedExtension(names: Names): string | undefined {
  const first = names.at(0);
  const dot = first.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const extension = first.slice(dot);
  const joined = names.joined;
  const ending = `${extension}\0`;
  let count = joined.endsWith(extension) ? 1 : 0;
  for (let at = joined.indexOf(ending); at >= 0; at = joined.indexOf(ending, at + ending.length)) count++;
  return count === names.length ? extension : undefined;
}

/** Keeps the first file (in sorted order) of each key, and reports the others, with their stamps taken out too. */
function dropDuplicateKeys(
  filePrefix: string,
  names: readonly string[],
  stamps: Float64Array,
  problems: Problem[],
): { names: string[]; stamps: Float64Array } {
  const seenKeys = new Map<string, string>();
  const kept: string[] = [];
  const keptStamps = new Float64Array(stamps.length);
  names.forEach((name, n) => {
    const key = keyOf(name);
    const previous = seenKeys.get(key);
    if (previous) {
      problems.push(
        whole(filePrefix + name, 'ref/duplicate-key', `has the same key "${key}" as ${previous}`, 'one file per key'),
      );
      return;
    }
    seenKeys.set(key, filePrefix + name);
    keptStamps.set(stamps.subarray(n * STAT_FIELDS, (n + 1) * STAT_FIELDS), kept.length * STAT_FIELDS);
    kept.push(name);
  });
  return { names: kept, stamps: keptStamps.subarray(0, kept.length * STAT_FIELDS) };
}

/**
 * Reports the files of a folder whose keys differ only in upper/lower case, at each of them: on a
 * disk that ignores case the two are one file (a checkout there holds one of them), and an author
 * is published at its key, so two authors would be one page on such a host. Both stay records, so
 * that nothing else is reported about them (a reference to either still resolves).
 */
function reportCaseTwins(filePrefix: string, names: readonly string[], problems: Problem[]): void {
  for (const group of caseTwins(names.length, (i) => keyOf(names[i]!))) {
    for (const i of group) {
      const others = group.filter((j) => j !== i);
      const key = keyOf(names[i]!);
      problems.push(
        whole(
          filePrefix + names[i]!,
          'ref/duplicate-key',
          caseTwinsMessage(
            `its name "${key}"`,
            `the name of ${others.map((j) => filePrefix + names[j]!).join(' and ')}`,
            key,
            keyOf(names[others[0]!]!),
          ),
          'names that differ in more than upper/lower case: rename one of them, and the references to it',
        ),
      );
    }
  }
}

function whole(file: string, code: Problem['code'], message: string, expected: string): Problem {
  return { code, file, line: 0, column: 0, field: '', message, expected };
}
