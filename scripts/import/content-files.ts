/**
 * Planned records as file text. YAML, like the files editors write, with no line folding (so no
 * value depends on a line width) and a comment on each author kept as published saying why.
 *
 * A text that holds a tab, a carriage return, a control character, NEL, U+2028 or U+2029 is written
 * double-quoted with escapes (`"a\tb"`, `"\u2028"`): YAML 1.1 readers (PyYAML among them) refuse a
 * tab in a plain text, read NEL, U+2028 and U+2029 as line breaks and refuse DEL and the C1
 * controls, so any other form is read differently, or not at all, by some reader.
 *
 * Every file is read back with the build's own parser before it is written: if YAML
 * could not carry a value exactly, the file is written as JSON instead, which always can.
 */
import { isDeepStrictEqual } from 'node:util';
import { Document, isMap, isScalar, isSeq, visit } from 'yaml';
import { parseFile } from '../generator/stages/parse.ts';
import type { PlannedFile } from './plan.ts';

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
  // The escaped texts are put in after the yaml package has written the rest: it writes NEL,
  // U+2028, U+2029, DEL and the C1 controls as they are, even inside double quotes.
  const escaped: string[] = [];
  const token = uniqueToken(file);
  visit(document, {
    Scalar(_key, node) {
      if (typeof node.value !== 'string' || !NEEDS_ESCAPES.test(node.value)) return;
      node.value = `${token}${escaped.push(doubleQuoted(node.value)) - 1}x`;
    },
  });
  const text = document.toString({ lineWidth: 0, minContentWidth: 0 });
  return escaped.length === 0 ? text : text.replace(new RegExp(`${token}(\\d+)x`, 'g'), (_, i) => escaped[Number(i)]!);
}

/** Characters some YAML reader does not read back as they are outside a double-quoted escape. */
const NEEDS_ESCAPES = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/;

/**
 * A YAML double-quoted scalar on one line: JSON's escapes (`\t`, `\n`, `\"`, `\u0001`), which YAML
 * 1.1 and 1.2 read alike, and `\uXXXX` for the characters JSON leaves as they are.
 */
function doubleQuoted(value: string): string {
  return JSON.stringify(value).replace(
    /[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** A plain word that no value of the record holds, to stand for an escaped text while the rest is written. */
function uniqueToken(file: PlannedFile): string {
  const all = JSON.stringify([file.data, file.authorComments]);
  let token = 'escapedtext';
  while (all.includes(token)) token += 'z';
  return token;
}

/**
 * Whether the file holds the planned record's values exactly: every text as it was planned (a
 * number as the text YAML's failsafe reading gives). Compared before any schema reads them, so a
 * record the build refuses (written all the same, for an editor to fix) is checked as strictly.
 */
function readsBackAs(path: string, text: string, data: Record<string, unknown>): boolean {
  const { parsed } = parseFile(path, Buffer.from(text, 'utf8'));
  return parsed !== undefined && isDeepStrictEqual(asTexts(parsed.data), asTexts(data));
}

function asTexts(value: unknown): unknown {
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return value.map(asTexts);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, asTexts(v)]),
    );
  return value;
}
