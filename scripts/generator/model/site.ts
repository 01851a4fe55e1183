/**
 * What a renderer is given and what it gives back: the renderer contract.
 *
 * A renderer turns the Site into files: records in, OutputFile[] out, with no disk, no clock and no
 * environment (the architecture linter holds render/ to that). Its outputs' bodies are functions:
 * the build calls one only when the file must be written, and records which records the body read
 * while it ran. An output is taken from the previous build when every record its body read then is
 * unchanged now, so a renderer declares no dependencies: it reads what it needs, through the Site.
 *
 * One rule follows: a body gets its inputs by reading them, from the records and the Site, while it
 * runs. What a renderer works out while it lists its outputs is their paths; a body must not use a
 * value derived from records outside it (a grouping, a count), since that reading is not its own.
 * The Site gives the groupings a body needs (manuscriptsIn, authorsOf) for that reason.
 */
import type { OutputFile } from '../../shared/output-file.ts';
import type { AuthorRecord, FoundAuthors, ManuscriptRecord, VolumeRecord } from './records.ts';
import type { JournalInput } from './schema.ts';

export interface Site {
  /** The journal's settings (content/journal.yaml). */
  readonly journal: JournalInput;
  /** Each list in its published order (docs/content-model.md, "Order"). */
  readonly authors: readonly AuthorRecord[];
  readonly volumes: readonly VolumeRecord[];
  readonly manuscripts: readonly ManuscriptRecord[];
  /** The volume of that id (a manuscript's `citation_volume`). */
  volume(id: number): VolumeRecord | undefined;
  /** A manuscript's authors, aligned with its `authors`: the record a key names, undefined for a name kept as published. */
  authorsOf(manuscript: ManuscriptRecord): FoundAuthors;
  /** The manuscripts of a volume, in published order. */
  manuscriptsIn(volume: VolumeRecord): readonly ManuscriptRecord[];
  /**
   * The newest `count` manuscripts, newest first (model/newest.ts: by citation_date, then by id). A
   * body that lists them depends on which they are and on what it reads of them, not on every
   * manuscript's date: a feed is not rendered again for an edit to a manuscript it does not list.
   */
  newestManuscripts(count: number): readonly ManuscriptRecord[];
}

/**
 * How hosts serve some of a renderer's files: with `contentType`, and the `headers` besides, for the
 * file at exactly `path`, or for any file in the folder `folder` (one level, as `/citations/<id>.bib`)
 * whose name ends with `extension`. Paths are URL paths, with their leading slash. Only for files a
 * host would not type right by its extension (or would type without the charset): every host
 * configuration is rendered with these rules (scripts/hosts/rules.ts collects them, in the order of
 * the renderers).
 */
export type TypeRule = { contentType: string; headers?: Readonly<Record<string, string>> } & (
  { path: string } | { folder: string; extension: string }
);

export interface Renderer {
  /** What the outputs are, for a reader of an error ("the HTML pages"). */
  readonly name: string;
  render(site: Site): OutputFile[];
  /** How hosts serve the files it writes that they would not type right by themselves; none if left out. */
  readonly types?: readonly TypeRule[];
}
