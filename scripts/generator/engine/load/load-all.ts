/**
 * Stages 2 and 3 for the whole journal: every content file through `runLoadJob`, on
 * worker threads when the journal is large, with the build cache's results for files that did
 * not change. Records and problems come out in discovery (sorted path) order, whatever order the
 * workers finished in, and the cache entries for the next build come out alongside.
 */
import { appendAll } from '../../../shared/append-all.ts';
import type { RecordEntry } from '../cache/cache.ts';
import type { Discovery, SourceFiles } from '../../stages/discover.ts';
import { isTrusted, sameOptionalStamp, type LoadJob, type LoadResult } from './load-job.ts';
import { STAT_FIELDS } from '../scan/stat-many.ts';
import type { InvalidRecord, Loaded, Records } from '../../stages/load.ts';
import type { ManuscriptRecord, VolumeRecord } from '../../model/records.ts';
import { referencesOf, statedVolume, type CheckedRecords, type ManuscriptReferences } from '../../stages/resolve.ts';
import type { Problem } from '../../model/problems.ts';
import type { Progress } from '../../progress.ts';
import { createUnpacker, type PackedSource, type SlimManuscript } from './packed-manuscript.ts';
import { rereadManuscript } from './reread.ts';
import { SetAsideFile } from './set-aside.ts';
import { COLLECTION_NAMES, type CollectionName } from '../../model/schema.ts';
import { runLoadJobs } from './workers.ts';

export interface LoadedContent {
  /** Every record (restore: 'records'). */
  records?: Records;
  /** What the checks across records read (resolve.ts). */
  checked: CheckedRecords;
  problems: Problem[];
  /** Files found. */
  files: number;
  /**
   * The cache entries for every file found, in discovery order: made when asked (only when the
   * caches are rewritten), since the check index makes an entry for each file it is asked for.
   */
  entries(): RecordEntry[];
  /** Files read and parsed (the rest came from the cache). */
  parsed: number;
  /** How many entries differ from the cache that was passed in (new, edited, touched or deleted files). */
  stale: number;
}

/** A build cache as the load stage reads it: the check index (check-index.ts), or noCache. */
export interface LoadCache {
  /** Files the cache knows. */
  size: number;
  /** A collection's files as the cache knows them, their names NUL-joined (discover.ts, `known`). */
  fileNames(collection: CollectionName): string | undefined;
  /** The cache lined up with the files found: file `i` of `sources` is entry `i` (`listed`: discover.ts). */
  align(sources: SourceFiles, listed: Discovery['listed']): AlignedCache;
}

export interface AlignedCache {
  /**
   * The cached stamps in columns, STAMP_FIELDS numbers per file (size, mtimeMs, ino); NaN for a
   * file the cache has no stamp of: the fast path compares them with discovery's without an object per file.
   */
  stamps: Float64Array;
  /** The content hash the cache holds for file `i`, if it knows the file. */
  hash(i: number): string | undefined;
  /** What loading file `i` gave (only asked of files the cache knows). */
  loaded(i: number): Loaded;
  packed(i: number): PackedSource | undefined;
  /** File `i`'s whole entry, if the cache knows the file. */
  entry(i: number): RecordEntry | undefined;
  /** Whether file `i` comes back from the cache's columns: a valid author or manuscript (check-index.ts). */
  inColumns(i: number): boolean;
  /** What the checks read of manuscript file `i` when it is in the columns: `check` reads these, not its record. */
  references: Omit<ManuscriptReferences, 'length' | 'allAuthorsKnown'> & {
    /**
     * The authors manuscript file `i` names, as positions among the author files found (-1: no file
     * had the key), while those are the author files the cache was written with; else undefined.
     */
    authorPositions(i: number): Int32Array | undefined;
  };
}

export const STAMP_FIELDS = 3;

/** No cache: every file is loaded (a cold build, `--no-cache`, or a cache of other code or settings). */
export const noCache: LoadCache = {
  size: 0,
  fileNames: () => undefined,
  align: (sources) => ({
    stamps: new Float64Array(sources.length * STAMP_FIELDS).fill(Number.NaN),
    hash: () => undefined,
    loaded: () => {
      throw new Error('no cache: every file is loaded');
    },
    packed: () => undefined,
    entry: () => undefined,
    inColumns: () => false,
    references: {
      origin: noColumns,
      id: noColumns,
      volume: noColumns,
      volumeKey: noColumns,
      date: noColumns,
      authors: noColumns,
      section: noColumns,
      document: noColumns,
      authorPositions: noColumns,
    },
  }),
};

function noColumns(): never {
  throw new Error('no cache: no file is in its columns');
}

export interface LoadOptions {
  /** Worker threads (workers.ts). */
  threads?: number | undefined;
  /**
   * `records`: every file's record, each repeated text kept once (shareTexts), as a build needs them.
   * `checks`: only what the checks across records read (`check`): the files that the cache holds in
   * its columns make no record at all (250,000 records and their garbage collection at 100,000 manuscripts).
   */
  restore?: 'records' | 'checks';
  /**
   * Where the manuscripts' long fields are set aside (set-aside.ts) when at least `from` manuscript
   * files are loaded; they are kept in memory otherwise.
   */
  setAside?: { dir: string; from: number } | undefined;
}

export async function loadContent(
  found: Discovery,
  cache: LoadCache,
  progress: Progress,
  options: LoadOptions = {},
): Promise<LoadedContent> {
  const { threads, restore = 'records' } = options;
  const sources = found.files;
  const cached = cache.align(sources, found.listed);
  // Entries of the files loaded again (or touched): every other file is as the cache has it.
  const fresh = new Map<number, RecordEntry>();
  // The files new or edited since the cache was written (which of two records sharing an id is
  // the new one: repeated-ids.ts); unknown without a cache.
  const changedFiles = cache.size > 0 ? new Set<string>() : undefined;
  let parsed = 0;
  let stale = Math.abs(cache.size - sources.length);
  const stage = progress.stage('load', sources.length);
  // The fast path on this thread: a file whose stamp (taken by discovery) matches the cache's is
  // not sent anywhere, and is compared as numbers, without an object per file (250,000 files
  // at 100,000 manuscripts). Only the rest (new, edited or touched files) go to the workers,
  // so an edit starts none. A stamp too recent to trust (load-job.ts) is no match: such a file is hashed again.
  const now = Date.now();
  const rest: LoadJob[] = [];
  const { stamps } = cached;
  const stats = found.stats.values;
  for (let i = 0; i < sources.length; i++) {
    const c = i * STAMP_FIELDS;
    const f = i * STAT_FIELDS;
    const known = !Number.isNaN(stamps[c]!);
    if (
      known &&
      stats[f] !== 0 &&
      isTrusted(stats[f + 2]!, now) &&
      stats[f + 1] === stamps[c] &&
      stats[f + 2] === stamps[c + 1] &&
      stats[f + 3] === stamps[c + 2]
    )
      continue;
    const hash = cached.hash(i);
    rest.push({
      index: i,
      source: sources.at(i),
      ...(hash === undefined
        ? {}
        : {
            cached: {
              hash,
              ...(known ? { stamp: { size: stamps[c]!, mtimeMs: stamps[c + 1]!, ino: stamps[c + 2]! } } : {}),
            },
          }),
      ...(stats[f] === 0 ? {} : { scanned: { size: stats[f + 1]!, mtimeMs: stats[f + 2]!, ino: stats[f + 3]! } }),
    });
  }
  stage.advance(sources.length - rest.length);
  const setAside = restore === 'records' ? setAsideFile(options.setAside, sources, rest) : undefined;
  const onResults = (results: LoadResult[]) => {
    for (const result of results) {
      const file = sources.file(result.index);
      if (result.kind === 'unchanged') {
        // Touched, same bytes: the cached result stands, with the new stamp.
        const entry = cached.entry(result.index)!;
        if (!sameOptionalStamp(entry.stamp, result.stamp)) stale++;
        fresh.set(result.index, {
          file,
          hash: entry.hash,
          loaded: entry.loaded,
          ...(entry.packed ? { packed: entry.packed } : {}),
          ...(result.stamp ? { stamp: result.stamp } : {}),
        });
      } else {
        parsed++;
        stale++;
        changedFiles?.add(file);
        fresh.set(result.index, {
          file,
          hash: result.hash,
          loaded: result.loaded,
          ...(result.packed ? { packed: setAside ? setAside.keep(result.packed) : result.packed } : {}),
          ...(result.stamp ? { stamp: result.stamp } : {}),
        });
      }
    }
    stage.advance(results.length);
  };
  await runLoadJobs(rest, { ...(threads === undefined ? {} : { threads }), onResults });
  stage.done();

  const problems: Problem[] = [];
  const loadedAt = (index: number): Loaded => fresh.get(index)?.loaded ?? cached.loaded(index);
  let records: Records | undefined;
  let checked: CheckedRecords;
  if (restore === 'records') {
    records = recordsOf(sources, fresh, cached, problems);
    checked = referencesOf(records);
  } else {
    checked = checkedOf(
      sources,
      (index) => (fresh.has(index) || !cached.inColumns(index) ? loadedAt(index) : undefined),
      cached.references,
      problems,
    );
  }
  if (changedFiles) checked.changedFiles = changedFiles;
  const entries = () => Array.from({ length: sources.length }, (_, index) => fresh.get(index) ?? cached.entry(index)!);
  return { ...(records ? { records } : {}), checked, problems, files: sources.length, entries, parsed, stale };
}

/** The file a load's long fields are set aside in, when enough manuscripts are loaded for it to pay off. */
function setAsideFile(
  where: LoadOptions['setAside'],
  sources: SourceFiles,
  loading: readonly LoadJob[],
): SetAsideFile | undefined {
  if (!where) return undefined;
  let manuscripts = 0;
  for (const job of loading) if (sources.collection(job.index) === 'manuscripts') manuscripts++;
  return manuscripts >= where.from ? SetAsideFile.open(where.dir) : undefined;
}

/** Every file's record in discovery order, each repeated text kept once (a build keeps them to its end). */
function recordsOf(
  sources: SourceFiles,
  fresh: ReadonlyMap<number, RecordEntry>,
  cached: AlignedCache,
  problems: Problem[],
): Records {
  const records: Records = { authors: [], volumes: [], manuscripts: [], invalid: [] };
  const unpacker = createUnpacker(rereadManuscript);
  const intern = createInterner();
  for (let index = 0; index < sources.length; index++) {
    const entry = fresh.get(index);
    const loaded = entry ? entry.loaded : cached.loaded(index);
    // A file touched but unchanged keeps the cache's long fields (a record from the check index has them in its file).
    const packed = entry?.packed ?? cached.packed(index);
    // Records from the index share their repeated texts already (check-index.ts, SharedColumn).
    if (entry && loaded.record) shareTexts(loaded.record, intern);
    if (loaded.problems.length > 0) appendAll(problems, loaded.problems);
    if (loaded.invalid) records.invalid.push(loaded.invalid);
    if (loaded.record && packed) {
      const manuscript = unpacker(loaded.record as SlimManuscript, packed);
      // The cache entry keeps the same object (its own fields are the slim part, which is what the
      // check index reads), so the slim copy is not held twice while the caches are written.
      loaded.record = manuscript;
      records.manuscripts.push(manuscript);
    } else if (loaded.record) (records[sources.collection(index)] as unknown[]).push(loaded.record);
  }
  return records;
}

/**
 * What the checks read, with no record for a file the cache holds in its columns (`loadedAt` gives
 * nothing for those): an author is its position among the files found, a manuscript its row in the
 * columns. The order is the one referencesOf gives a build's records, so both report the same
 * problems, in the same words.
 */
function checkedOf(
  sources: SourceFiles,
  loadedAt: (index: number) => Loaded | undefined,
  columns: AlignedCache['references'],
  problems: Problem[],
): CheckedRecords {
  const volumes: VolumeRecord[] = [];
  const invalid: InvalidRecord[] = [];
  const manuscripts: ManuscriptRecord[] = [];
  // Whether file `index` is an author, valid or invalid: a key that exists (the authors come first,
  // so an author's index is its position among the author files, as the cache's authorPositions give).
  const authorExists = new Uint8Array(sources.length);
  // The valid authors' positions, then the invalid ones': their keys are made only if asked for (a suggestion).
  const validAuthors: number[] = [];
  const invalidAuthors: number[] = [];
  // Each valid manuscript, in discovery order: its file's index when it is in the columns, or -1 - its place in `manuscripts`.
  const positions: number[] = [];
  for (const collection of COLLECTION_NAMES) {
    const { start, end } = sources.range(collection);
    for (let index = start; index < end; index++) {
      const loaded = loadedAt(index);
      if (!loaded) {
        if (collection === 'authors') {
          validAuthors.push(index);
          authorExists[index] = 1;
        } else positions.push(index);
        continue;
      }
      if (loaded.problems.length > 0) appendAll(problems, loaded.problems);
      if (loaded.invalid) {
        invalid.push(loaded.invalid);
        if (collection === 'authors') {
          invalidAuthors.push(index);
          authorExists[index] = 1;
        }
      }
      const record = loaded.record;
      if (!record) continue;
      if (collection === 'authors') {
        validAuthors.push(index);
        authorExists[index] = 1;
      } else if (collection === 'volumes') {
        volumes.push(record as VolumeRecord);
      } else {
        positions.push(-1 - (manuscripts.push(record as ManuscriptRecord) - 1));
      }
    }
  }
  const from =
    <T>(fromRecord: (record: ManuscriptRecord) => T, fromColumns: (index: number) => T) =>
    (i: number): T => {
      const at = positions[i]!;
      return at < 0 ? fromRecord(manuscripts[-1 - at]!) : fromColumns(at);
    };
  let authorKeys: string[] | undefined;
  return {
    get authorKeys() {
      return (authorKeys ??= [...validAuthors, ...invalidAuthors].map((index) => sources.key(index)));
    },
    hasAuthor: (key) => {
      const index = sources.indexOfKey('authors', key);
      return index >= 0 && authorExists[index] === 1;
    },
    authors: validAuthors.length,
    volumes,
    manuscripts: {
      length: positions.length,
      origin: from((m) => m.origin, columns.origin),
      id: from((m) => m.id, columns.id),
      volume: from(statedVolume, columns.volume),
      volumeKey: from((m) => m.volume, columns.volumeKey),
      date: from((m) => m.citation_date, columns.date),
      authors: from((m) => m.authors, columns.authors),
      section: from((m) => m.section, columns.section),
      document: from((m) => m.document, columns.document),
      allAuthorsKnown: (i) => {
        const at = positions[i]!;
        const named = at < 0 ? undefined : columns.authorPositions(at);
        if (!named) return false;
        for (const position of named) if (position < 0 || authorExists[position] === 0) return false;
        return true;
      },
    },
    invalid,
  };
}

/**
 * Records arrive from the workers each with its own copy of every text (those restored from the
 * check index share theirs already). The texts that repeat across records (institutions, first
 * names, sections, dates, the author keys that manuscripts name) are kept once: at 150,000 authors
 * and 100,000 manuscripts that is tens of MB.
 */
function createInterner(): (text: string) => string {
  const known = new Map<string, string>();
  return (text) => {
    const existing = known.get(text);
    if (existing !== undefined) return existing;
    known.set(text, text);
    return text;
  };
}

function shareTexts(record: NonNullable<Loaded['record']>, intern: (text: string) => string): void {
  const fields = record as unknown as Record<string, unknown>;
  for (const field of SHARED_FIELDS)
    if (typeof fields[field] === 'string') fields[field] = intern(fields[field] as string);
  const authors = fields['authors'];
  if (Array.isArray(authors)) authors.forEach((key, i) => typeof key === 'string' && (authors[i] = intern(key)));
}
const SHARED_FIELDS = ['institution', 'name', 'section', 'citation_date'] as const;
