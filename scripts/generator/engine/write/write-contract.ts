/** What the site writer (site-writer.ts) is given, what it does, and what it reports. */
import zlib from 'node:zlib';
import type { OutputManifest } from '../cache/cache.ts';
import type { OutputRows } from '../cache/output-rows.ts';
import type { MediaCopy } from '../../stages/media.ts';
import type { DeferredText, OutputFile } from '../../../shared/output-file.ts';
import type { Progress } from '../../progress.ts';
import type { Scan } from '../scan/stat-many.ts';
import type { ListTable } from './list-items.ts';
import type { SwapSteps } from '../../../shared/folder-swap.ts';

/**
 * Compression levels for the precompressed twins, chosen by measurement (docs/performance.md):
 * gzip 5 takes two thirds of gzip 6's time for a `.gz` 5% larger, which only clients without
 * brotli receive (about 1.1 s of CPU in a cold build at 100,000 manuscripts); brotli 5 is the
 * fastest quality that beats gzip 9's size, at 4 to 5 times the speed of brotli 7 and 40 times
 * that of brotli 11.
 */
export const GZIP_LEVEL = 5;
export const BROTLI_OPTIONS: zlib.BrotliOptions = {
  params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
    [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
  },
};

export interface WriteStats {
  files: number;
  /** Sizes of the precompressed outputs and their twins (the API lists), by output path. */
  bytes: Record<string, number>;
  /** Files hard-linked from the previous output because their inputs had not changed. */
  reused: number;
  /** Items of the lists rendered; the others were taken from the previous build's lists (list-items.ts). */
  renderedItems: number;
  /** Segments of the lists' twins compressed; the others were taken from the previous twins (segmented-twins.ts). */
  compressedSegments: number;
  /** What this build wrote, for the next build to reuse. */
  manifest: OutputManifest;
  /** The tables of the lists in the output (written or reused), for the next build's lists. */
  lists: Map<string, ListTable>;
  /** The build cache files that could not be written once the output was in place (cache.ts). */
  warnings?: string[];
}

export interface WriteOptions {
  progress?: Progress;
  /** Awaited at each step of the swap; only the tests that kill a build there pass it (shared/folder-swap.ts). */
  swapSteps?: SwapSteps;
  /** Hard-link PDFs from `content/media/` instead of copying them (file-writer.ts, CopyMode). */
  linkMedia?: boolean;
  /** The tables of the lists the previous build wrote (list-items.ts), from the build cache. */
  previousLists?: ReadonlyMap<string, ListTable>;
  /**
   * The listing of the output folder as it was when the build started (content-scan.ts): the
   * stamps that decide which previous files are intact (findReusable). Without it, or for a
   * folder it did not list, nothing of the previous output is reused.
   */
  previousOutput?: Scan;
  /**
   * What the previous build wrote, from the build cache: its files with the same keys are reused if
   * intact. Read when the PDFs or the pages first need it (200,000 entries at 100,000 manuscripts):
   * not before the lists begin.
   */
  previousManifest?: () => OutputManifest | undefined;
  /** How many files `finish` will be given (the pages and the other outputs), when known. */
  filesAtFinish?: number;
  /** Called in `finish` once the files of the previous output to reuse are found, when there is one. */
  reusePlanned?: () => void;
}

/**
 * Makes the body of the output at `index` of those `finish` is given, where the caller keeps how (an
 * output keyed by what its body reads: engine/reuse/reuse.ts); undefined where the output's own body
 * is to be called.
 */
export type RenderAt = (index: number) => (string | DeferredText)[] | undefined;

/**
 * A write begun with the lists, the PDFs added as soon as they are checked, finished with everything
 * else, or abandoned (the output untouched).
 */
export interface SiteWriter {
  /**
   * Begins putting the PDFs into the output on the writers' threads, and returns at once: they
   * take seconds of the kernel's time at 100,000 PDFs and need nothing but the media checks, so
   * they run while the references are checked and the pages rendered. Called at most once,
   * before `finish`.
   */
  copyMedia(copies: readonly MediaCopy[]): void;
  /**
   * Writes `outputs` and swaps the output in. `accept`, when given, sees every file of the new
   * output (its size in its stamp) once all are in the staging folder, before the swap: when it
   * refuses them, the write is abandoned, the output stays as it was, and this resolves to undefined.
   */
  finish(
    outputs: readonly OutputFile[],
    accept?: (files: OutputRows) => boolean,
    render?: RenderAt,
  ): Promise<WriteStats | undefined>;
  abandon(): Promise<void>;
}
