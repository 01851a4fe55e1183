/**
 * The stages after loading, one list for `build`, `check` and `npm run dev`:
 *
 *   warnings → media → order → references → outputs beside the renderers' → conflicts → host limits → write
 *
 * What differs between the commands is where the records come from (`PipelineContent`: a build's
 * scan and load through the build cache, or dev's records kept in memory and loaded again from the
 * changed paths) and where the outputs go (`OutputSink`: a build's writer into dist/, nothing for
 * `check`, dev's files in memory made when asked); never the stages, nor their order. What makes
 * dev fast (the order patched in place, the paths kept between saves) is its content's and its
 * sink's, behind these interfaces. It prints nothing and exits nothing.
 */
import type { OutputFile, WrittenFiles } from '../shared/output-file.ts';
import { appendAll } from '../shared/append-all.ts';
import { journalWarnings } from './model/content-warnings.ts';
import { oaiWarnings } from './model/oai-settings.ts';
import { isUnreadFolder, takeWarnings, type Problem } from './model/problems.ts';
import type { JournalInput } from './model/schema.ts';
import { silentProgress, timed, type Progress } from './progress.ts';
import type { HostCheck } from './stages/host-limits.ts';
import type { Records } from './stages/load.ts';
import type { MediaCopy } from './stages/media.ts';
import { checkReferences, orderJournal, withAuthorsFound, type CheckedRecords } from './stages/resolve.ts';
import type { ResolvedJournal } from './stages/resolve.ts';

export interface Counts {
  authors: number;
  volumes: number;
  manuscripts: number;
  pdfs: number;
}

/** Where the records come from: the journal loaded, and what the stages after loading ask of it. */
export interface PipelineContent {
  readonly journal: JournalInput | undefined;
  /** The journal's settings file, where its warnings and the hosts' and the editor's problems point. */
  readonly journalFile: string;
  /** Every valid record; undefined for `check`, which keeps only what the checks across records need. */
  readonly records: Records | undefined;
  readonly checked: CheckedRecords;
  /** What loading found; its warnings are taken out here. */
  readonly problems: Problem[];
  readonly counts: Omit<Counts, 'pdfs'>;
  /** The PDFs' checks: their problems, how many passed, and where each goes in the output. */
  checkMedia(): Promise<MediaResult>;
  /** The journal in its published order; orderJournal (stages/resolve.ts) unless the content keeps one. */
  order?(journal: JournalInput, records: Records): ResolvedJournal;
  /** Gives problems of records restored from the build cache their lines and columns. */
  locate(problems: Problem[]): Promise<void>;
}

export interface MediaResult {
  problems: readonly Problem[];
  pdfs: number;
  copies: readonly MediaCopy[];
  /** The PDFs as outputs, for the conflict check, when the content keeps them; made from `copies` otherwise. */
  outputs?: readonly OutputFile[];
}

/** The outputs of one source (a renderer, a file of public/, the PDFs), as the conflict check names them. */
export interface OutputGroup {
  readonly source: string;
  readonly outputs: readonly OutputFile[];
}

/** The files beside the renderers': public/, the web editor's and the OAI-PMH handler's. */
export interface ExtraFiles {
  publicFiles: { outputs: OutputFile[]; problems: Problem[] };
  editor: { outputs: OutputFile[]; problems: Problem[] };
  oaiHandler: OutputFile[];
}

/** Where the outputs go. `check` has none. */
export interface OutputSink<Files> {
  /** Begins the outputs of an ordered journal with no problem so far. */
  start(site: ResolvedJournal): Promise<SiteOutput<Files>>;
  readExtraFiles(journal: JournalInput, journalFile: string): Promise<ExtraFiles>;
  /**
   * The hosts' limits over the files as written, prepared from every group's outputs; none where
   * nothing is written to measure (dev makes a file only when it is asked for).
   */
  hostLimits?(
    journal: JournalInput,
    journalFile: string,
    groups: readonly OutputGroup[],
    copies: readonly MediaCopy[],
  ): (files: WrittenFiles) => HostCheck;
}

export interface SiteOutput<Files> {
  /** Each renderer's outputs. */
  readonly groups: readonly OutputGroup[];
  /** What the sink itself refuses (a build's lists that shrink too much). */
  readonly problems: readonly Problem[];
  copyMedia(copies: readonly MediaCopy[]): void;
  /** The conflicts among every output's path (stages/public-files.ts, findOutputConflicts). */
  conflicts(groups: readonly OutputGroup[]): Problem[];
  /**
   * Every output and `extra` written (or kept), and what writing them warns of; undefined, and
   * nothing changed, when `accept` refuses them.
   */
  finish(
    extra: readonly OutputFile[],
    accept: (files: WrittenFiles) => boolean,
  ): Promise<{ files: Files; warnings?: string[] | undefined } | undefined>;
  abandon(): Promise<void>;
}

export interface PipelineResult<Files> {
  ok: boolean;
  problems: Problem[];
  counts: Counts;
  /** The sink's files, when the site was published. */
  files?: Files;
  /** What the hosts' limits and the writer warn of; printed, never fatal. */
  warnings?: string[];
  /** The warnings about the content, as problems: printed, never fatal. */
  contentWarnings: Problem[];
}

export interface PipelineOptions {
  progress?: Progress;
  /** `false`: no warning that base_url or media_url is still the sample's example address. */
  warnExampleDomains?: boolean;
}

export async function runPipeline<Files>(
  content: PipelineContent,
  sink: Promise<OutputSink<Files>> | undefined,
  options: PipelineOptions = {},
): Promise<PipelineResult<Files>> {
  const progress = options.progress ?? silentProgress;
  const { journal, journalFile, records, problems } = content;
  // Warnings are printed with the result and never stop the build.
  const warned = takeWarnings(problems);
  if (journal && options.warnExampleDomains !== false) appendAll(warned, journalWarnings(journal, journalFile));
  const counts: Counts = { ...content.counts, pdfs: 0 };
  const done = (result: Omit<PipelineResult<Files>, 'counts' | 'contentWarnings'>): PipelineResult<Files> => ({
    ...result,
    counts,
    contentWarnings: warned,
  });
  if (!journal) return done({ ok: false, problems });
  // A journal too large for the OAI static repository is told why it gets none (docs/oai-pmh.md).
  appendAll(warned, oaiWarnings(journal, journalFile, counts.manuscripts));

  const media = content.checkMedia();
  const order = content.order ?? orderJournal;
  const site = problems.length === 0 && records ? order(journal, records) : undefined;
  const to = site && (await sink);
  const output = site && to && (await to.start(site));
  try {
    const checkedMedia = await media;
    appendAll(problems, checkedMedia.problems);
    counts.pdfs = checkedMedia.pdfs;
    if (problems.length === 0) output?.copyMedia(checkedMedia.copies);
    const references = site && records ? withAuthorsFound(content.checked, records, site) : content.checked;
    const all = counts.authors + counts.volumes + counts.manuscripts;
    if (!problems.some(isUnreadFolder)) {
      const found = await timed(progress, 'resolve', all, () => checkReferences(journal, references));
      // Its warnings (a volume named by an id that is not its numeral) never stop the build either.
      const referenceWarnings = takeWarnings(found);
      appendAll(problems, found);
      await content.locate(referenceWarnings);
      appendAll(warned, referenceWarnings);
    }

    const extra = to && output && problems.length === 0 ? await to.readExtraFiles(journal, journalFile) : undefined;
    const publicFiles = extra?.publicFiles.outputs ?? [];
    const beside = [...publicFiles, ...(extra?.editor.outputs ?? []), ...(extra?.oaiHandler ?? [])];
    appendAll(problems, extra?.publicFiles.problems ?? []);
    appendAll(problems, extra?.editor.problems ?? []);
    appendAll(problems, output?.problems ?? []);
    if (output)
      appendAll(
        problems,
        output.conflicts([
          ...output.groups,
          ...publicFiles.map((file) => ({ source: `public/${file.path}`, outputs: [file] })),
          { source: 'the web editor', outputs: extra?.editor.outputs ?? [] },
          { source: 'the OAI-PMH handler', outputs: extra?.oaiHandler ?? [] },
          {
            source: 'content/media',
            outputs: checkedMedia.outputs ?? checkedMedia.copies.map((copy) => ({ path: copy.to, body: '' })),
          },
        ]),
      );
    if (problems.length > 0) {
      await output?.abandon();
      await content.locate(problems);
      return done({ ok: false, problems });
    }
    if (!to || !output) return done({ ok: true, problems });

    // The hosts' limits, on the files as written, before they are swapped in.
    const measure = to.hostLimits?.(
      journal,
      journalFile,
      [...output.groups, { source: '', outputs: beside }],
      checkedMedia.copies,
    );
    let hosting: HostCheck = { problems: [], warnings: [] };
    const finished = await output.finish(beside, (written) => {
      if (measure) hosting = measure(written);
      return hosting.problems.length === 0;
    });
    if (!finished) {
      await content.locate(hosting.problems);
      return done({ ok: false, problems: hosting.problems, warnings: hosting.warnings });
    }
    const { files, warnings = [] } = finished;
    return done({ ok: true, problems, files, warnings: [...hosting.warnings, ...warnings] });
  } catch (error) {
    await output?.abandon();
    throw error;
  }
}
