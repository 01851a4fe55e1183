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
import { appendAll } from '../shared/append-all.ts';
import { openLiveContent, type LiveContent, type RecordChange } from './engine/live/live-content.ts';
import { liveOrder, patchOrder, type LiveOrder } from './engine/live/live-order.ts';
import { emptyMemo, renderLive, type OutputMemo } from './engine/live/live-output.ts';
import {
  indexOutputs,
  listsPaths,
  outputAt,
  reindexOutputs,
  type OutputGroup,
  type OutputIndex,
} from './engine/live/output-index.ts';
import { noListedFields, sameListedFields, type ListedFields } from './engine/live/listing-site.ts';
import { isUnreadFolder, takeWarnings, type Problem } from './model/problems.ts';
import type { Renderer } from './model/site.ts';
import { silentProgress, type Progress } from './progress.ts';
import { RENDERERS } from './render/renderers.ts';
import { readPublicFiles } from './stages/public-files.ts';
import { checkReferences, orderJournal, referencesOf, withAuthorsFound } from './stages/resolve.ts';
import { resolveVolumeKeys } from './stages/volume-references.ts';

/** The site as it is now: its files, or the problems that keep it from being built. */
export type LiveSite =
  | { ok: true; files: LiveFiles; counts: LiveCounts; mediaUrl: string; warnings: Problem[] }
  | { ok: false; problems: Problem[]; counts: LiveCounts; warnings: Problem[] };

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
  const state: LiveState = {
    publicFiles: await readPublicFiles(paths.root, paths.public),
    memo: emptyMemo(),
    order: undefined,
    index: undefined,
    media: undefined,
    listed: noListedFields(),
    saved: new Set(),
  };
  let site = await assemble(content, state, renderers, []);
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
        for (const file of contentFiles) state.saved.add(path.relative(paths.root, file).split(path.sep).join('/'));
      if (change === 'none' && !publicChanged) return false;
      if (publicChanged) state.publicFiles = await readPublicFiles(paths.root, paths.public);
      // New settings (or code) change what every output is: nothing made before is kept.
      if (change === 'all') state.memo = emptyMemo();
      site = await assemble(content, state, renderers, change === 'records' ? content.replaced() : undefined);
      return true;
    },
  };
}

/** What one build of the site hands the next. */
interface LiveState {
  publicFiles: Awaited<ReturnType<typeof readPublicFiles>>;
  memo: OutputMemo;
  /** The journal as last ordered, to be patched when an edit leaves the order as it was. */
  order: LiveOrder | undefined;
  /** The outputs of the last site that had no conflict, by path: the same paths have none again. */
  index: OutputIndex | undefined;
  /** What the renderers' listings have read of the records (listing-site.ts). */
  listed: ListedFields;
  /** The content files saved since dev started (relative to the project, with `/`). */
  saved: Set<string>;
  /** The PDFs as outputs, for the paths' index, made again only when the PDFs' map is. */
  media: { of: ReadonlyMap<string, string>; group: OutputGroup } | undefined;
}

function mediaGroupOf(media: ReadonlyMap<string, string>, state: LiveState): OutputGroup {
  if (state.media?.of !== media)
    state.media = {
      of: media,
      group: { source: 'content/media', outputs: [...media.keys()].map((name) => ({ path: name, body: '' })) },
    };
  return state.media.group;
}

/**
 * `replaced`: the records the edit replaced (none after a first load); undefined after anything
 * else (a file added or removed), when the journal is ordered from scratch.
 */
async function assemble(
  content: LiveContent,
  state: LiveState,
  renderers: readonly Renderer[],
  replaced: readonly RecordChange[] | undefined,
): Promise<LiveSite> {
  const records = content.records();
  const media = content.media();
  const counts = {
    authors: records.authors.length,
    volumes: records.volumes.length,
    manuscripts: records.manuscripts.length,
    pdfs: media.size,
  };
  const problems = [...content.problems(), ...state.publicFiles.problems];
  // Warnings never keep the site from being built (build.ts): they are shown beside it.
  const warnings = takeWarnings(problems);
  const { journal } = content;
  if (!journal) return { ok: false, problems, counts, warnings };
  // As build.ts: a journal with no problem so far is ordered first, and the references' checks
  // skip the authors ordering found.
  // Every manuscript named by a volume key is resolved as the volumes are now: a replaced record
  // takes its place (patchOrder) with its volume known, as orderJournal gives it.
  resolveVolumeKeys(records.volumes, records.manuscripts);
  const patched = problems.length === 0 && replaced && state.order ? patchOrder(state.order, replaced) : undefined;
  const order = problems.length === 0 ? (patched ?? liveOrder(orderJournal(journal, records))) : undefined;
  const checked = order ? withAuthorsFound(referencesOf(records), records, order.resolved) : referencesOf(records);
  if (state.saved.size > 0) checked.changedFiles = state.saved;
  if (!problems.some(isUnreadFolder)) {
    const found = checkReferences(journal, checked);
    const referenceWarnings = takeWarnings(found);
    appendAll(problems, found);
    await content.locate(referenceWarnings);
    appendAll(warnings, referenceWarnings);
  }
  state.order = problems.length === 0 ? order : undefined;
  if (problems.length > 0 || !order) {
    await content.locate(problems);
    return { ok: false, problems, counts, warnings };
  }

  const output = renderLive(order.resolved, renderers, state.memo, state.listed);
  const rendered = renderers.map((renderer, at) => ({
    source: renderer.name,
    get outputs() {
      return output.outputsOf(at);
    },
  }));
  const publicGroups = state.publicFiles.outputs.map((file) => ({ source: `public/${file.path}`, outputs: [file] }));
  const groups = [...rendered, ...publicGroups, mediaGroupOf(media, state)];
  // Records replaced in their places, the same in all the listings read of them: every renderer
  // lists the paths it listed for the last site (listing-site.ts), and is listed when asked.
  const sameListings = patched !== undefined && sameListedFields(state.listed, replaced!);
  const indexed = indexOutputs(groups, state.index, sameListings ? rendered.length : 0);
  if ('conflicts' in indexed) return { ok: false, problems: indexed.conflicts, counts, warnings };
  let index = (state.index = indexed.index);
  // The renderers listed to index or compare their paths just now need no second look.
  const compared = new Set<number>(sameListings ? [] : rendered.keys());
  // The PDFs are served from their files (mediaSource), never as bytes.
  const made = (name: string) => {
    const found = outputAt(index, groups, name);
    if (!found || found.group >= rendered.length + publicGroups.length) return undefined;
    if (found.group < rendered.length && !compared.has(found.group)) {
      compared.add(found.group);
      // A renderer that lists other paths for the same fields is not pure (model/site.ts): the
      // paths are indexed again from every listing, and the next save checks them whole.
      if (!listsPaths(groups[found.group]!, index.paths[found.group]!)) {
        index = reindexOutputs(groups);
        state.index = undefined;
        return made(name);
      }
    }
    return found.output;
  };
  return {
    ok: true,
    counts,
    warnings,
    mediaUrl: journal.media_url,
    files: {
      has: (name) => index.places.has(name),
      bytes(name) {
        const file = made(name);
        return file && output.bytesOf(file);
      },
      mediaSource: (name) => media.get(name),
    },
  };
}
