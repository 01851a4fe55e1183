/**
 * Stages 2 and 3 for the whole journal (issue 4): every content file through `runLoadJob`, on
 * worker threads when the journal is large, with the build cache's results for files that did
 * not change. Records and problems come out in discovery (sorted path) order, whatever order the
 * workers finished in, and the cache entries for the next build come out alongside.
 */
import type { RecordEntry } from './cache.ts';
import type { Discovery } from './discover.ts';
import { sameOptionalStamp, sameStamp, trustedStamp, type LoadJob, type LoadResult } from './load-job.ts';
import type { Loaded, Records } from './load.ts';
import type { Problem } from './problems.ts';
import type { Progress } from './progress.ts';
import { createUnpacker, type SlimManuscript } from './packed-manuscript.ts';
import { COLLECTION_NAMES } from './schema.ts';
import { runLoadJobs } from './workers.ts';

export interface LoadedContent {
  records: Records;
  problems: Problem[];
  /** The cache entries for every file found, in discovery order. */
  entries: RecordEntry[];
  /** Files read and parsed (the rest came from the cache). */
  parsed: number;
  /** How many entries differ from the cache that was passed in (new, edited, touched or deleted files). */
  stale: number;
}

export interface LoadOptions {
  /** Worker threads (workers.ts). */
  threads?: number | undefined;
  /**
   * Keep each repeated text once (shareTexts). Worth it for records a build keeps to the end; `check`
   * drops its records after the reference checks, and interning them would cost more than it saves.
   */
  shareTexts?: boolean;
}

export async function loadContent(found: Discovery, cached: Pick<ReadonlyMap<string, RecordEntry>, 'get' | 'size'>, progress: Progress, options: LoadOptions = {}): Promise<LoadedContent> {
  const { threads, shareTexts: share = true } = options;
  const sources = COLLECTION_NAMES.flatMap((collection) => found.files[collection]);
  // Each file's cache entry is looked up once: the check index builds an entry when asked (check-index.ts).
  const previous = sources.map((source) => cached.get(source.file));
  const entries: RecordEntry[] = new Array(sources.length);
  let parsed = 0;
  let stale = Math.abs(cached.size - sources.length);
  const stage = progress.stage('load', sources.length);
  // The fast path on this thread: a file whose stamp matches the cache is not sent anywhere.
  // Only the rest (new, edited or touched files) go to the workers, so an edit starts none.
  const now = Date.now();
  const rest: LoadJob[] = [];
  const known: number[] = [];
  sources.forEach((source, index) => {
    const entry = previous[index];
    if (entry?.stamp) known.push(index);
    else rest.push({ index, source, ...(entry ? { cached: { hash: entry.hash } } : {}) });
  });
  const intern = createInterner();
  known.forEach((index) => {
    const entry = previous[index]!;
    // Stamped when its folder was listed (discover.ts). A stamp too recent to trust (load-job.ts)
    // is no match: such a file is hashed again.
    const stamp = trustedStamp(found.stats.stamp(index), now);
    if (stamp && sameStamp(stamp, entry.stamp!)) {
      if (share && entry.loaded.record) shareTexts(entry.loaded.record, intern);
      entries[index] = entry;
    } else rest.push({ index, source: sources[index]!, cached: { hash: entry.hash, stamp: entry.stamp! } });
  });
  stage.advance(sources.length - rest.length);
  const onResults = (results: LoadResult[]) => {
    for (const result of results) {
      const file = sources[result.index]!.file;
      if (result.kind === 'unchanged') {
        // Touched, same bytes: the cached result stands, with the new stamp.
        const entry = previous[result.index]!;
        if (!sameOptionalStamp(entry.stamp, result.stamp)) stale++;
        entries[result.index] = { file, hash: entry.hash, loaded: entry.loaded, ...(entry.packed ? { packed: entry.packed } : {}), ...(result.stamp ? { stamp: result.stamp } : {}) };
      } else {
        parsed++;
        stale++;
        if (share && result.loaded.record) shareTexts(result.loaded.record, intern);
        entries[result.index] = { file, hash: result.hash, loaded: result.loaded, ...(result.packed ? { packed: result.packed } : {}), ...(result.stamp ? { stamp: result.stamp } : {}) };
      }
    }
    stage.advance(results.length);
  };
  await runLoadJobs(rest, { ...(threads === undefined ? {} : { threads }), onResults });
  stage.done();

  const records: Records = { authors: [], volumes: [], manuscripts: [], invalid: [] };
  const problems: Problem[] = [];
  const unpacker = createUnpacker();
  sources.forEach((source, index) => {
    const { loaded, packed } = entries[index]!;
    problems.push(...loaded.problems);
    if (loaded.invalid) records.invalid.push(loaded.invalid);
    if (loaded.record && packed) {
      const manuscript = unpacker(loaded.record as SlimManuscript, packed);
      // The cache entry keeps the same object (its own fields are the slim part, which is what the
      // record cache stores), so the slim copy is not held twice while the caches are written.
      loaded.record = manuscript;
      records.manuscripts.push(manuscript);
    } else if (loaded.record) (records[source.collection] as unknown[]).push(loaded.record);
  });
  return { records, problems, entries, parsed, stale };
}

/**
 * Records arrive from the workers, or from the build cache, each with its own copy of every text.
 * The texts that repeat across records (institutions, first names, sections, dates, the author
 * keys that manuscripts name) are kept once: at 150,000 authors and 100,000 manuscripts that is
 * tens of MB (issue 4).
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
  for (const field of SHARED_FIELDS) if (typeof fields[field] === 'string') fields[field] = intern(fields[field] as string);
  const authors = fields['authors'];
  if (Array.isArray(authors)) authors.forEach((key, i) => typeof key === 'string' && (authors[i] = intern(key)));
}
const SHARED_FIELDS = ['institution', 'name', 'section', 'citation_date'] as const;
