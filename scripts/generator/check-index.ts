/**
 * The check index (issue 4: `check` after one edit at 100,000 manuscripts, from 7.8 s to about 3 s,
 * then about 2 s once it was compared by columns and the files stamped in one pass, content-scan.ts).
 *
 * `check` needs far less of an unchanged file than `build` does: its stamp and content hash, and the
 * few fields that other records' checks read (a manuscript's id, volume, authors, section and PDF;
 * an author only exists). The record cache holds whole records (320 MB at 100,000 manuscripts,
 * 1.7 s to read, and far more objects to collect); this index holds those few fields, in columns
 * (40 MB, read in 0.1 s, its 250,000 skeletons made in 0.15 s). Files that do not fit the columns (volumes, invalid files, files with problems,
 * manuscripts with authors kept as published or a remote PDF) are kept whole: there are few.
 *
 * Like valid records (load.ts), records restored from the index carry no positions: a problem found
 * in one (an unchanged manuscript that names an author just deleted) is located afterwards by reading
 * its file again (`locateProblems`), which costs one parse per file with a problem, and nothing otherwise.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { hasFrames, readFrames, writeFrames, type RecordEntry } from './cache.ts';
import type { Discovery, SourceFile } from './discover.ts';
import { STAMP_FIELDS, type AlignedCache, type LoadCache } from './load-all.ts';
import { UNLOCATED, type Loaded, type ManuscriptRecord, type Origin } from './load.ts';
import { parseFile } from './parse.ts';
import type { Problem } from './problems.ts';
import { COLLECTION_NAMES, type CollectionName } from './schema.ts';

const INDEX_FILE = 'check-index.bin';
/** A SHA-1 in base64url (load-job.ts, contentHash) is always this long. */
const HASH_LENGTH = 27;

/** One collection's files, in discovery order. */
interface IndexFrame {
  collection: CollectionName;
  /** The files' paths, joined by newlines (a path never holds one: discover.ts, RECORD_KEY). */
  files: string;
  /** size, mtimeMs, ino per file; NaN where the stamp was too recent to trust. */
  stamps: Float64Array;
  /** The content hashes, HASH_LENGTH characters each (blank for a file kept whole). */
  hashes: string;
  /** For manuscripts in the columns: id, citation_volume; NaN for a file kept whole. */
  numbers: Float64Array;
  /** For manuscripts in the columns, newline-joined: section, the PDF's path, the author keys (tab-joined). */
  sections: string;
  documents: string;
  authors: string;
  /** Files kept whole, by position: their hash and what loading them gave. */
  whole: [number, string, Loaded][];
}

/** A manuscript as far as `check` reads it (resolve.ts, checkReferences; media.ts). */
type ManuscriptSkeleton = Pick<ManuscriptRecord, 'id' | 'citation_volume' | 'authors' | 'section' | 'document' | 'origin'>;

/** Whether an index of this fingerprint is there (a build, which never reads it, only keeps it up to date). */
export function hasCheckIndex(dir: string, fingerprint: string): boolean {
  return hasFrames(path.join(dir, INDEX_FILE), fingerprint);
}

/**
 * Records restored from the index keep no positions (locateProblems finds them): one empty object
 * for all of them, not one each.
 */
const NO_POSITIONS: Origin['at'] = Object.freeze({});
const NO_PROBLEMS = Object.freeze([]) as unknown as Problem[];

/**
 * The index as the load stage reads a cache (load-all.ts): lined up with the files found, its stamps
 * as columns, and what loading each file gave: no entry, stamp or hash object per file (issue 4).
 * The records' skeletons are made here, at once: a check reads the index while the content folders
 * are being listed and stamped (content-scan.ts), and needs every skeleton but the edited files'.
 */
export function readCheckIndex(dir: string, fingerprint: string): LoadCache | undefined {
  const frames = readFrames<IndexFrame>(path.join(dir, INDEX_FILE), fingerprint);
  if (!frames) return undefined;
  const rows = frames.map(recordRows);
  return { size: frames.reduce((sum, frame) => sum + frame.stamps.length / STAMP_FIELDS, 0), align: (sources) => align(frames, rows, sources) };
}

/**
 * What loading each file of `frame` gave: its whole entry's, or the skeleton of its record from the
 * columns (kept alone: the Loaded around it is made when asked, and dropped at once).
 */
function recordRows(frame: IndexFrame): (Loaded | NonNullable<Loaded['record']>)[] {
  const whole = new Map(frame.whole.map(([row, , loaded]) => [row, loaded]));
  const files = frame.files === '' ? [] : frame.files.split('\n');
  const columns = frame.collection === 'manuscripts'
    ? { sections: frame.sections.split('\n'), documents: frame.documents.split('\n'), authors: frame.authors.split('\n') }
    : undefined;
  return files.map((file, row) => {
    const kept = whole.get(row);
    if (kept) return kept;
    const origin: Origin = { file, key: file.slice(file.lastIndexOf('/') + 1, file.lastIndexOf('.')), at: NO_POSITIONS };
    if (!columns) return { origin } as NonNullable<Loaded['record']>;
    const authors = columns.authors[row]!;
    const skeleton: ManuscriptSkeleton = {
      id: frame.numbers[row * 2]!,
      citation_volume: frame.numbers[row * 2 + 1]!,
      section: columns.sections[row]!,
      document: { kind: 'local', path: columns.documents[row]! },
      authors: authors === '' ? [] : authors.split('\t'),
      origin,
    };
    return skeleton as ManuscriptRecord;
  });
}

function align(frames: readonly IndexFrame[], rows: readonly ReturnType<typeof recordRows>[], sources: readonly SourceFile[]): AlignedCache {
  // Where each file found is in the index: its frame, and its row there (-1: not in the index).
  const frameOf = new Uint8Array(sources.length);
  const rowOf = new Int32Array(sources.length).fill(-1);
  const stamps = new Float64Array(sources.length * STAMP_FIELDS).fill(Number.NaN);
  let start = 0;
  for (const collection of COLLECTION_NAMES) {
    let end = start;
    while (end < sources.length && sources[end]!.collection === collection) end++;
    const f = frames.findIndex((frame) => frame.collection === collection);
    const frame = frames[f];
    if (frame) {
      frameOf.fill(f, start, end);
      const files = sources.slice(start, end).map((source) => source.file).join('\n');
      if (files === frame.files) {
        // The same files as when the index was written (nearly always): row i is file i, and the
        // stamps are the index's column as it is.
        for (let i = start; i < end; i++) rowOf[i] = i - start;
        stamps.set(frame.stamps, start * STAMP_FIELDS);
      } else {
        const rowByFile = new Map<string, number>();
        frame.files.split('\n').forEach((file, row) => file && rowByFile.set(file, row));
        for (let i = start; i < end; i++) {
          const row = rowByFile.get(sources[i]!.file);
          if (row === undefined) continue;
          rowOf[i] = row;
          stamps.set(frame.stamps.subarray(row * STAMP_FIELDS, (row + 1) * STAMP_FIELDS), i * STAMP_FIELDS);
        }
      }
    }
    start = end;
  }
  const whole = frames.map((frame) => new Map(frame.whole.map(([row, hash, loaded]) => [row, [hash, loaded] as const])));
  const hash = (i: number) => {
    const row = rowOf[i]!;
    if (row < 0) return undefined;
    const kept = whole[frameOf[i]!]!.get(row);
    return kept ? kept[0] : frames[frameOf[i]!]!.hashes.slice(row * HASH_LENGTH, (row + 1) * HASH_LENGTH);
  };
  const loaded = (i: number): Loaded => {
    const row = rows[frameOf[i]!]![rowOf[i]!]!;
    return 'origin' in row ? { record: row, problems: NO_PROBLEMS } : row;
  };
  return {
    stamps,
    hash,
    loaded,
    packed: () => undefined,
    entry(i) {
      const known = hash(i);
      if (known === undefined) return undefined;
      const c = i * STAMP_FIELDS;
      const stamp = Number.isNaN(stamps[c]) ? undefined : { size: stamps[c]!, mtimeMs: stamps[c + 1]!, ino: stamps[c + 2]! };
      return { file: sources[i]!.file, hash: known, loaded: loaded(i), ...(stamp ? { stamp } : {}) };
    },
  };
}

/** Writes the index of `entries` (the load stage's, in discovery order; whole records or skeletons). */
export function writeCheckIndex(dir: string, fingerprint: string, found: Discovery, entries: readonly RecordEntry[]): void {
  const frames: IndexFrame[] = [];
  let offset = 0;
  for (const collection of COLLECTION_NAMES) {
    const count = found.files[collection].length;
    frames.push(indexFrame(collection, entries.slice(offset, offset + count)));
    offset += count;
  }
  writeFrames(dir, INDEX_FILE, fingerprint, frames);
}

function indexFrame(collection: CollectionName, entries: readonly RecordEntry[]): IndexFrame {
  const files: string[] = [];
  const hashes: string[] = [];
  const stamps = new Float64Array(entries.length * 3).fill(Number.NaN);
  const numbers = new Float64Array(entries.length * 2).fill(Number.NaN);
  const sections: string[] = [];
  const documents: string[] = [];
  const authors: string[] = [];
  const whole: IndexFrame['whole'] = [];
  entries.forEach((entry, i) => {
    files.push(entry.file);
    if (entry.stamp) stamps.set([entry.stamp.size, entry.stamp.mtimeMs, entry.stamp.ino], i * 3);
    const record = entry.loaded.record;
    const inColumns = entry.hash.length === HASH_LENGTH && record && entry.loaded.problems.length === 0 && !entry.loaded.invalid
      && (collection === 'authors' || (collection === 'manuscripts' && fitsColumns(record as ManuscriptRecord)));
    hashes.push(inColumns ? entry.hash : ' '.repeat(HASH_LENGTH));
    sections.push('');
    documents.push('');
    authors.push('');
    if (!inColumns) {
      whole.push([i, entry.hash, entry.loaded]);
    } else if (collection === 'manuscripts') {
      const manuscript = record as ManuscriptRecord;
      numbers[i * 2] = manuscript.id;
      numbers[i * 2 + 1] = manuscript.citation_volume;
      sections[i] = manuscript.section;
      documents[i] = (manuscript.document as { path: string }).path;
      authors[i] = (manuscript.authors as string[]).join('\t');
    }
  });
  return { collection, files: files.join('\n'), stamps, hashes: hashes.join(''), numbers, sections: sections.join('\n'), documents: documents.join('\n'), authors: authors.join('\n'), whole };
}

/** Whether the columns can hold a manuscript exactly: local PDF, author keys only, one-line texts. */
function fitsColumns(manuscript: ManuscriptRecord): boolean {
  return manuscript.document.kind === 'local' && !/[\n\t]/.test(manuscript.document.path) && !/\n/.test(manuscript.section)
    && manuscript.authors.every((key) => typeof key === 'string');
}

/**
 * Gives each problem found in a record restored from the index the line and column it would have had
 * (`UNLOCATED` until then): the file is parsed again, once, and the field looked up as `load.ts` does.
 */
export async function locateProblems(problems: Problem[], projectRoot: string): Promise<void> {
  const unlocated = new Map<string, Problem[]>();
  for (const problem of problems) {
    if (problem.line !== UNLOCATED.line) continue;
    const list = unlocated.get(problem.file);
    if (list) list.push(problem);
    else unlocated.set(problem.file, [problem]);
  }
  for (const [file, list] of unlocated) {
    const bytes = await readFile(path.join(projectRoot, file)).catch(() => undefined);
    const parsed = bytes ? parseFile(file, bytes).parsed : undefined;
    for (const problem of list) {
      const position = parsed ? parsed.locate(fieldPath(problem.field)) : { line: 0, column: 0 };
      problem.line = position.line;
      problem.column = position.column;
    }
  }
}

/** `authors[2]` → `['authors', 2]` (validate.ts, fieldName, the other way round). */
function fieldPath(field: string): (string | number)[] {
  const steps: (string | number)[] = [];
  for (const match of field.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) steps.push(match[2] !== undefined ? Number(match[2]) : match[1]!);
  return steps;
}

