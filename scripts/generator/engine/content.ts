/**
 * The engine's first seam, files → records: discovery and loading (stages/discover, stages/load)
 * run with the build cache and the load threads around them, and the PDFs' checks (stages/media)
 * run on the stat workers. The orchestrator sees the records and the problems; the cache, the
 * threads and when memory is let go are decided here.
 *
 * `check` writes the cache too (never the output), so the next check is fast. Unchanged files'
 * records come from the check index, for `check` and `build` alike.
 */
import type { ProjectPaths } from '../../project.ts';
import type { Problem } from '../model/problems.ts';
import type { JournalInput } from '../model/schema.ts';
import { timed, type Progress } from '../progress.ts';
import { discover, discoverJournal, type Discovery } from '../stages/discover.ts';
import { loadJournal, type Records } from '../stages/load.ts';
import { startMediaCheck, type MediaCheck } from '../stages/media.ts';
import type { CheckedRecords } from '../stages/resolve.ts';
import { cacheFingerprint, readVerifiedMedia, writeVerifiedMedia, type RecordEntry } from './cache/cache.ts';
import { readCheckIndex } from './cache/check-index.ts';
import { writeCheckIndex } from './cache/check-index-write.ts';
import { locateProblems } from './cache/locate-problems.ts';
import { loadContent, noCache } from './load/load-all.ts';
import { scanContent } from './scan/content-scan.ts';
import { manyFilesOnWorkers } from './scan/many-files.ts';
import type { Scan } from './scan/stat-many.ts';

export interface ContentOptions {
  progress: Progress;
  /** Load worker threads (0: in-thread); by default one per core for large journals. */
  threads?: number;
  /** `false` ignores the build cache (it is still written for the next build). */
  cache?: boolean;
  /** The content folders' listing (and a build's previous output's), when the caller started it early. */
  scan?: Scan;
  /** Called once every content file is loaded, with how many there are and how many were parsed. */
  loaded?: (files: { total: number; parsed: number }) => void;
  /**
   * Whether a build sets its manuscripts' long fields aside in a file (load/set-aside.ts); by their
   * number (SET_ASIDE_FROM) when not said.
   */
  setAsideLongFields?: boolean;
}

export interface LoadedContent {
  journal?: JournalInput;
  journalFile?: string;
  /** Every valid record; only a build makes them (`check` keeps what the checks across records need). */
  records?: Records;
  checked: CheckedRecords;
  problems: Problem[];
  /** Content files found, and how many of them were read and parsed (the rest came from the build cache). */
  files: number;
  parsed: number;
  /** The key the build cache is kept under (the code and the journal's settings). */
  fingerprint: string;
  /** The listing the build started with, of the content and of the previous output. */
  scan: Scan;
  /** Checks the PDFs (on other threads); `copies` names where each goes in the output. */
  checkMedia(copies: boolean): Promise<MediaCheck>;
  /** Gives problems of records restored from the build cache the positions in their files. */
  locate(problems: Problem[]): Promise<void>;
}

/** Files whose cache entries may be out of date before the check index is rewritten. */
const STALE_ENTRIES_KEPT = 50;

/**
 * Manuscripts loaded from which a build sets their long fields aside in a file rather than in
 * memory (load/set-aside.ts): where a cold build's peak nears 1 GiB (about 10 MB per 1,000
 * manuscripts). At 100,000 the file took that peak down by the fields' 194 MB; at 10,000 it saved
 * 17 MB of a 330 MB peak for 0.2 to 0.35 s more CPU, more than it is worth there
 * (docs/performance.md).
 */
const SET_ASIDE_FROM = 50_000;

export async function loadContentFiles(
  paths: ProjectPaths,
  mode: 'build' | 'check',
  options: ContentOptions,
): Promise<LoadedContent> {
  const { progress, threads } = options;
  const useCache = options.cache !== false;
  // Every content folder and the media are listed and stamped from the start, while this thread
  // reads the journal settings and the build cache.
  const scan = options.scan ?? scanContent(paths.content, mode === 'build' ? { outDir: paths.out } : {});
  const journalFound = await discoverJournal(paths.root, paths.content);
  const journal = journalFound.journalFile
    ? await loadJournal(journalFound.journalFile.file, journalFound.journalFile.absolutePath)
    : { problems: [] };

  // The cache is keyed by content and dropped as a whole when the code or the settings change.
  const fingerprint = cacheFingerprint(journal.bytes);
  // Unchanged files' records come from the index: a build reads a manuscript's long fields from
  // its file only when one of its outputs is rendered again (reread.ts).
  const index = useCache ? readCheckIndex(paths.cache, fingerprint, mode) : undefined;
  const cached = index ?? noCache;
  const verifiedMedia = useCache ? readVerifiedMedia(paths.cache, fingerprint) : undefined;

  const found = await timed(progress, 'discover', 0, () =>
    discover(paths.root, paths.content, scan, journalFound, (collection) => cached.fileNames(collection)),
  );
  const setAsideFrom =
    options.setAsideLongFields === undefined ? SET_ASIDE_FROM : options.setAsideLongFields ? 1 : undefined;
  const loaded = await loadContent(found, cached, progress, {
    threads,
    restore: mode === 'build' ? 'records' : 'checks',
    ...(setAsideFrom === undefined ? {} : { setAside: { dir: paths.cache, from: setAsideFrom } }),
  });
  // Rewriting the caches costs seconds at 100,000 files; a few stale entries cost nothing (those
  // files are hashed again, and parsed again if they changed), so they wait for a larger batch.
  const rewrite = cached.size === 0 || loaded.stale > Math.max(STALE_ENTRIES_KEPT, loaded.files / 100);
  const saveIndex = rewrite || !index ? indexSaver(paths.cache, fingerprint, found, loaded.entries) : () => {};
  const checked = loaded.checked;
  options.loaded?.({ total: loaded.files, parsed: loaded.parsed });
  // Without settings nothing else follows: the index is saved now, for the next check.
  if (!journal.journal) saveIndex();

  return {
    ...(journal.journal ? { journal: journal.journal } : {}),
    ...(found.journalFile ? { journalFile: found.journalFile.file } : {}),
    ...(loaded.records ? { records: loaded.records } : {}),
    checked,
    problems: [...found.problems, ...journal.problems, ...loaded.problems],
    files: loaded.files,
    parsed: loaded.parsed,
    fingerprint,
    scan,
    async checkMedia(copies) {
      const stage = progress.stage('media', checked.volumes.length + checked.manuscripts.length);
      const check = await startMediaCheck(checked, paths.content, manyFilesOnWorkers, verifiedMedia, scan, {
        copies,
      });
      // While the PDFs' first bytes are read on other threads, this one saves the check index and
      // lets go of what it was made from: after loading, nothing else keeps the other cores busy.
      saveIndex();
      const media = await check.result;
      stage.advance(checked.volumes.length + checked.manuscripts.length);
      stage.done();
      if (media.changed || !useCache) writeVerifiedMedia(paths.cache, fingerprint, media.verified);
      return media;
    },
    locate: (problems) => locateProblems(problems, paths.root),
  };
}

/**
 * Writes the check index once, when called, and lets go of what it was written from: the build
 * holds the function to its end, and every file's entry held with it was a large part of the
 * build's peak of memory at 100,000 manuscripts (docs/performance.md).
 */
function indexSaver(
  cacheDir: string,
  fingerprint: string,
  found: Discovery,
  entries: () => readonly RecordEntry[],
): () => void {
  let pending: { found: Discovery; entries: () => readonly RecordEntry[] } | undefined = { found, entries };
  return () => {
    if (pending) writeCheckIndex(cacheDir, fingerprint, pending.found, pending.entries());
    pending = undefined;
  };
}
