/**
 * Planned records as file text. YAML, like the files editors write, with no line folding (so no
 * value depends on a line width) and a comment on each author kept as published saying why.
 *
 * Every file is read back with the build's own parser and schema before it is written: if YAML
 * could not carry a value exactly, the file is written as JSON instead, which always can.
 */
import { isDeepStrictEqual } from 'node:util';
import { Document, isMap, isScalar, isSeq } from 'yaml';
import { parseFile } from '../generator/stages/parse.ts';
import { authorSchema, journalSchema, manuscriptSchema, volumeSchema } from '../generator/model/schema.ts';
import type { PlannedFile } from './plan.ts';

const SCHEMAS = {
  'journal.yaml': journalSchema,
  authors: authorSchema,
  volumes: volumeSchema,
  manuscripts: manuscriptSchema,
} as const;

export function renderContentFile(file: PlannedFile): { path: string; text: string } {
  const yaml = toYaml(file);
  if (readsBackAs(file.path, yaml, file.data)) return { path: file.path, text: yaml };
  const jsonPath = file.path.replace(/\.yaml$/, '.json');
  const json = `${JSON.stringify(file.data, null, 2)}\n`;
  if (readsBackAs(jsonPath, json, file.data)) return { path: jsonPath, text: json };
  // JSON carries every string exactly; reaching this line is a bug, not a user mistake.
  throw new Error(`${file.path}: the planned record does not survive being written and read back`);
}

function toYaml(file: PlannedFile): string {
  const document = new Document(file.data);
  const authors = document.get('authors', true);
  if (file.authorComments && isSeq(authors)) {
    for (const [index, comment] of Object.entries(file.authorComments)) {
      // On the value, so it reads on the same line: `- as_published: Ana Petrovska # why`.
      const item = authors.items[Number(index)];
      const value = isMap(item) ? item.get('as_published', true) : undefined;
      if (isScalar(value)) value.comment = ` ${comment}`;
    }
  }
  return document.toString({ lineWidth: 0, minContentWidth: 0 });
}

function readsBackAs(path: string, text: string, data: Record<string, unknown>): boolean {
  const { parsed } = parseFile(path, Buffer.from(text, 'utf8'));
  if (!parsed) return false;
  const schema =
    path === 'journal.yaml' || path === 'journal.json'
      ? SCHEMAS['journal.yaml']
      : SCHEMAS[path.slice(0, path.indexOf('/')) as keyof typeof SCHEMAS];
  const written = schema.safeParse(parsed.data);
  const planned = schema.safeParse(data);
  return written.success && planned.success && isDeepStrictEqual(written.data, planned.data);
}
