/**
 * The records every stage and renderer speaks of: what a content file holds once it is valid, and
 * where it came from. Stages make them; renderers read them through the Site (site.ts).
 */
import type { AuthorInput, ManuscriptInput, VolumeInput } from './schema.ts';

/** A 1-based line and column in a file. */
export interface Position {
  line: number;
  column: number;
}

export interface Origin {
  file: string;
  key: string;
  /** Positions of fields that the resolve and media stages check (`authors[2]`, `citation_volume`, ...). */
  at: Record<string, Position>;
  /** Hash of the file's bytes, when the build knows it: outputs that depend on the record are reused while it is unchanged. */
  hash?: string;
}

/**
 * The position of a problem found in a record that keeps no positions (a valid author or
 * manuscript, loadRecordFrom): `locateProblems` (check-index.ts) reads the file again and fills it in.
 */
export const UNLOCATED: Readonly<Position> = Object.freeze({ line: -1, column: -1 });

/** Where a problem with `field` of a record is reported: at the field, else at the record. */
export function positionOf(origin: Origin, field: string): Position {
  return origin.at[field] ?? origin.at[''] ?? UNLOCATED;
}

export type AuthorRecord = AuthorInput & { origin: Origin };
export type VolumeRecord = VolumeInput & { origin: Origin };
/**
 * A manuscript as the stages and renderers read it. `citation_volume` is the id of its volume: as
 * the file writes it, or, for a manuscript that names its volume by `volume`, the id that key
 * resolves to once every volume is loaded (stages/volume-references.ts), NaN until then. The
 * `citation_volume` such a file also writes, which must agree, is kept as `stated_volume`: the
 * resolved id is set again at every build, from the key, as the volumes are then.
 */
export type ManuscriptRecord = Omit<ManuscriptInput, 'citation_volume'> & {
  citation_volume: number;
  stated_volume?: number;
  origin: Origin;
};

/** A manuscript's authors in its own order: the author record each key names, undefined for a name kept as published. */
export type FoundAuthors = readonly (AuthorRecord | undefined)[];

/** A manuscript's long fields: the ones a compact record may keep as the UTF-8 JSON the lists publish. */
export const LONG_FIELDS = ['abstract', 'keywords', 'citation_language', 'udc', 'citation_issn'] as const;
export type LongField = (typeof LONG_FIELDS)[number];

/**
 * How a record that keeps its long fields as UTF-8 JSON gives them: the JSON of one field (undefined
 * when the record leaves the field out). The build's compact records answer it (the engine's packed
 * manuscripts); a plain record does not, and its fields are read as they are.
 */
export const LONG_FIELD_JSON = Symbol('long field JSON');

export function publishedJsonOf(record: object): ((field: LongField) => Uint8Array | undefined) | undefined {
  const give = (record as { [LONG_FIELD_JSON]?: () => ((field: LongField) => Uint8Array | undefined) | undefined })[
    LONG_FIELD_JSON
  ];
  return give?.call(record);
}
