/**
 * The site search's index (docs/search.md): Pagefind's files under `dist/pagefind/`, made from the
 * manuscripts themselves, one record each (its title, authors, keywords and abstract as plain text,
 * in its own language), rather than by crawling the written pages: the records are in memory
 * already, and a page's frame (header, footer, citation links) is not what a reader searches.
 *
 * Pagefind has no incremental index: a record added to an index cannot be changed or taken out, and
 * `getFiles` writes the whole index again. So the manuscripts are indexed in shards (by id, a fixed
 * number a shard), each an index of its own that the search box merges, and each shard is made
 * whole, or the previous output's is taken as it is. Two keys a shard decide, kept in the build
 * cache: one over its records' content hashes (unchanged: nothing it holds changed, and no abstract
 * is read), one over the text it indexes (unchanged: an edit touched no searched field, as a
 * manuscript's date or PDF). The previous files are taken only when each still has the bytes it
 * was written with: kept in place, unread, when it has the stamp it was written with (as the write
 * stage trusts any file of the previous output), else read and compared with its digest.
 *
 * Each file is keyed by its digest (OutputFile.key), as the OAI-PMH index's chunks are: the write
 * stage leaves a file of the previous output whose key and stamp are unchanged where it is, and
 * asks for the bytes only of the others.
 *
 * Pagefind's output is the same for the same records in the same order (its files are named by
 * their content's hash), so a cold build and a reused index give the same bytes.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { OutputFile } from '../../../shared/output-file.ts';
import { Stopped } from '../../../shared/stopped.ts';
import type { ManuscriptRecord } from '../../model/records.ts';
import { richTextToPlain } from '../../model/rich-text.ts';
import { keywordList, languageCode, pageAuthors } from '../../render/page-metadata.ts';
import { manuscriptPagePath } from '../../render/page-paths.ts';
import { titleToPlain } from '../../render/title-text.ts';
import type { Progress, ProgressStage } from '../../progress.ts';
import type { ResolvedJournal } from '../../stages/resolve.ts';
import { readFrames, writeFrames, type CacheWarning } from '../cache/cache.ts';
import type { OutputRows } from '../cache/output-rows.ts';
import type { Scan } from '../scan/stat-many.ts';
import { pagefindBundles } from './pagefind-bundles.ts';
import {
  fileDigest,
  keeper,
  keyOf,
  previousFilesIn,
  stampsFrom,
  takePrevious,
  type IndexKeys,
  type Keep,
} from './previous-index.ts';

/** Where the index is, relative to the output folder; the pages' script loads it from `/pagefind/`. */
export const SEARCH_FOLDER = 'pagefind/';

const KEYS_FILE = 'search-index.bin';

/**
 * The most manuscripts one shard of the index holds: Pagefind holds a whole index in memory while it
 * makes it, and writes it whole again after one edit, so the manuscripts are indexed in shards of
 * this many, one after another, each by a service process of its own. Measured on 10,000
 * manuscripts with long abstracts (docs/performance.md). `JOURNAL_SEARCH_SHARD_SIZE` lowers it for
 * the tests alone, whose journals are small.
 */
const SHARD_SIZE = 2500;

function shardSize(): number {
  const asked = Number(process.env['JOURNAL_SEARCH_SHARD_SIZE']);
  return Number.isInteger(asked) && asked > 0 ? asked : SHARD_SIZE;
}

/** What is indexed of a manuscript: what a reader searches by, and what a result shows. */
interface SearchRecord {
  url: string;
  content: string;
  language: string;
  meta: { title: string; authors: string; volume: string };
}

export interface SearchIndexOptions {
  outDir: string;
  cacheDir: string;
  fingerprint: string;
  /** `false`: the previous output's index is not taken (as the rest of the output is not). */
  reuse: boolean;
  /**
   * The output folder's listing when the build started (content-scan.ts): a previous index file
   * with the stamp it was written with is kept unread. Without it, each one is read and compared.
   */
  listed?: Scan;
  /** Shows Pagefind's work as the `search` stage, when it runs. */
  progress: Progress;
}

export interface SearchIndex {
  /** The index's files, to write with the rest of the output. */
  files(): Promise<OutputFile[]>;
  /**
   * Keeps the keys of these files for the next build, once the output is in place, with their stamps
   * as `written` (the output's rows) has them.
   */
  remember(written?: OutputRows): CacheWarning;
  /** Stops the indexing of a build that stops: no Pagefind process of it is left once this settles. */
  abandon(): Promise<void>;
}

/** One shard's index: made, or the previous output's taken. */
interface Shard {
  files: OutputFile[];
  keys: IndexKeys;
}

/**
 * Begins the index: what it is made of is read now; Pagefind works in a process of its own
 * meanwhile, while the rest of the output is checked and written.
 */
export function startSearchIndex(resolved: ResolvedJournal, options: SearchIndexOptions): SearchIndex {
  const previous = options.reuse
    ? (readFrames<IndexKeys>(path.join(options.cacheDir, KEYS_FILE), options.fingerprint) ?? []).filter((keys) =>
        Array.isArray(keys.languages),
      )
    : [];
  const shards = shardsOf(resolved, shardSize());
  const stop = new AbortController();
  const made = makeShards(resolved, shards, previous, options, keeper(options.cacheDir), stop.signal);
  // Awaited by files(); a build that stops before it asks must not leave an unhandled rejection.
  made.catch(() => {});
  let keys: IndexKeys[] | undefined;
  /** Each index file's shard and place in its shard's keys, in the order the files are given (by path). */
  let order: Int32Array | undefined;
  return {
    async files() {
      const result = await made;
      keys = result.map((shard) => shard.keys);
      const places = result.flatMap((shard, n) => shard.files.map((file, i) => ({ file, n, i })));
      places.sort((a, b) => (a.file.path < b.file.path ? -1 : a.file.path > b.file.path ? 1 : 0));
      order = new Int32Array(places.length * 2);
      places.forEach(({ n, i }, at) => {
        order![at * 2] = n;
        order![at * 2 + 1] = i;
      });
      const files = places.map(({ file }) => file);
      const languages = `${JSON.stringify(bundlesOf(keys))}\n`;
      const listed: OutputFile = {
        path: `${SEARCH_FOLDER}languages.json`,
        body: languages,
        key: keyOf(fileDigest(languages)),
      };
      const at = files.findIndex((file) => file.path > listed.path);
      files.splice(at < 0 ? files.length : at, 0, listed);
      return files;
    },
    remember(written) {
      if (!keys) return undefined;
      if (written && order) stampsFrom(written, keys, order);
      return writeFrames(options.cacheDir, KEYS_FILE, options.fingerprint, keys);
    },
    async abandon() {
      stop.abort(new Stopped('The search index was stopped with the build.'));
      await made.then(
        () => {},
        () => {},
      );
    },
  };
}

/**
 * The manuscripts' places in `resolved.manuscripts`, in shards: by id, ascending, at most `size` a
 * shard, so that a new manuscript (a higher id) goes to the last shard and an edit changes one.
 * Within a shard they are in published order, as a journal of one shard's index always was.
 */
export function shardsOf(resolved: ResolvedJournal, size: number): number[][] {
  const byId = resolved.manuscripts
    .map((_, i) => i)
    .sort((a, b) => resolved.manuscripts[a]!.id - resolved.manuscripts[b]!.id);
  const shards: number[][] = [];
  for (let start = 0; start < byId.length; start += size)
    shards.push(byId.slice(start, start + size).sort((a, b) => a - b));
  return shards.length > 0 ? shards : [[]];
}

/** Where a shard's bundles are: the first at `pagefind/`, as an index of one shard always was. */
const shardFolder = (shard: number): string => (shard === 0 ? '' : `shards/${shard}/`);

/**
 * The bundles the search box opens, in `pagefind/languages.json`: the first shard's languages, most
 * manuscripts first, then each other shard's, as paths under `pagefind/` (`shards/1/en`). The box
 * merges every one after the first; Pagefind, asked for a language a bundle does not have, opens the
 * one it has, so a shard's path serves as its language.
 */
function bundlesOf(keys: readonly IndexKeys[]): string[] {
  return keys.flatMap((shard, n) => shard.languages.map((language) => `${shardFolder(n)}${language}`));
}

/**
 * Each shard in turn: taken from the previous output when its keys say it did not change, else made
 * by Pagefind, one shard at a time, so that its memory is held for one shard alone. A shard's text
 * (its abstracts whole) is made when its turn comes and let go with it: made for every shard before
 * the first was indexed, it took the build's heap over 1.2 GB at 100,000 imported manuscripts.
 */
async function makeShards(
  resolved: ResolvedJournal,
  shards: readonly number[][],
  previous: readonly IndexKeys[],
  options: SearchIndexOptions,
  keep: Keep,
  signal: AbortSignal,
): Promise<Shard[]> {
  const common = commonKeyOf(resolved);
  const recordsKeys = shards.map((places) =>
    common === undefined ? undefined : recordsKeyOf(resolved, places, common),
  );
  const previousFiles = previousFilesIn(options.outDir, options.listed);
  const taken: (OutputFile[] | false | undefined)[] = [];
  for (const [n, before] of shards.map((_, n) => previous[n]).entries()) {
    const recordsKey = recordsKeys[n];
    taken.push(
      before && recordsKey !== undefined && before.records === recordsKey
        ? await takePrevious(before, previousFiles, keep)
        : false,
    );
  }
  // The `search` stage shows Pagefind's work: begun when a shard is first indexed, for the shards
  // whose records changed from there on (one whose text is the same after all is not indexed).
  let stage: ProgressStage | undefined;
  const result: Shard[] = [];
  for (const [n, places] of shards.entries()) {
    signal.throwIfAborted();
    const before = previous[n];
    const recordsKey = recordsKeys[n];
    const files = taken[n];
    if (files) {
      result.push({ files, keys: before! });
      continue;
    }
    const records = searchRecords(resolved, places);
    const input = digest(JSON.stringify([PAGEFIND_VERSION, records]));
    const again = before?.input === input ? await takePrevious(before, previousFiles, keep) : undefined;
    if (again) {
      result.push({ files: again, keys: { ...before!, records: recordsKey } });
      continue;
    }
    stage ??= options.progress.stage(
      'search',
      shards.reduce((sum, later, m) => sum + (m >= n && !taken[m] ? later.length : 0), 0),
    );
    const {
      languages,
      files: made,
      digests,
    } = await indexWithPagefind(records, `${SEARCH_FOLDER}${shardFolder(n)}`, keep, signal);
    stage.advance(places.length);
    result.push({ files: made, keys: { records: recordsKey, input, languages, files: digests } });
  }
  stage?.done();
  return result;
}

/** The manuscripts at `places` as Pagefind takes them, in published order (the order makes the index's bytes). */
export function searchRecords(resolved: ResolvedJournal, places: readonly number[]): SearchRecord[] {
  const volumes = new Map(resolved.volumes.map((volume) => [volume.id, volume]));
  return places.map((i) => {
    const m = resolved.manuscripts[i]!;
    const authors = pageAuthors(m, resolved.manuscriptAuthors[i]!)
      .map((author) => author.display)
      .join(', ');
    const title = titleToPlain(m.citation_title);
    const volume = volumes.get(m.citation_volume);
    const volumeName = volume ? `${volume.citation_journal_title} (${volume.full_date.slice(0, 4)})` : '';
    return {
      url: manuscriptPagePath(m),
      // Each searched field is a sentence of its own, so that a snippet does not run one into the next.
      content: [title, authors, keywordList(m.keywords).join(', '), richTextToPlain(m.abstract)]
        .filter((text) => text !== '')
        .join('. '),
      language: searchLanguage(m, resolved.journal.citation_language),
      meta: { title, authors, volume: volumeName },
    };
  });
}

/**
 * The language a manuscript is indexed in: its own, else the journal's, as an ISO 639-1 code.
 * Pagefind keeps one index per language, with the stemming of that language where it has one
 * (English does, Macedonian does not); the search box searches them all.
 */
function searchLanguage(m: ManuscriptRecord, journalLanguage: string): string {
  const code = languageCode(m.citation_language || journalLanguage).toLowerCase();
  return /^[a-z]{2,3}$/.test(code) ? code : 'unknown';
}

/**
 * The authors' and volumes' content hashes (a shard's text names them), and the journal's settings
 * are in the fingerprint. Undefined when a record has no hash (a build without the cache), and the
 * text itself is compared.
 */
function commonKeyOf(resolved: ResolvedJournal): string | undefined {
  const hash = createHash('sha256');
  for (const list of [resolved.authors, resolved.volumes] as const) {
    for (const record of list as readonly { origin: Origin }[]) {
      if (record.origin.hash === undefined) return undefined;
      hash.update(`${record.origin.key}\n${record.origin.hash}\n`);
    }
    hash.update('\0');
  }
  return hash.update(PAGEFIND_VERSION).digest('hex');
}

/** A shard's manuscripts' content hashes, with the common key: when none changed, neither did what the shard indexes. */
function recordsKeyOf(resolved: ResolvedJournal, places: readonly number[], common: string): string | undefined {
  const hash = createHash('sha256').update(`${common}\n`);
  for (const i of places) {
    const origin: Origin = resolved.manuscripts[i]!.origin;
    if (origin.hash === undefined) return undefined;
    hash.update(`${origin.key}\n${origin.hash}\n`);
  }
  return hash.digest('hex');
}

type Origin = { key: string; hash?: string };

/**
 * One shard's index: a bundle of Pagefind's for each language, at `<folder><language>/`, and its
 * languages, most manuscripts first. Pagefind opens one language's index of a bundle and can merge
 * in other bundles, but not another language of its own bundle (merged, the second language's
 * results were the first one's pages): so the search box opens the first bundle and merges the
 * others. Pagefind's service process is started for this shard, and has exited when it is made
 * (pagefind-bundles.ts).
 */
async function indexWithPagefind(
  records: readonly SearchRecord[],
  folder: string,
  keep: Keep,
  signal: AbortSignal,
): Promise<{ languages: string[]; files: OutputFile[]; digests: [path: string, sha256: string][] }> {
  const byLanguage = new Map<string, SearchRecord[]>();
  for (const record of records) {
    const same = byLanguage.get(record.language);
    if (same) same.push(record);
    else byLanguage.set(record.language, [record]);
  }
  const languages = [...byLanguage.keys()].sort(
    (a, b) => byLanguage.get(b)!.length - byLanguage.get(a)!.length || (a < b ? -1 : 1),
  );
  const bundles = await pagefindBundles(
    languages.map((language) => byLanguage.get(language)!),
    signal,
  );
  const files: OutputFile[] = [];
  const digests: [string, string][] = [];
  bundles.forEach((bundle, i) => {
    for (const file of bundle) {
      const at = `${folder}${languages[i]}/${file.path.split(path.sep).join('/')}`;
      const sha256 = fileDigest(file.content);
      digests.push([at, sha256]);
      files.push(keep(at, file.content, keyOf(sha256)));
    }
  });
  return { languages, files, digests };
}

/**
 * The version the project pins (package.json; its own package file is not exported): the index's
 * format and its search module go with it, so a reused index is one this version made.
 */
const PAGEFIND_VERSION = '1.6.0';

function digest(value: string | Uint8Array): string {
  return createHash('sha256').update(value).digest('hex');
}
