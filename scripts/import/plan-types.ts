/**
 * The shapes of the import's plan (plan.ts): what each step of the plan returns and what the
 * command and the summary read. A module of their own, so the steps and the plan import them
 * without importing each other.
 */
import type { Problem } from '../generator/model/problems.ts';
import type { OrderInference } from './order.ts';
import type { VolumeIdRule } from './volume-ids.ts';

export interface PlanOptions {
  /** `--volume-ids V=1,I=2,...` */
  volumeIds?: string;
  title?: string;
  baseUrl?: string;
  /** The origin the lists were fetched from, when the source was a URL. */
  sourceOrigin?: string;
  /** Switch every PDF to a file under content/media/ (`--download-media`). */
  localMedia: boolean;
}

export type Collection = 'authors' | 'volumes' | 'manuscripts';

export interface PlannedFile {
  /** Relative to content/, forward slashes. */
  path: string;
  data: Record<string, unknown>;
  /** Comments for items of the manuscript's `authors` list, by position (why it is kept as published). */
  authorComments?: Record<number, string>;
}

export interface PlannedMedia {
  url: string;
  /** Relative to content/media/, e.g. `pdfs/x.pdf`. */
  path: string;
  /** The records that name it, e.g. `manuscripts[3].document`. */
  usedBy: string[];
}

export interface AuthorMatch {
  text: string;
  /** Keys of the records with that full name: several (ambiguous) or none. */
  candidates: string[];
  at: string[];
}

export interface Inferences {
  volumeIds: { rule: VolumeIdRule; reasons: string[]; ids: { label: string; id: number }[] };
  authorStrings: { total: number; matched: number; ambiguous: AuthorMatch[]; unmatched: AuthorMatch[] };
  order: Record<'authors' | 'volumes' | 'manuscripts', OrderInference>;
  journal: { field: string; value: string; from: string; placeholder?: boolean }[];
  /** Values the contract allows and the import keeps as they are. */
  kept: { label: string; count: number }[];
  omitted: { label: string; count: number }[];
}

export interface Plan {
  journal: PlannedFile;
  files: Record<Collection, PlannedFile[]>;
  media: PlannedMedia[];
  /** Values the build refuses, by list, index and field: written all the same, for an editor to fix. */
  refused: Problem[];
  inferences: Inferences;
}
