/**
 * The orchestrator: it only wires the stages, in order. It returns a result and never prints or
 * exits; the command line decides how to show it.
 *
 *   discover → load (parse + validate, per file, on worker threads, cached) → resolve → media
 *   → render → write (reusing unchanged files of the previous output)
 *
 * The build cache (issue 4, cache.ts) is read before loading and written after each stage that
 * feeds it; `check` writes the cache too (never the output), so the next check is fast.
 */
import { scanContent } from './engine/scan/content-scan.ts';
import { discover, discoverJournal, type Discovery } from './stages/discover.ts';
import { readFile } from 'node:fs/promises';
import {
  type RecordEntry,
  cacheFingerprint,
  readListTables,
  readOutputManifest,
  readOutputReads,
  readVerifiedMedia,
  removeOutputManifest,
  writeListTables,
  writeOutputManifest,
  writeOutputReads,
  writeVerifiedMedia,
} from './engine/cache/cache.ts';
import { locateProblems, readCheckIndex, writeCheckIndex } from './engine/cache/check-index.ts';
import { loadContent, noCache } from './engine/load/load-all.ts';
import { loadJournal } from './stages/load.ts';
import { startMediaCheck } from './stages/media.ts';
import type { Scan } from './engine/scan/stat-many.ts';
import type { Problem } from './model/problems.ts';
import { silentProgress, timed, type Progress } from './progress.ts';
import { findOutputConflicts, readPublicFiles } from './stages/public-files.ts';
import { checkHostLimits, ruleFilesOf, type HostCheck } from './stages/host-limits.ts';
import { checkReferences, orderJournal, withAuthorsFound } from './stages/resolve.ts';
import { RENDERERS } from './render/renderers.ts';
import type { Renderer } from './model/site.ts';
import { trackReads } from './engine/reuse/read-tracking.ts';
import { emptyReads, keyOutputs, type RecordedReads } from './engine/reuse/reuse.ts';
import type { ListTable } from './engine/write/list-items.ts';
import { startSite, type WriteStats } from './engine/write/site-writer.ts';
import type { ProjectPaths } from '../project.ts';

export type BuildMode = 'build' | 'check';

export interface BuildResult {
  ok: boolean;
  problems: Problem[];
  counts: { authors: number; volumes: number; manuscripts: number; pdfs: number };
  written?: WriteStats;
  /** Content files read and parsed by this build; the others came from the build cache (issue 4). */
  parsed?: number;
  /** What the chosen hosts cannot do (issue 5); printed, never fatal. */
  warnings?: string[];
}

/** Files whose cache entries may be out of date before the check index is rewritten. */
const STALE_ENTRIES_KEPT = 50;

export interface BuildOptions {
  /** The renderers the site is made by (render/renderers.ts by default). */
  renderers?: readonly Renderer[];
  /** Progress on a terminal; silent by default. */
  progress?: Progress;
  /** Load worker threads (0: in-thread); by default one per core for large journals. */
  threads?: number;
  /** `false` ignores the build cache (it is still written for the next build). */
  cache?: boolean;
  /** The content folders' listing (and a build's previous output's), when the caller started it early (content-scan.ts). */
  scan?: Scan;
  /** Hard-link the PDFs into the output instead of copying them (write.ts, publishMedia). */
  linkMedia?: boolean;
  /**
   * Called once every content file is loaded, with how many there are and how many were parsed
   * (the rest came from the build cache): the command line tunes the garbage collector to it.
   */
  loaded?: (files: { total: number; parsed: number }) => void;
}

export async function build(paths: ProjectPaths, mode: BuildMode, options: BuildOptions = {}): Promise<BuildResult> {
  const progress = options.progress ?? silentProgress;
  const useCache = options.cache !== false;
  const {
    journal,
    journalFile,
    fingerprint,
    records,
    checked,
    files,
    parsed,
    problems,
    scan,
    verifiedMedia,
    saveIndex,
  } = await discoverAndLoad(paths, mode, useCache, progress, options.threads, options.scan);
  options.loaded?.({ total: files, parsed });

  const counts = {
    authors: checked.authors,
    volumes: checked.volumes.length,
    manuscripts: checked.manuscripts.length,
    pdfs: 0,
  };
  if (!journal.journal) {
    saveIndex();
    return { ok: false, problems, counts, parsed };
  }
  const settings = journal.journal;
  // The PDFs' first bytes are read on other threads while this one saves the check index, orders
  // the journal and begins the lists: after loading, nothing else would keep the other cores busy.
  const mediaStage = progress.stage('media', counts.volumes + counts.manuscripts);
  const mediaCheck = await startMediaCheck(checked, paths.content, verifiedMedia, scan, { copies: mode === 'build' });
  saveIndex();

  // A build begins writing the lists next: a thread of their own writes and compresses them while
  // the PDFs and the references are checked and the pages rendered (write.ts, startSite); the PDFs
  // follow as soon as they are checked. Any problem found meanwhile abandons the write.
  const site = problems.length === 0 && records ? orderJournal(settings, records) : undefined;
  const previousLists = useCache && site ? readListTables(paths.cache, fingerprint) : undefined;
  // Every renderer lists its outputs now; their bodies run when written, noting what they read.
  const tracker = site ? trackReads(site) : undefined;
  const groups = tracker
    ? (options.renderers ?? RENDERERS).map((r) => ({ source: r.name, outputs: r.render(tracker.site) }))
    : [];
  const outputs = groups.flatMap((group) => group.outputs);
  const reads = emptyReads();
  if (tracker)
    keyOutputs(outputs, tracker, useCache ? previousReads(paths, fingerprint, previousLists) : undefined, reads);
  const lists = outputs.filter((output) => output.items);
  const writing = site
    ? await startSite(paths.out, lists, {
        progress,
        previousOutput: scan,
        ...(options.linkMedia ? { linkMedia: true } : {}),
        ...(previousLists
          ? { previousLists, previousManifest: () => readOutputManifest(paths.cache, fingerprint) }
          : {}),
      })
    : undefined;
  try {
    const media = await mediaCheck.result;
    mediaStage.advance(counts.volumes + counts.manuscripts);
    mediaStage.done();
    if (media.changed || !useCache) writeVerifiedMedia(paths.cache, fingerprint, media.verified);
    problems.push(...media.problems);
    counts.pdfs = media.pdfs;
    if (problems.length === 0) writing?.copyMedia(media.copies);
    const references = site && records ? withAuthorsFound(checked, records, site) : checked;
    problems.push(
      ...(await timed(progress, 'resolve', counts.authors + counts.volumes + counts.manuscripts, () =>
        checkReferences(settings, references),
      )),
    );

    const publicFiles = site && problems.length === 0 ? await readPublicFiles(paths.root, paths.public) : undefined;
    const rendered = {
      outputs: [...outputs.filter((output) => !output.items), ...(publicFiles?.outputs ?? [])],
      problems: publicFiles?.problems ?? [],
    };
    const conflicts = findOutputConflicts([
      ...groups,
      ...(publicFiles?.outputs ?? []).map((output) => ({ source: `public/${output.path}`, outputs: [output] })),
      { source: 'content/media', outputs: media.copies.map((copy) => ({ path: copy.to, body: '' })) },
    ]);
    problems.push(...rendered.problems, ...conflicts);

    if (problems.length > 0) {
      await writing?.abandon();
      // Records restored from the check index have no positions: their problems are located now.
      await locateProblems(problems, paths.root);
      return { ok: false, problems, counts, parsed };
    }
    if (!writing) return { ok: true, problems, counts, parsed };
    removeOutputManifest(paths.cache); // the output is about to change: the old manifest no longer describes it
    // The hosts' limits, on the files as written, before they are swapped in (host-limits.ts).
    const rules = ruleFilesOf(rendered.outputs);
    let hosting: HostCheck = { problems: [], warnings: [] };
    const written = await writing.finish(rendered.outputs, (files) => {
      hosting = checkHostLimits(settings.hosts, journalFile ?? 'content/journal.yaml', files, rules, media.copies);
      return hosting.problems.length === 0;
    });
    if (!written) return { ok: false, problems: hosting.problems, counts, warnings: hosting.warnings, parsed };
    writeOutputManifest(paths.cache, fingerprint, written.manifest);
    writeListTables(paths.cache, fingerprint, written.lists);
    writeOutputReads(paths.cache, fingerprint, reads.outputs);
    return { ok: true, problems, counts, written, warnings: hosting.warnings, parsed };
  } catch (error) {
    await writing?.abandon();
    throw error;
  }
}

/**
 * Discover and load, with the build cache: the file list and the cache entries live only in here,
 * so later stages hold the records and nothing else (issue 4: memory grows with records, not files).
 * Unchanged files' records come from the check index, for `check` and `build` alike.
 */
async function discoverAndLoad(
  paths: ProjectPaths,
  mode: BuildMode,
  useCache: boolean,
  progress: Progress,
  threads: number | undefined,
  early: Scan | undefined,
) {
  // Every content folder and the media are listed and stamped on worker threads from the start,
  // while this thread reads the journal settings and the build cache (issue 4).
  const scan =
    early ??
    scanContent(paths.content, {
      ...(mode === 'build' ? { outDir: paths.out } : {}),
      ...(threads === 0 ? { threads: 0 } : {}),
      ...(useCache ? { cacheDir: paths.cache } : {}),
    });
  const journalFound = await discoverJournal(paths.root, paths.content);
  const journal = journalFound.journalFile
    ? await loadJournal(journalFound.journalFile.file, journalFound.journalFile.absolutePath)
    : { problems: [] };

  // The cache is keyed by content and dropped as a whole when the code or the settings change.
  const fingerprint = cacheFingerprint(
    journalFound.journalFile ? await readFile(journalFound.journalFile.absolutePath).catch(() => undefined) : undefined,
  );
  // Unchanged files' records come from the index: a build reads a manuscript's long fields from
  // its file only when one of its outputs is rendered again (reread.ts).
  const index = useCache ? readCheckIndex(paths.cache, fingerprint, mode) : undefined;
  const cached = index ?? noCache;
  const verifiedMedia = useCache ? readVerifiedMedia(paths.cache, fingerprint) : undefined;

  const found = await timed(progress, 'discover', 0, () =>
    discover(paths.root, paths.content, scan, journalFound, (collection) => cached.fileNames(collection)),
  );
  const problems: Problem[] = [...found.problems, ...journal.problems];
  const loaded = await loadContent(found, cached, progress, {
    threads,
    restore: mode === 'build' ? 'records' : 'checks',
  });
  problems.push(...loaded.problems);
  // Rewriting the caches costs seconds at 100,000 files; a few stale entries cost nothing (those
  // files are hashed again, and parsed again if they changed), so they wait for a larger batch.
  const rewrite = cached.size === 0 || loaded.stale > Math.max(STALE_ENTRIES_KEPT, loaded.files / 100);
  // Called by the caller once it has begun work for the other threads (the PDFs' checks).
  const saveIndex = rewrite || !index ? indexSaver(paths.cache, fingerprint, found, loaded.entries) : () => {};
  return {
    journal,
    journalFile: found.journalFile?.file,
    fingerprint,
    records: loaded.records,
    checked: loaded.checked,
    files: loaded.files,
    parsed: loaded.parsed,
    problems,
    scan,
    verifiedMedia,
    saveIndex,
  };
}

/**
 * Writes the check index once, when called, and lets go of what it was written from: the build
 * holds the function to its end, and 250,000 files' entries held with it were 150 MB at the
 * build's peak of memory (issue 4).
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

/** What the previous build's outputs and list items read, from the build cache. */
function previousReads(
  paths: ProjectPaths,
  fingerprint: string,
  lists: ReadonlyMap<string, ListTable> | undefined,
): RecordedReads {
  const items = new Map<string, Map<string, string>>();
  for (const [path, table] of lists ?? []) if (table.reads) items.set(path, new Map(table.reads));
  return { outputs: readOutputReads(paths.cache, fingerprint), items };
}
