/**
 * Stages 2 and 3 for one file: read, parse, validate, and keep only a compact record (the parsed
 * document is dropped as soon as the file is done, so memory grows with the records, not the files).
 * Positions of the fields that later stages check are kept so their problems can point at a line.
 */
import { readFile } from 'node:fs/promises';
import type { SourceFile } from './discover.ts';
import { parseFile, type ParsedFile, type Position } from './parse.ts';
import type { Problem } from './problems.ts';
import {
  authorSchema, journalSchema, manuscriptSchema, volumeSchema,
  type AuthorInput, type JournalInput, type ManuscriptInput, type VolumeInput,
} from './schema.ts';
import { validate } from './validate.ts';

export interface Origin {
  file: string;
  key: string;
  /** Positions of fields that the resolve and media stages check (`authors[2]`, `citation_volume`, ...). */
  at: Record<string, Position>;
}

export type AuthorRecord = AuthorInput & { origin: Origin };
export type VolumeRecord = VolumeInput & { origin: Origin };
export type ManuscriptRecord = ManuscriptInput & { origin: Origin };

export interface Records {
  authors: AuthorRecord[];
  volumes: VolumeRecord[];
  manuscripts: ManuscriptRecord[];
}

const LOCATED_FIELDS = {
  authors: ['name'],
  volumes: ['id', 'citation_journal_title', 'citation_issn', 'last_page', 'pdf'],
  manuscripts: ['id', 'citation_volume', 'section', 'document'],
} as const;

export async function loadJournal(file: string, absolutePath: string): Promise<{ journal?: JournalInput; problems: Problem[] }> {
  const parsed = await readAndParse(file, absolutePath);
  if (!parsed.parsed) return { problems: parsed.problems };
  const result = validate(parsed.parsed, journalSchema);
  return result.value ? { journal: Object.freeze(result.value), problems: [] } : { problems: result.problems };
}

export async function loadRecord(source: SourceFile): Promise<{ record?: AuthorRecord | VolumeRecord | ManuscriptRecord; problems: Problem[] }> {
  const { parsed, problems } = await readAndParse(source.file, source.absolutePath);
  if (!parsed) return { problems };
  const schema = source.collection === 'authors' ? authorSchema : source.collection === 'volumes' ? volumeSchema : manuscriptSchema;
  const result = validate(parsed, schema);
  if (!result.value) return { problems: result.problems };
  const at: Record<string, Position> = { '': parsed.locate([]) };
  for (const field of LOCATED_FIELDS[source.collection]) at[field] = parsed.locate([field]);
  if (source.collection === 'manuscripts') {
    (result.value as ManuscriptInput).authors.forEach((_, i) => (at[`authors[${i}]`] = parsed.locate(['authors', i])));
  }
  return { record: { ...result.value, origin: { file: source.file, key: source.key, at } }, problems: [] };
}

async function readAndParse(file: string, absolutePath: string): Promise<{ parsed?: ParsedFile; problems: Problem[] }> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(absolutePath);
  } catch (error) {
    return { problems: [{ code: 'io/unreadable', file, line: 0, column: 0, field: '', message: `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`, expected: 'a readable file' }] };
  }
  return parseFile(file, bytes);
}
