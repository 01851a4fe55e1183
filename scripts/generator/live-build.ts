/**
 * `npm run dev`'s wiring: the stages after loading are build.ts's own (pipeline.ts), run after each
 * save with dev's content and dev's output. The content is the journal held in memory and loaded
 * again from the changed paths (engine/live/live-content.ts), ordered by patching the order kept
 * from the last save when an edit leaves it as it was (live-order.ts); the output is the site in
 * memory, its files made when asked for (engine/live/memory-output.ts). It prints nothing.
 */
import path from 'node:path';
import type { ProjectPaths } from '../project.ts';
import { openLiveContent, type LiveContent, type RecordChange } from './engine/live/live-content.ts';
import { liveOrder, patchOrder, type LiveOrder } from './engine/live/live-order.ts';
import { sameListedFields } from './engine/live/listing-site.ts';
import { keptOutput, outputToMemory, type LiveFiles } from './engine/live/memory-output.ts';
import type { Problem } from './model/problems.ts';
import type { Renderer } from './model/site.ts';
import { runPipeline, type Counts, type PipelineContent } from './pipeline.ts';
import { silentProgress, type Progress } from './progress.ts';
import { readExtraFiles } from './publish.ts';
import { RENDERERS } from './render/renderers.ts';
import type { MediaCopy } from './stages/media.ts';
import { orderJournal, referencesOf } from './stages/resolve.ts';
import { resolveVolumeKeys } from './stages/volume-references.ts';

export type { LiveFiles } from './engine/live/memory-output.ts';
export type LiveCounts = Counts;

/** The site as it is now: its files, or the problems that keep it from being built. */
export type LiveSite =
  | { ok: true; files: LiveFiles; counts: LiveCounts; mediaUrl: string; warnings: Problem[] }
  | { ok: false; problems: Problem[]; counts: LiveCounts; warnings: Problem[] };

export interface LiveBuild {
  readonly site: LiveSite;
  /**
   * Takes the paths a watcher saw change (absolute; under content/ or public/) and builds again;
   * false when nothing a build reads has changed (the same bytes saved again), and nothing was done.
   */
  update(changed: readonly string[]): Promise<boolean>;
}

export interface LiveOptions {
  renderers?: readonly Renderer[];
  /** Progress of the first load, which is a build's. */
  progress?: Progress;
}

export async function openLiveBuild(paths: ProjectPaths, options: LiveOptions = {}): Promise<LiveBuild> {
  const content = await openLiveContent(paths, options.progress ?? silentProgress);
  const kept: DevState = {
    output: keptOutput(),
    order: undefined,
    patched: undefined,
    saved: new Set(),
    copies: undefined,
  };
  const sink = outputToMemory(options.renderers ?? RENDERERS, kept.output, {
    readExtraFiles: (journal, journalFile) => readExtraFiles(paths, journal, journalFile),
    // Records replaced in their places, the same in all the listings read of them: every renderer
    // lists the paths it listed for the last site (listing-site.ts), and is listed when asked.
    sameListings: () => kept.patched !== undefined && sameListedFields(kept.output.listed, kept.patched),
    media: () => content.media(),
  });
  const run = async (replaced: readonly RecordChange[] | undefined): Promise<LiveSite> => {
    const result = await runPipeline(devContent(content, kept, replaced), Promise.resolve(sink));
    const { counts, contentWarnings: warnings } = result;
    // A failed site leaves no order to patch: the next save orders from scratch.
    if (!result.ok || !result.files) {
      kept.order = undefined;
      return { ok: false, problems: result.problems, counts, warnings };
    }
    return { ok: true, files: result.files, counts, mediaUrl: content.journal!.media_url, warnings };
  };
  let site = await run([]);
  const inPublic = (file: string) => file === paths.public || file.startsWith(paths.public + path.sep);

  return {
    get site() {
      return site;
    },
    async update(changed) {
      const publicChanged = changed.some(inPublic);
      const contentFiles = changed.filter((file) => !inPublic(file));
      const change = await content.apply(contentFiles);
      // Of two records sharing an id, the one saved while dev runs is the new one (repeated-ids.ts).
      if (change !== 'none')
        for (const file of contentFiles) kept.saved.add(path.relative(paths.root, file).split(path.sep).join('/'));
      if (change === 'none' && !publicChanged) return false;
      // public/ and the settings are what the files beside the renderers' are made of.
      if (publicChanged || change === 'all') kept.output.extra = undefined;
      // New settings (or code) change what every output is: nothing made before is kept.
      if (change === 'all') Object.assign(kept.output, keptOutput());
      site = await run(change === 'records' ? content.replaced() : undefined);
      return true;
    },
  };
}

/** What one run of the pipeline hands the next. */
interface DevState {
  output: ReturnType<typeof keptOutput>;
  /** The journal as last ordered, to be patched when an edit leaves the order as it was. */
  order: LiveOrder | undefined;
  /** The records this run's order replaced in their places; undefined when it ordered from scratch. */
  patched: readonly RecordChange[] | undefined;
  /** The content files saved since dev started (relative to the project, with `/`). */
  saved: Set<string>;
  /** The PDFs' copies, made again only when the PDFs' map is. */
  copies: { of: ReadonlyMap<string, string>; copies: MediaCopy[]; outputs: { path: string; body: '' }[] } | undefined;
}

/**
 * The journal held in memory, as the pipeline's content. `replaced`: the records the save replaced
 * (none after a first load); undefined after anything else (a file added or removed), when the
 * journal is ordered from scratch.
 */
function devContent(
  content: LiveContent,
  kept: DevState,
  replaced: readonly RecordChange[] | undefined,
): PipelineContent {
  const records = content.records();
  // Every manuscript named by a volume key is resolved as the volumes are now: a replaced record
  // takes its place (patchOrder) with its volume known, as orderJournal gives it.
  resolveVolumeKeys(records.volumes, records.manuscripts);
  const checked = referencesOf(records);
  if (kept.saved.size > 0) checked.changedFiles = kept.saved;
  kept.patched = undefined;
  return {
    journal: content.journal,
    journalFile: content.journalFile ?? 'content/journal.yaml',
    records,
    checked,
    problems: content.problems(),
    counts: {
      authors: records.authors.length,
      volumes: records.volumes.length,
      manuscripts: records.manuscripts.length,
    },
    checkMedia() {
      const media = content.media();
      if (kept.copies?.of !== media) {
        const copies = [...media].map(([to, from]) => ({ from, to }));
        kept.copies = { of: media, copies, outputs: copies.map((copy) => ({ path: copy.to, body: '' })) };
      }
      const { copies, outputs } = kept.copies;
      return Promise.resolve({ problems: content.mediaProblems(), pdfs: media.size, copies, outputs });
    },
    order(journal, ordered) {
      const patched = replaced && kept.order ? patchOrder(kept.order, replaced) : undefined;
      if (patched) kept.patched = replaced;
      kept.order = patched ?? liveOrder(orderJournal(journal, ordered));
      return kept.order.resolved;
    },
    locate: (problems) => content.locate(problems),
  };
}
