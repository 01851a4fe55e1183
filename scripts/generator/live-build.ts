/**
 * The orchestrator of `npm run dev`: build.ts's stages, kept open between edits and written
 * nowhere. The engine's live seams (engine/live/) hold the loaded journal and the outputs made so far
 * in memory; an edit loads the changed files again, checks the references, orders the journal and
 * lists the outputs, and a file's bytes are made when it is asked for. It prints nothing.
 *
 *   load (changed files) → media (theirs) → resolve → render (listed; made when asked)
 */
import path from 'node:path';
import type { ProjectPaths } from '../project.ts';
import type { OutputFile } from '../shared/output-file.ts';
import { openLiveContent, type LiveContent } from './engine/live/live-content.ts';
import { emptyMemo, renderLive, type OutputMemo } from './engine/live/live-output.ts';
import { isUnreadFolder, type Problem } from './model/problems.ts';
import type { Renderer } from './model/site.ts';
import { silentProgress, type Progress } from './progress.ts';
import { RENDERERS } from './render/renderers.ts';
import { findOutputConflicts, readPublicFiles } from './stages/public-files.ts';
import { checkReferences, orderJournal, referencesOf } from './stages/resolve.ts';

/** The site as it is now: its files, or the problems that keep it from being built. */
export type LiveSite =
  | { ok: true; files: LiveFiles; counts: LiveCounts; mediaUrl: string }
  | { ok: false; problems: Problem[]; counts: LiveCounts };

export interface LiveCounts {
  authors: number;
  volumes: number;
  manuscripts: number;
  pdfs: number;
}

/** The files a build would write into dist/, by their path there. */
export interface LiveFiles {
  has(path: string): boolean;
  /** The bytes of a file the renderers or public/ make. */
  bytes(path: string): Uint8Array | undefined;
  /** The source of a PDF (`media/...`), absolute. */
  mediaSource(path: string): string | undefined;
}

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
  const renderers = options.renderers ?? RENDERERS;
  const content = await openLiveContent(paths, options.progress ?? silentProgress);
  let publicFiles = await readPublicFiles(paths.root, paths.public);
  let memo = emptyMemo();
  let site = await assemble(content, publicFiles, renderers, memo);
  const inPublic = (file: string) => file === paths.public || file.startsWith(paths.public + path.sep);

  return {
    get site() {
      return site;
    },
    async update(changed) {
      const publicChanged = changed.some(inPublic);
      const change = await content.apply(changed.filter((file) => !inPublic(file)));
      if (change === 'none' && !publicChanged) return false;
      if (publicChanged) publicFiles = await readPublicFiles(paths.root, paths.public);
      // New settings (or code) change what every output is: nothing made before is kept.
      if (change === 'all') memo = emptyMemo();
      site = await assemble(content, publicFiles, renderers, memo);
      return true;
    },
  };
}

async function assemble(
  content: LiveContent,
  publicFiles: Awaited<ReturnType<typeof readPublicFiles>>,
  renderers: readonly Renderer[],
  memo: OutputMemo,
): Promise<LiveSite> {
  const counts = content.counts();
  const problems = [...content.problems(), ...publicFiles.problems];
  const { journal } = content;
  if (!journal) return { ok: false, problems, counts };
  const records = content.records();
  if (!problems.some(isUnreadFolder)) problems.push(...checkReferences(journal, referencesOf(records)));
  if (problems.length > 0) {
    await content.locate(problems);
    return { ok: false, problems, counts };
  }

  const output = renderLive(orderJournal(journal, records), renderers, memo);
  const media = content.media();
  const conflicts = findOutputConflicts([
    ...output.groups,
    ...publicFiles.outputs.map((file) => ({ source: `public/${file.path}`, outputs: [file] })),
    { source: 'content/media', outputs: [...media.keys()].map((name) => ({ path: name, body: '' })) },
  ]);
  if (conflicts.length > 0) return { ok: false, problems: conflicts, counts };

  const files = new Map<string, OutputFile>();
  for (const file of [...output.groups.flatMap((group) => group.outputs), ...publicFiles.outputs])
    files.set(file.path, file);
  return {
    ok: true,
    counts,
    mediaUrl: journal.media_url,
    files: {
      has: (name) => files.has(name) || media.has(name),
      bytes(name) {
        const file = files.get(name);
        return file && output.bytesOf(file);
      },
      mediaSource: (name) => media.get(name),
    },
  };
}
