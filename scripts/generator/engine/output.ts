/**
 * The engine's second seam, outputs → a finished dist/: every renderer lists its outputs, their
 * keys come from what they read last time (reuse/), and the site writer (write/) writes what
 * changed into a staging folder, takes the rest from the previous output, and swaps it in. The
 * lists begin at once, on a thread of their own, while the PDFs and the references are checked.
 * What the next build needs to reuse this one is kept in the build cache once the swap is done.
 */
import path from 'node:path';
import type { ProjectPaths } from '../../project.ts';
import { framingOf, type OutputFile, type WrittenFiles } from '../../shared/output-file.ts';
import type { Problem } from '../model/problems.ts';
import type { Renderer } from '../model/site.ts';
import type { Progress } from '../progress.ts';
import type { MediaCopy } from '../stages/media.ts';
import type { ResolvedJournal } from '../stages/resolve.ts';
import type { SwapSteps } from '../../shared/folder-swap.ts';
import {
  readListTables,
  readOutputManifest,
  readOutputReads,
  removeOutputManifest,
  writeListTables,
  writeOutputManifest,
  writeOutputReads,
} from './cache/cache.ts';
import { packReadsNow } from './cache/output-reads.ts';
import { readLongFieldsIn } from './load/packed-manuscript.ts';
import { rereadManuscript } from './load/reread.ts';
import { trackReads } from './reuse/read-tracking.ts';
import { emptyReads, keyedByBody, keyOutputs, type PreviousReads, type RecordedReads } from './reuse/reuse.ts';
import type { Scan } from './scan/stat-many.ts';
import { startSearchIndex } from './search/search-index.ts';
import type { ListTable } from './write/list-items.ts';
import { countListItems } from './write/previous-lists.ts';
import { startSite, type WriteStats } from './write/site-writer.ts';

export interface OutputOptions {
  progress: Progress;
  /** `false`: nothing is taken from the previous output (the cache is still written for the next build). */
  cache?: boolean;
  /** The listing of the previous output when the build started: which of its files are intact. */
  previous: Scan;
  fingerprint: string;
  /** Hard-link the PDFs into the output instead of copying them. */
  linkMedia?: boolean;
  allowShrink?: boolean;
  swapSteps?: SwapSteps;
  /**
   * A full garbage collection (cli.ts), offered at each moment where what the build holds drops
   * (CollectMoment). At 100,000 manuscripts each is a third of a second to a second.
   */
  collect?: (moment: CollectMoment) => void;
}

/**
 * Where a build may collect its garbage: `pages`, before the pages are written, when the listing's
 * and the checks' garbage is done with; `reuse`, once the files of the previous output to reuse
 * are found (only a build that has a previous output); `written`, before the cache is packed,
 * when the writing's garbage is done with.
 */
export type CollectMoment = 'pages' | 'reuse' | 'written';

/** A list that would lose all its records, or more than half, against the previous output. */
export interface Shrink {
  path: string;
  before: number;
  after: number;
}

export interface Output {
  /** Each renderer's outputs, for the conflict check. */
  groups: { source: string; outputs: OutputFile[] }[];
  /** The lists that shrink too much to be published without `allowShrink`, as problems. */
  problems: Problem[];
  /** Begins putting the PDFs into the output, on other threads. */
  copyMedia(copies: readonly MediaCopy[]): void;
  /**
   * Writes every output and `more` (files of public/), and swaps the output in when `accept` takes
   * its files as written; undefined, and the previous output untouched, when it does not.
   */
  finish(more: readonly OutputFile[], accept: (files: WrittenFiles) => boolean): Promise<WriteStats | undefined>;
  /** Leaves the previous output as it was. */
  abandon(): Promise<void>;
}

export async function startOutput(
  paths: ProjectPaths,
  resolved: ResolvedJournal,
  renderers: readonly Renderer[],
  options: OutputOptions,
): Promise<Output> {
  const useCache = options.cache !== false;
  const { fingerprint } = options;
  const previousLists = useCache ? readListTables(paths.cache, fingerprint) : undefined;
  // A record restored from the check index is read in before an output that read it is rendered
  // again, so that no renderer waits on the disk.
  const tracker = trackReads(resolved, { readIn: (record) => readLongFieldsIn(record, rereadManuscript) });
  const groups = renderers.map((renderer) => ({ source: renderer.name, outputs: renderer.render(tracker.site) }));
  const outputs = groups.flatMap((group) => group.outputs);
  const shrunk = options.allowShrink ? [] : shrinking(paths.out, outputs, previousLists);
  const reads: RecordedReads = { ...emptyReads(), byPlace: new Array<string | undefined>(keyedCount(outputs)) };
  const previous = previousLists && previousReads(paths, fingerprint, previousLists);
  const renderKeyed = keyOutputs(outputs, tracker, previous, reads, { once: true });
  // Kept to the end: the composite tokens the previous build valued (an output taken whole may
  // still name them), and the previous outputs' reads; not what the records were worth then.
  const carried = previous?.values?.composites.map(([token]) => token);
  const previousOutputs = previous?.outputs;
  // Pagefind works in a process of its own while the lists are written and the PDFs checked.
  const search =
    resolved.journal.search === false
      ? undefined
      : startSearchIndex(resolved, {
          outDir: paths.out,
          cacheDir: paths.cache,
          fingerprint,
          reuse: useCache,
          listed: options.previous,
          progress: options.progress,
        });
  const streamed = outputs.filter((output) => output.items);
  const writing = await startSite(paths.out, streamed, {
    progress: options.progress,
    previousOutput: options.previous,
    ...(options.linkMedia ? { linkMedia: true } : {}),
    ...(options.swapSteps ? { swapSteps: options.swapSteps } : {}),
    ...(previousLists ? { previousLists, previousManifest: () => readOutputManifest(paths.cache, fingerprint) } : {}),
    filesAtFinish: outputs.length - streamed.length,
    reusePlanned: () => options.collect?.('reuse'),
  }).catch(async (error: unknown) => {
    await search?.abandon();
    throw error;
  });
  return {
    groups,
    problems: shrunk.map((list) => shrinkProblem(paths, list)),
    copyMedia: (copies) => writing.copyMedia(copies),
    async finish(more, accept) {
      // The output is about to change: the old manifest no longer describes it.
      removeOutputManifest(paths.cache);
      options.collect?.('pages');
      const whole = outputs.filter((output) => !output.items);
      const searchFiles = (await search?.files()) ?? [];
      // Each output's place among those keyed by their bodies (reuse.ts, KeyedRender): `more` and
      // the search index have none.
      const places = new Int32Array(whole.length + more.length + searchFiles.length).fill(-1);
      let place = 0;
      whole.forEach((output, index) => {
        if (keyedByBody(output)) places[index] = place++;
      });
      const written = await writing.finish(
        [...whole, ...more, ...searchFiles],
        (rows) =>
          accept({
            count: rows.count,
            name: (file) => rows.name(file),
            sizeOf: (file) => rows.stampField(file, 0),
          }),
        (index) => (places[index]! < 0 ? undefined : renderKeyed(whole[index]!, places[index]!)),
      );
      if (!written) return undefined;
      options.collect?.('written');
      // The output is in place: a cache that cannot be written now is a warning (cache.ts).
      const warnings = [
        writeOutputManifest(paths.cache, fingerprint, written.manifest),
        writeListTables(paths.cache, fingerprint, written.lists),
        writeOutputReads(
          paths.cache,
          fingerprint,
          packReadsNow(() => keyedPaths(outputs), reads.byPlace!, previousOutputs),
          tracker.values(carried),
        ),
        search?.remember(written.manifest.files),
      ].filter((warning) => warning !== undefined);
      return { ...written, warnings: [...new Set(warnings)] };
    },
    // Pagefind stops with the build: a caller of build() has no process of it left once it returns.
    abandon: async () => {
      await Promise.all([writing.abandon(), search?.abandon()]);
    },
  };
}

/** The paths of the outputs keyed by their bodies, in order. */
function* keyedPaths(outputs: readonly OutputFile[]): Generator<string> {
  for (const output of outputs) if (keyedByBody(output)) yield output.path;
}

/** How many outputs are keyed by their bodies: the places of their reads (RecordedReads.byPlace). */
function keyedCount(outputs: readonly OutputFile[]): number {
  let count = 0;
  for (const output of outputs) if (keyedByBody(output)) count++;
  return count;
}

/** What the previous build's outputs and list items read, from the build cache. */
function previousReads(paths: ProjectPaths, fingerprint: string, lists: ReadonlyMap<string, ListTable>): PreviousReads {
  const items = new Map<string, ReadonlyMap<string, string>>();
  for (const [path, table] of lists) if (table.reads) items.set(path, table.reads);
  return { ...readOutputReads(paths.cache, fingerprint), items };
}

/**
 * The lists whose records fall to none, or to fewer than half, of the previous output's: a missing
 * or emptied collection would otherwise replace the whole published list. The previous count comes
 * from the build cache's list table, or, without one, from the previous list file itself.
 */
function shrinking(
  outDir: string,
  outputs: readonly OutputFile[],
  previousLists: ReadonlyMap<string, ListTable> | undefined,
): Shrink[] {
  const shrunk: Shrink[] = [];
  for (const output of outputs) {
    if (!output.items) continue;
    const before =
      previousLists?.get(output.path)?.lengths.length ??
      countListItems(path.join(outDir, output.path), framingOf(output.items));
    const after = output.items.count;
    if (before !== undefined && before > 0 && (after === 0 || after * 2 < before))
      shrunk.push({ path: output.path, before, after });
  }
  return shrunk;
}

/** A list that would lose too much, reported at its published file. */
function shrinkProblem(paths: ProjectPaths, list: Shrink): Problem {
  return {
    code: 'output/shrink',
    file: path.relative(paths.root, path.join(paths.out, list.path)).split(path.sep).join('/'),
    line: 0,
    column: 0,
    field: '',
    message: `would go from ${list.before} records to ${list.after}: is a collection folder missing or emptied?`,
    expected: 'at least half of the published records, or --allow-shrink to publish it anyway',
  };
}
