/**
 * `npm run dev`'s wiring: the stages after loading are build.ts's own (pipeline.ts), run after each
 * save with dev's content and dev's output. The content is the journal held in memory and loaded
 * again from the changed paths, its order patched when an edit leaves it as it was
 * (engine/live/live-source.ts); the output is the site in memory, its files made when asked for
 * (engine/live/memory-output.ts). It prints nothing.
 */
import path from 'node:path';
import type { ProjectPaths } from '../project.ts';
import { openLiveContent, type RecordChange } from './engine/live/live-content.ts';
import { liveSource } from './engine/live/live-source.ts';
import { sameListedFields } from './engine/live/listing-site.ts';
import { keptOutput, outputToMemory, type LiveFiles } from './engine/live/memory-output.ts';
import type { Problem } from './model/problems.ts';
import type { Renderer } from './model/site.ts';
import { runPipeline, type Counts } from './pipeline.ts';
import { silentProgress, type Progress } from './progress.ts';
import { readExtraFiles } from './publish.ts';
import { RENDERERS } from './render/renderers.ts';

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
  const source = liveSource(content);
  const kept = keptOutput();
  const sink = outputToMemory(options.renderers ?? RENDERERS, kept, {
    readExtraFiles: (journal, journalFile) => readExtraFiles(paths, journal, journalFile),
    // Records replaced in their places, the same in all the listings read of them: every renderer
    // lists the paths it listed for the last site (listing-site.ts), and is listed when asked.
    sameListings: () => source.patched !== undefined && sameListedFields(kept.listed, source.patched),
    media: () => content.media(),
  });
  const run = async (replaced: readonly RecordChange[] | undefined): Promise<LiveSite> => {
    const result = await runPipeline(source.content(replaced), Promise.resolve(sink));
    const { counts, contentWarnings: warnings } = result;
    if (!result.ok || !result.files) {
      source.forgetOrder();
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
      if (change !== 'none')
        source.saved(contentFiles.map((file) => path.relative(paths.root, file).split(path.sep).join('/')));
      if (change === 'none' && !publicChanged) return false;
      // public/ and the settings are what the files beside the renderers' are made of.
      if (publicChanged) kept.extra = undefined;
      // New settings (or code) change what every output is: nothing made before is kept.
      if (change === 'all') Object.assign(kept, keptOutput());
      site = await run(change === 'records' ? content.replaced() : undefined);
      return true;
    },
  };
}
