/**
 * Stages 2 and 3 for one file: read, parse, validate, and keep only a compact record (the parsed
 * document is dropped as soon as the file is done, so memory grows with the records, not the files).
 * Positions of the fields that later stages check are kept so their problems can point at a line.
 */
import { readFile } from 'node:fs/promises';
import type { SourceFile } from './discover.ts';
import { parseFile, type ParsedFile, type Position } from './parse.ts';
import type { Problem } from '../model/problems.ts';
import {
  authorSchema,
  journalSchema,
  manuscriptSchema,
  volumeSchema,
  type AuthorInput,
  type JournalInput,
  type ManuscriptInput,
  type VolumeInput,
} from '../model/schema.ts';
import { validate } from './validate.ts';
import { issnWarningsOf } from '../model/issn-warnings.ts';
import { oaiSettingsProblems } from '../model/oai-settings.ts';
import { type AuthorRecord, type ManuscriptRecord, type Origin, type VolumeRecord } from '../model/records.ts';

export interface Records {
  authors: AuthorRecord[];
  volumes: VolumeRecord[];
  manuscripts: ManuscriptRecord[];
  /** Files that failed validation, as far as other records can still refer to them or check theirs. */
  invalid: InvalidRecord[];
}

/**
 * What is still known of a file that failed validation: its key, its id, and those of its own
 * references that are well formed. Other records may name it without a second, cascading error,
 * and its references are still checked, so one run reports every mistake.
 */
export interface InvalidRecord {
  collection: SourceFile['collection'];
  origin: Origin;
  id?: number;
  /** A volume's label, when well formed: manuscripts may name the volume by it. */
  label?: string;
  /** A volume's PDF, when well formed: it is still checked, so one run reports both mistakes. */
  pdf?: VolumeInput['pdf'];
  references?: Partial<Pick<ManuscriptInput, 'volume' | 'citation_volume' | 'authors' | 'section' | 'document'>>;
}

const LOCATED_FIELDS = {
  authors: ['name'],
  volumes: ['id', 'citation_journal_title', 'citation_issn', 'last_page', 'pdf'],
  manuscripts: ['id', 'volume', 'citation_volume', 'citation_date', 'section', 'document'],
} as const;

/**
 * The journal's settings file, parsed and validated, with the bytes it was read as (the build
 * cache is keyed by them: the settings checked are the settings the cache is kept for).
 */
export async function loadJournal(
  file: string,
  absolutePath: string,
): Promise<{ journal?: JournalInput; problems: Problem[]; bytes?: Uint8Array }> {
  const parsed = await readAndParse(file, absolutePath);
  const bytes = parsed.bytes ? { bytes: parsed.bytes } : {};
  if (!parsed.parsed) return { problems: parsed.problems, ...bytes };
  const result = validate(parsed.parsed, journalSchema);
  if (!result.value) return { problems: result.problems, ...bytes };
  const document = parsed.parsed;
  // Its warnings (an ISSN's check digit) only: a journal with them is valid.
  const warnings = issnWarningsOf(file, result.value, (field) => document.locate([field]));
  const oai = oaiSettingsProblems(file, result.value, document.locateKey([], 'oai'));
  return { journal: Object.freeze(result.value), problems: [...result.problems, ...warnings, ...oai], ...bytes };
}

export interface Loaded {
  record?: AuthorRecord | VolumeRecord | ManuscriptRecord;
  invalid?: InvalidRecord;
  problems: Problem[];
}

/** Parse and validate one file's bytes (run by the load workers, see load-job.ts). */
export function loadRecordFrom(
  source: Pick<SourceFile, 'collection' | 'key' | 'file'>,
  bytes: Uint8Array,
  hash?: string,
): Loaded {
  const { parsed, problems } = parseFile(source.file, bytes);
  if (!parsed)
    return {
      problems,
      invalid: {
        collection: source.collection,
        origin: { file: source.file, key: source.key, at: {}, ...(hash ? { hash } : {}) },
      },
    };
  const schema =
    source.collection === 'authors' ? authorSchema : source.collection === 'volumes' ? volumeSchema : manuscriptSchema;
  const result = validate(parsed, schema);
  // A valid author or manuscript keeps no positions: at 100,000 manuscripts they are 50 MB that
  // nearly every build never reads. A later stage's problem in one is located by reading the file
  // again (locateProblems, check-index.ts). Volumes are few, and invalid records are reported anyway.
  const keepPositions = !result.value || source.collection === 'volumes';
  const at: Record<string, Position> = keepPositions ? { '': parsed.locate([]) } : {};
  if (keepPositions) for (const field of LOCATED_FIELDS[source.collection]) at[field] = parsed.locate([field]);
  const authors = (parsed.data as { authors?: unknown }).authors;
  if (keepPositions && source.collection === 'manuscripts' && Array.isArray(authors)) {
    authors.forEach((_, i) => (at[`authors[${i}]`] = parsed.locate(['authors', i])));
  }
  const origin: Origin = { file: source.file, key: source.key, at, ...(hash ? { hash } : {}) };
  // A valid record may come with warnings (validate.ts, and an ISSN's check digit): printed, never fatal.
  if (result.value) {
    const warnings = issnWarningsOf(source.file, result.value, (field) => parsed.locate([field]));
    const record =
      source.collection === 'manuscripts'
        ? manuscriptRecord(result.value as ManuscriptInput, origin)
        : { ...(result.value as AuthorInput | VolumeInput), origin };
    return { record, problems: [...result.problems, ...warnings] };
  }
  return {
    problems: result.problems,
    invalid: { collection: source.collection, origin, ...salvage(source.collection, parsed.data) },
  };
}

/**
 * A valid manuscript as the build keeps it (records.ts): one that names its volume by `volume` has
 * its `citation_volume` resolved later, from the key; the number its file also writes is kept apart.
 */
function manuscriptRecord(value: ManuscriptInput, origin: Origin): ManuscriptRecord {
  if (value.volume === undefined) return { ...value, citation_volume: value.citation_volume!, origin };
  const { citation_volume: stated, ...rest } = value;
  return { ...rest, citation_volume: Number.NaN, ...(stated === undefined ? {} : { stated_volume: stated }), origin };
}

/** The id and the well-formed references of an invalid record (each field checked on its own). */
function salvage(
  collection: SourceFile['collection'],
  data: unknown,
): Pick<InvalidRecord, 'id' | 'label' | 'pdf' | 'references'> {
  if (collection === 'authors') return {};
  const schema = collection === 'volumes' ? volumeSchema : manuscriptSchema;
  const fieldValue = <K extends string>(key: K) => {
    const field = (schema.shape as Record<string, { safeParse(value: unknown): { success: boolean; data?: unknown } }>)[
      key
    ];
    const result = field?.safeParse((data as Record<string, unknown>)[key]);
    return result?.success ? result.data : undefined;
  };
  const id = fieldValue('id') as number | undefined;
  if (collection === 'volumes') {
    const label = fieldValue('citation_journal_title') as string | undefined;
    const pdf = fieldValue('pdf') as VolumeInput['pdf'] | undefined;
    return {
      ...(id === undefined ? {} : { id }),
      ...(label === undefined ? {} : { label }),
      ...(pdf === undefined ? {} : { pdf }),
    };
  }
  const references: InvalidRecord['references'] = {};
  const volume = fieldValue('citation_volume') as number | undefined;
  const volumeKey = fieldValue('volume') as string | undefined;
  const authors = fieldValue('authors') as string[] | undefined;
  const section = fieldValue('section') as string | undefined;
  const document = fieldValue('document') as ManuscriptInput['document'] | undefined;
  if (volume !== undefined) references.citation_volume = volume;
  if (volumeKey !== undefined) references.volume = volumeKey;
  if (authors !== undefined) references.authors = authors;
  if (section !== undefined) references.section = section;
  if (document !== undefined) references.document = document;
  return { ...(id === undefined ? {} : { id }), references };
}

async function readAndParse(
  file: string,
  absolutePath: string,
): Promise<{ parsed?: ParsedFile; problems: Problem[]; bytes?: Uint8Array }> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(absolutePath);
  } catch (error) {
    return { problems: [unreadable(file, error)] };
  }
  return { ...parseFile(file, bytes), bytes };
}

export function unreadable(file: string, error: unknown): Problem {
  return {
    code: 'io/unreadable',
    file,
    line: 0,
    column: 0,
    field: '',
    message: `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    expected: 'a readable file',
  };
}
