/**
 * The check index: what `check` needs of every unchanged file, in columns, so that `check` after one
 * edit reads no whole record and makes none (docs/performance.md). Builds restore from it too.
 *
 * Of an unchanged file, `check` needs its stamp and content hash and the few fields that other
 * records' checks read (a manuscript's id, volume, authors, section and PDF; an author only
 * exists); a build also reads an author's name, surname, institution and order and a manuscript's
 * title, date and order, and reads a manuscript's long fields from its file when it renders it
 * again (reread.ts). This index holds those fields in columns (40 to 46 MB at 100,000 manuscripts):
 * whole records are several times larger, and take seconds to read and to collect. Files
 * that do not fit the columns (volumes, invalid files, files with problems or warnings, manuscripts
 * with a remote PDF) are kept whole: there are few.
 *
 * Like valid records (load.ts), records restored from the index carry no positions: a problem found
 * in one (an unchanged manuscript that names an author just deleted) is located afterwards by reading
 * its file again (`locateProblems`), which costs one parse per file with a problem, and nothing otherwise.
 */

import path from 'node:path';
import { isJoined } from '../../../shared/joined-text.ts';
import { readFrames } from './cache.ts';
import { keyOf, type CollectionFiles, type Discovery, type SourceFiles } from '../../stages/discover.ts';
import { STAMP_FIELDS, type AlignedCache, type LoadCache } from '../load/load-all.ts';
import { type Loaded } from '../../stages/load.ts';
import { type AuthorRecord, type ManuscriptRecord, type Origin } from '../../model/records.ts';
import type { Problem } from '../../model/problems.ts';
// A manuscript is restored without its long fields, which a build reads from the file when a
// renderer asks (packed-manuscript.ts) and `check` never reads.
import type { FileBacked, SlimManuscript } from '../load/packed-manuscript.ts';
import { COLLECTION_NAMES, type AuthorRef, type CollectionName, type MediaRef } from '../../model/schema.ts';

export const INDEX_FILE = 'check-index.bin';
/** A SHA-1 in base64url (load-job.ts, contentHash) is always this long. */
export const HASH_LENGTH = 27;
/** IndexFrame.authorRows of an author key that no author file had, and of an author kept as published. */
export const UNKNOWN_AUTHOR_ROW = -1;
export const AS_PUBLISHED_ROW = -2;

/** A file kept whole in the index: its hash and what loading it gave. */
export interface KeptWhole {
  hash: string;
  loaded: Loaded;
}

/** One collection's files, in discovery order. */
export interface IndexFrame {
  collection: CollectionName;
  /** The folder the files are in, as the start of their paths (`content/authors/`; '' for no files). */
  folder: string;
  /**
   * The files' names in that folder, NUL-joined as a folder's listing is (Discovery.listed): when the
   * listing found is this string, the files are the same (one comparison, not one per file).
   */
  fileNames: string;
  /** size, mtimeMs, ino per file; NaN where the stamp was too recent to trust. */
  stamps: Float64Array;
  /** The content hashes, HASH_LENGTH characters each (blank for a file kept whole). */
  hashes: string;
  /**
   * For manuscripts in the columns: id, citation_volume as the file writes it (NaN for one that
   * names its volume by key); NaN for a file kept whole.
   */
  numbers: Float64Array;
  /** For manuscripts in the columns: the key a file writes in `volume` (shared), '' for none. */
  volumeKeys: SharedColumn;
  /**
   * For manuscripts in the columns: the section (shared), and, newline-joined, the PDF's path and
   * the texts of the authors that are no row of the authors' frame (authorRows), tab-joined in
   * their order: a key that no author file had, the name of an author kept as published.
   */
  sections: SharedColumn;
  documents: string;
  authors: string;
  /**
   * A manuscript's authors as rows of the authors' frame (UNKNOWN_AUTHOR_ROW: no author file had
   * that key; AS_PUBLISHED_ROW: kept as published), row i's from authorStarts[i] to
   * authorStarts[i + 1]: while the author files are the same, `check` decides that a manuscript
   * names only known authors without a string per key (250,000 keys at 100,000 manuscripts).
   */
  authorRows: Int32Array;
  authorStarts: Uint32Array;
  /**
   * What a build reads of an unchanged record besides (a build restores its records from the
   * index, not from whole records): the `order` of authors and manuscripts (NaN: none), an
   * author's name, surname and institution and a manuscript's date (shared), and its title
   * (newline-joined).
   * A manuscript's long fields (packed-manuscript.ts) are read from its file when asked (reread.ts).
   */
  orders: Float64Array;
  names: SharedColumn;
  surnames: SharedColumn;
  institutions: SharedColumn;
  titles: string;
  dates: SharedColumn;
  /**
   * The optional scholarly fields, '' where a record has none (none of them can be empty or hold a
   * line break): a manuscript's DOI and pages (newline-joined) and licence (shared), an author's
   * ORCID iD (newline-joined).
   */
  dois: string;
  firstPages: string;
  lastPages: string;
  licenses: SharedColumn;
  orcids: string;
  /** An author's or a manuscript's `modified` (shared), '' for none (docs/oai-pmh.md). */
  modified: SharedColumn;
  /** Files kept whole, by position: their hash and what loading them gave. */
  whole: [number, string, Loaded][];
}

/**
 * A column of texts that repeat across records (first names, surnames, institutions, sections,
 * dates): each text once, newline-joined, and each row's position among them. Restored records
 * share one string per text, as loading makes them share (load-all.ts, shareTexts), without a
 * lookup per record: at 250,000 records such lookups cost a fifth of a second after every edit.
 */
interface SharedColumn {
  texts: string;
  rows: Uint32Array;
}

export function sharedColumn(column: readonly string[]): SharedColumn {
  const positions = new Map<string, number>();
  const texts: string[] = [];
  const rows = new Uint32Array(column.length);
  column.forEach((text, row) => {
    let at = positions.get(text);
    if (at === undefined) positions.set(text, (at = texts.push(text) - 1));
    rows[row] = at;
  });
  return { texts: texts.join('\n'), rows };
}

/** Each row's text of a shared column, one string per distinct text. */
function sharedTexts(column: SharedColumn): (row: number) => string {
  const texts = column.texts.split('\n');
  return (row) => texts[column.rows[row]!]!;
}

/**
 * Records restored from the index keep no positions (locateProblems finds them): one empty object
 * for all of them, not one each.
 */
const NO_POSITIONS: Origin['at'] = Object.freeze({});
const NO_PROBLEMS = Object.freeze([]) as unknown as Problem[];

/**
 * The index as the load stage reads a cache (load-all.ts): lined up with the files found, its stamps
 * as columns, and what loading each file gave: no entry, stamp or hash object per file (250,000
 * files at 100,000 manuscripts).
 * The records' skeletons are made here, at once: a check reads the index while the content folders
 * are being listed and stamped (content-scan.ts), and needs every skeleton but the edited files'.
 */
export function readCheckIndex(
  dir: string,
  fingerprint: string,
  mode: 'check' | 'build' = 'check',
): LoadCache | undefined {
  const frames = readFrames<IndexFrame>(path.join(dir, INDEX_FILE), fingerprint);
  if (!frames) return undefined;
  const whole = frames.map((frame) => new Map(frame.whole.map(([row, hash, loaded]) => [row, { hash, loaded }])));
  const names = frames.map((frame) => once(() => frame.fileNames.split('\0')));
  const authorKeys = once(() => {
    const authors = frames.findIndex((frame) => frame.collection === 'authors');
    return authors < 0 ? [] : names[authors]!().map(keyOf);
  });
  const rows = frames.map((frame, f) => recordRow(frame, whole[f]!, mode === 'build', names[f]!, authorKeys));
  // A build needs every record, made here while the content is being stamped. `check` reads the
  // manuscripts' references from the columns (manuscriptColumns) and makes a record only when asked
  // (a file touched but unchanged, or the index rewritten).
  const made =
    mode === 'build'
      ? frames.map((frame, f) => Array.from({ length: frame.stamps.length / STAMP_FIELDS }, (_, row) => rows[f]!(row)))
      : undefined;
  const rowAt = made ? (f: number, row: number) => made[f]![row]! : (f: number, row: number) => rows[f]!(row);
  return {
    size: frames.reduce((sum, frame) => sum + frame.stamps.length / STAMP_FIELDS, 0),
    fileNames: (collection) => frames.find((frame) => frame.collection === collection)?.fileNames,
    align: (sources, listed) => align(frames, whole, rowAt, authorKeys, sources, listed, mode === 'build'),
  };
}

/** What the checks read of a manuscripts frame's rows, from its columns (the split columns are made once). */
function manuscriptColumns(frame: IndexFrame, authorKeys: () => readonly string[]) {
  const split = (column: string) => column.split('\n');
  const documents = split(frame.documents);
  // The authors' keys are the authors' frame's, by row (authorsOf); the column holds as text only
  // the authors with no row there. Split only if asked.
  const authors = once(() => split(frame.authors));
  const volumeKey = sharedTexts(frame.volumeKeys);
  return {
    id: (row: number) => frame.numbers[row * 2]!,
    volume: (row: number) => frame.numbers[row * 2 + 1]!,
    volumeKey: (row: number) => volumeKey(row) || undefined,
    date: sharedTexts(frame.dates),
    section: sharedTexts(frame.sections),
    document: (row: number): MediaRef => ({ kind: 'local', path: documents[row]! }),
    authors: (row: number): AuthorRef[] => authorsOf(frame, row, authorKeys(), () => authors()[row]!),
  };
}

/** `make`'s value, made on the first call. */
function once<T>(make: () => T): () => T {
  let value: { made: T } | undefined;
  return () => (value ??= { made: make() }).made;
}

/**
 * What loading a file of `frame` gave, by row: its whole entry's, or the skeleton of its record from
 * the columns (kept alone: the Loaded around it is made when asked, and dropped at once). The
 * columns are split on the first call.
 *
 * Restored authors take their keys from `authorKeys` (the authors' frame's, by row), and so do the
 * manuscripts that name them, by the authors' rows (IndexFrame.authorRows): one string per author,
 * not one more per mention, and a manuscript's authors are then found among the authors' keys by
 * the strings themselves (resolve.ts: at 100,000 manuscripts, looking up 250,000 copies costs a
 * fifth of a second after every edit).
 */
function recordRow(
  frame: IndexFrame,
  whole: ReadonlyMap<number, KeptWhole>,
  withHashes: boolean,
  fileNames: () => readonly string[],
  authorKeys: () => readonly string[],
): (row: number) => Loaded | NonNullable<Loaded['record']> {
  let columns:
    | (ReturnType<typeof manuscriptColumns> & {
        titles: string[];
        dois: string[];
        firstPages: string[];
        lastPages: string[];
        license: (row: number) => string;
        modified: (row: number) => string;
      })
    | undefined;
  let people:
    | {
        name: (row: number) => string;
        surname: (row: number) => string;
        institution: (row: number) => string;
        orcids: string[];
        modified: (row: number) => string;
      }
    | undefined;
  return (row) => {
    const kept = whole.get(row);
    if (kept) return kept.loaded;
    if (frame.collection === 'manuscripts')
      columns ??= {
        ...manuscriptColumns(frame, authorKeys),
        titles: frame.titles.split('\n'),
        dois: frame.dois.split('\n'),
        firstPages: frame.firstPages.split('\n'),
        lastPages: frame.lastPages.split('\n'),
        license: sharedTexts(frame.licenses),
        modified: sharedTexts(frame.modified),
      };
    if (frame.collection === 'authors')
      people ??= {
        name: sharedTexts(frame.names),
        surname: sharedTexts(frame.surnames),
        institution: sharedTexts(frame.institutions),
        orcids: frame.orcids.split('\n'),
        modified: sharedTexts(frame.modified),
      };
    const name = fileNames()[row]!;
    // The key from the name, not from the path: slicing the path would flatten it, a string more
    // per record (250,000 after an edit) that lives to the end of the build.
    const file = frame.folder + name;
    // A build keys its outputs by the records' hashes (from what they read: engine/reuse/); a check has no use for them.
    const origin: Origin = {
      file,
      key: people ? authorKeys()[row]! : keyOf(name),
      at: NO_POSITIONS,
      ...(withHashes ? { hash: frame.hashes.slice(row * HASH_LENGTH, (row + 1) * HASH_LENGTH) } : {}),
    };
    const order = frame.orders[row]!;
    // Fields in the order loading gives them (schema order, then origin).
    if (people) {
      const author: AuthorRecord = {
        name: people.name(row),
        surname: people.surname(row),
        institution: people.institution(row),
        ...(Number.isNaN(order) ? {} : { order }),
        ...present('orcid', people.orcids[row]),
        ...present('modified', people.modified(row)),
        origin,
      };
      return author;
    }
    if (!columns) return { origin } as NonNullable<Loaded['record']>;
    const volumeKey = columns.volumeKey(row);
    const slim: SlimManuscript = {
      id: columns.id(row),
      // Resolved from the key at every build (volume-references.ts); NaN until then.
      ...(volumeKey === undefined ? {} : { volume: volumeKey }),
      citation_volume: columns.volume(row),
      citation_title: columns.titles[row]!,
      citation_date: columns.date(row),
      document: columns.document(row),
      authors: columns.authors(row),
      section: columns.section(row),
      ...(Number.isNaN(order) ? {} : { order }),
      ...present('doi', columns.dois[row]),
      ...present('first_page', columns.firstPages[row]),
      ...present('last_page', columns.lastPages[row]),
      ...present('license', columns.license(row)),
      ...present('modified', columns.modified(row)),
      origin,
    };
    return slim as ManuscriptRecord;
  };
}

/** An optional field restored from a column, where '' stands for a record without it. */
function present<K extends string>(field: K, value: string | undefined): { [F in K]?: string } {
  return value ? ({ [field]: value } as { [F in K]: string }) : {};
}

/**
 * A manuscript row's authors: the restored authors' own keys (recordRow) where they have a row, and
 * from the row's texts (`texts`, split only for such a row) the others.
 */
function authorsOf(frame: IndexFrame, row: number, authorKeys: readonly string[], texts: () => string): AuthorRef[] {
  const start = frame.authorStarts[row]!;
  const refs = new Array<AuthorRef>(frame.authorStarts[row + 1]! - start);
  let others: string[] | undefined;
  let other = 0;
  for (let k = 0; k < refs.length; k++) {
    const at = frame.authorRows[start + k]!;
    if (at >= 0) {
      refs[k] = authorKeys[at]!;
      continue;
    }
    const text = (others ??= texts().split('\t'))[other++]!;
    refs[k] = at === AS_PUBLISHED_ROW ? { as_published: text } : text;
  }
  return refs;
}

function align(
  frames: readonly IndexFrame[],
  whole: readonly ReadonlyMap<number, KeptWhole>[],
  rowAt: (frame: number, row: number) => ReturnType<ReturnType<typeof recordRow>>,
  authorKeys: () => readonly string[],
  sources: SourceFiles,
  listed: Discovery['listed'],
  forBuild: boolean,
): AlignedCache {
  // Where each file found is in the index: its frame, and its row there (-1: not in the index).
  const frameOf = new Uint8Array(sources.length);
  const rowOf = new Int32Array(sources.length).fill(-1);
  const stamps = new Float64Array(sources.length * STAMP_FIELDS).fill(Number.NaN);
  let sameAuthors = false;
  for (const collection of COLLECTION_NAMES) {
    const files = sources.range(collection);
    const { start, end } = files;
    const f = frames.findIndex((frame) => frame.collection === collection);
    const frame = frames[f];
    if (frame) {
      frameOf.fill(f, start, end);
      if (sameFiles(frame, listed[collection], files)) {
        if (collection === 'authors') sameAuthors = true;
        // The same files as when the index was written (nearly always): row i is file i, and the
        // stamps are the index's column as it is.
        for (let i = start; i < end; i++) rowOf[i] = i - start;
        stamps.set(frame.stamps, start * STAMP_FIELDS);
      } else if (start < end && files.filePrefix === frame.folder) {
        const rowByName = new Map<string, number>();
        frame.fileNames.split('\0').forEach((name, row) => name && rowByName.set(name, row));
        for (let i = start; i < end; i++) {
          const row = rowByName.get(files.names.at(i - start));
          if (row === undefined) continue;
          rowOf[i] = row;
          stamps.set(frame.stamps.subarray(row * STAMP_FIELDS, (row + 1) * STAMP_FIELDS), i * STAMP_FIELDS);
        }
      }
    }
  }
  const hash = (i: number) => {
    const row = rowOf[i]!;
    if (row < 0) return undefined;
    return (
      whole[frameOf[i]!]!.get(row)?.hash ??
      frames[frameOf[i]!]!.hashes.slice(row * HASH_LENGTH, (row + 1) * HASH_LENGTH)
    );
  };
  const loaded = (i: number): Loaded => {
    const row = rowAt(frameOf[i]!, rowOf[i]!);
    return 'origin' in row ? { record: row, problems: NO_PROBLEMS } : row;
  };
  const inColumns = (i: number) => rowOf[i]! >= 0 && !whole[frameOf[i]!]!.has(rowOf[i]!);
  const manuscripts = frames.findIndex((frame) => frame.collection === 'manuscripts');
  let columns: ReturnType<typeof manuscriptColumns> | undefined;
  const column = () => (columns ??= manuscriptColumns(frames[manuscripts]!, authorKeys));
  return {
    stamps,
    hash,
    loaded,
    inColumns,
    references: {
      // Like the records' (recordRow), without the hash a check has no use for.
      origin: (i) => ({ file: sources.file(i), key: sources.key(i), at: NO_POSITIONS }),
      id: (i) => column().id(rowOf[i]!),
      volume: (i) => column().volume(rowOf[i]!),
      volumeKey: (i) => column().volumeKey(rowOf[i]!),
      date: (i) => column().date(rowOf[i]!),
      authors: (i) => column().authors(rowOf[i]!),
      section: (i) => column().section(rowOf[i]!),
      document: (i) => column().document(rowOf[i]!),
      // The authors' frame comes first (COLLECTION_NAMES): its rows are the positions of the author files found.
      // An author kept as published names no author file: it is no position.
      authorPositions: (i) => {
        if (!sameAuthors) return undefined;
        const frame = frames[manuscripts]!;
        const rows = frame.authorRows.subarray(frame.authorStarts[rowOf[i]!], frame.authorStarts[rowOf[i]! + 1]);
        return rows.includes(AS_PUBLISHED_ROW) ? rows.filter((row) => row !== AS_PUBLISHED_ROW) : rows;
      },
    },
    // A build's manuscripts read their long fields from their files (reread.ts); `check` never does.
    // The record's own hash: a build's records carry it (recordRow, and loading for files kept whole).
    packed: (i): FileBacked | undefined => {
      if (!forBuild || rowOf[i]! < 0 || frames[frameOf[i]!]!.collection !== 'manuscripts') return undefined;
      const known = loaded(i).record?.origin.hash;
      return known === undefined ? undefined : { source: sources.at(i), hash: known };
    },
    entry(i) {
      const known = hash(i);
      if (known === undefined) return undefined;
      const c = i * STAMP_FIELDS;
      const stamp = Number.isNaN(stamps[c])
        ? undefined
        : { size: stamps[c]!, mtimeMs: stamps[c + 1]!, ino: stamps[c + 2]! };
      return { file: sources.file(i), hash: known, loaded: loaded(i), ...(stamp ? { stamp } : {}) };
    },
  };
}

/**
 * Whether `frame` holds a collection's `files`: at once when the folder's listing was all files
 * (`listed`, one string comparison), else name by name, compared in place (joining 250,000 names to
 * compare them cost as much as the rest of the load stage's comparison).
 */
function sameFiles(frame: IndexFrame, listed: string | undefined, files: CollectionFiles): boolean {
  if (files.names.length === 0) return frame.fileNames === '';
  // One collection's files are all in its folder.
  if (files.filePrefix !== frame.folder) return false;
  if (listed !== undefined) return listed === frame.fileNames;
  return isJoined(frame.fileNames, files.names.all(), '\0');
}
