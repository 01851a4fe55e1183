/**
 * The editors' JSON Schemas (`npm run schema`, content/schemas/): the validator's schemas
 * (model/schema.ts) with the names that exist in the content offered for completion, so an
 * editor's YAML extension completes a section, an author key or a volume key as it is typed.
 *
 * Sections are a strict `enum` (the journal lists them; the build refuses any other). Author keys
 * and volume keys (each volume's file name and label, model/volume-keys.ts) are offered with
 * `anyOf` beside the plain shape: a new author or volume is not
 * flagged in the editor before the schemas are written again; the build checks every reference.
 * Sorted, so the same content always gives the same files.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { contentJsonSchemas } from './model/schema.ts';
import { parseFile } from './stages/parse.ts';
import { compareText } from '../shared/compare-text.ts';

export interface ContentChoices {
  sections: string[];
  authorKeys: string[];
  /** Each volume's file name without extension, then each one's label (`volume-v`, `Volume V`). */
  volumeKeys: string[];
}

const RECORD_FILE = /^(.+)\.(ya?ml|json)$/;

/** The sections, author keys and volume keys of a content folder; what cannot be read is left out. */
export async function readContentChoices(contentDir: string): Promise<ContentChoices> {
  const names = async (folder: string) =>
    (await readdir(path.join(contentDir, folder)).catch(() => [] as string[])).filter((name) => RECORD_FILE.test(name));
  const dataOf = async (file: string): Promise<Record<string, unknown> | undefined> => {
    const bytes = await readFile(path.join(contentDir, file)).catch(() => undefined);
    const data = bytes && parseFile(file, bytes).parsed?.data;
    return data && typeof data === 'object' ? (data as Record<string, unknown>) : undefined;
  };
  let sections: string[] = [];
  for (const name of ['journal.yaml', 'journal.yml', 'journal.json']) {
    const listed = (await dataOf(name))?.['sections'];
    if (Array.isArray(listed)) {
      sections = listed.filter((s): s is string => typeof s === 'string' && s !== '');
      break;
    }
  }
  const authorKeys = (await names('authors')).map((name) => RECORD_FILE.exec(name)![1]!);
  const volumeNames = await names('volumes');
  const volumeFiles = volumeNames.map((name) => RECORD_FILE.exec(name)![1]!);
  const volumeLabels: string[] = [];
  for (const name of volumeNames) {
    const label = (await dataOf(`volumes/${name}`))?.['citation_journal_title'];
    if (typeof label === 'string' && label !== '') volumeLabels.push(label);
  }
  const sortedUnique = (values: string[]) => [...new Set(values)].sort(compareText);
  return {
    // The journal's own order: the order editors know them in.
    sections: [...new Set(sections)],
    authorKeys: sortedUnique(authorKeys),
    volumeKeys: [...sortedUnique(volumeFiles), ...sortedUnique(volumeLabels)],
  };
}

type JsonObject = Record<string, unknown>;

export function editorJsonSchemas(choices: ContentChoices): Record<string, object> {
  const schemas = contentJsonSchemas();
  const manuscript = schemas['manuscript.schema.json'] as { properties: Record<string, JsonObject> };
  const { properties } = manuscript;
  if (choices.sections.length > 0) properties['section'] = { ...properties['section'], enum: choices.sections };
  if (choices.volumeKeys.length > 0) properties['volume'] = offer(properties['volume']!, choices.volumeKeys);
  const authors = properties['authors'] as { items: { anyOf: JsonObject[] } } | undefined;
  if (authors && choices.authorKeys.length > 0) {
    const [key, ...rest] = authors.items.anyOf;
    authors.items.anyOf = [offer(key!, choices.authorKeys), ...rest];
  }
  return schemas;
}

/** The values that exist, for completion, beside the shape any new one has. */
function offer(shape: JsonObject, values: string[]): JsonObject {
  const { description, ...rest } = shape;
  return {
    ...(description === undefined ? {} : { description }),
    anyOf: [{ enum: values }, rest],
  };
}
