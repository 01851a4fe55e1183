/** What a build is asked to do, and what it answers (build.ts). */
import type { Scan } from './stages/listing.ts';
import type { CollectMoment } from './engine/output.ts';
import type { WriteStats } from './engine/write/site-writer.ts';
import type { Problem } from './model/problems.ts';
import type { Renderer } from './model/site.ts';
import type { Progress } from './progress.ts';
import type { SwapSteps } from '../shared/folder-swap.ts';
import type { SwitchStep } from '../shared/output-generations.ts';

export type BuildMode = 'build' | 'check';

export interface BuildResult {
  ok: boolean;
  problems: Problem[];
  counts: { authors: number; volumes: number; manuscripts: number; pdfs: number };
  written?: WriteStats;
  /** Content files read and parsed by this build; the others came from the build cache. */
  parsed?: number;
  /** What the chosen hosts cannot do; printed, never fatal. */
  warnings?: string[];
  /** The warnings about the content, as problems (their file, field and position); also in `warnings`, as text. */
  contentWarnings?: Problem[];
}

export interface BuildOptions {
  /** The renderers the site is made by (render/renderers.ts by default). */
  renderers?: readonly Renderer[];
  /** Progress on a terminal; silent by default. */
  progress?: Progress;
  /** Load worker threads (0: in-thread); by default one per core for large journals. */
  threads?: number;
  /** `false` ignores the build cache and the previous output (the cache is still written for the next build). */
  cache?: boolean;
  /** The content folders' listing (and a build's previous output's), when the caller started it early. */
  scan?: Scan;
  /** Hard-link the PDFs into the output instead of copying them. */
  linkMedia?: boolean;
  /** Publish a list even when it loses all its records, or more than half, since the previous output. */
  allowShrink?: boolean;
  /** `false`: no warning that base_url or media_url is still the sample's example address (a local preview). */
  warnExampleDomains?: boolean;
  /** Awaited at each step of the output's swap: only for the tests that kill a build there (shared/folder-swap.ts). */
  swapSteps?: SwapSteps;
  /**
   * Make the output a link switched to each complete new output (shared/output-generations.ts);
   * an output that is such a link already is switched without it.
   */
  atomic?: boolean;
  /** Awaited at each step of the link's switch: only for the tests that kill a build there (shared/output-generations.ts). */
  switchSteps?: (step: SwitchStep) => Promise<void> | void;
  /** Called once every content file is loaded, with how many there are and how many were parsed. */
  loaded?: (files: { total: number; parsed: number }) => void;
  /** A full garbage collection, called where what the build holds drops (engine/output.ts); none by default. */
  collect?: (moment: CollectMoment) => void;
  /**
   * Whether the manuscripts' long fields wait in a file of the build cache's folder rather than in
   * memory: by default when at least 50,000 manuscripts are loaded (engine/content.ts).
   */
  setAsideLongFields?: boolean;
}
