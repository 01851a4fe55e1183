/**
 * How the web editor reads and writes a record's YAML file (its custom format, editor-script.ts):
 * a save changes the lines of the fields that were edited and nothing else. Comments (the schema
 * line and the lists `npm run new` writes), the file's field order, blank lines, quoting and block
 * style are the editor's, and a one-word fix to an abstract is a one-line diff. The CMS's own YAML
 * format writes the whole file again from the form's values, in the form's order.
 *
 * The CMS hands a format only the values, never the file: `readRecord` keeps the text it read
 * under SOURCE, a key no record can have (the schemas refuse unknown fields), and `writeRecord`
 * edits that text. Browser code and Node code both use this module (the tests run it directly).
 */
import { Document, isCollection, isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';

/** Where a record read by the editor keeps its file's text; never written to a file. */
export const SOURCE = '__file_text';

/** Keys the editor adds to a record for its own use (SOURCE, editor-script.ts's file name): never written. */
export const isEditorKey = (key: string): boolean => key.startsWith('__');

export type RecordData = Record<string, unknown>;

export function readRecord(text: string): RecordData {
  const document = parseDocument(text);
  if (document.errors.length > 0) throw document.errors[0]!;
  const data: unknown = document.toJS() ?? {};
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new Error('the file does not hold one record (field: value lines)');
  return { ...(data as RecordData), [SOURCE]: text };
}

/**
 * The record's file text: its previous text (SOURCE) with the fields whose value changed written
 * again, the fields no longer in `data` removed and new ones added where `order` (the form's field
 * order) puts them. Without a previous text (a new record), the fields in `order`.
 */
export function writeRecord(data: RecordData, order: readonly string[] = []): string {
  const values = Object.fromEntries(Object.entries(data).filter(([key]) => !isEditorKey(key)));
  const text = data[SOURCE];
  const lineCounter = new LineCounter();
  const previous = typeof text === 'string' ? parseDocument(text, { lineCounter }) : undefined;
  if (typeof text !== 'string' || !previous || previous.errors.length > 0 || !isMap(previous.contents))
    return newFile(values, order);

  const lineOf = (offset: number) => lineCounter.linePos(offset).line - 1;
  const lines = text.split('\n');
  const before = (previous.toJS() ?? {}) as RecordData;
  const indentSeq = !/^- /m.test(text);

  /** Each top-level field's lines in the file, first and last (0-based), in file order. */
  const fields = previous.contents.items.flatMap((pair) => {
    if (!isScalar(pair.key) || !pair.key.range) return [];
    const value = pair.value as Node | null;
    const end = value?.range ? value.range[1] : pair.key.range[1];
    return [
      { key: String(pair.key.value), first: lineOf(pair.key.range[0]), last: lineOf(Math.max(end - 1, 0)), value },
    ];
  });
  /** Replacement lines by a field's first line; `null` removes it. */
  const replaced = new Map<number, string[]>();
  for (const field of fields) {
    if (!(field.key in values)) replaced.set(field.first, []);
    else if (!equal(before[field.key], values[field.key]))
      replaced.set(field.first, fieldLines(field.key, values[field.key], field.value, indentSeq));
  }
  /** Lines of new fields, inserted before the line given (lines.length: at the end). */
  const inserted = new Map<number, string[]>();
  const known = new Set(fields.map((field) => field.key));
  for (const key of Object.keys(values)) {
    if (known.has(key)) continue;
    const next = fieldAfter(key, order, fields);
    const at = next ? next.first : endOfFields(lines, fields);
    inserted.set(at, [...(inserted.get(at) ?? []), ...fieldLines(key, values[key], null, indentSeq)]);
  }

  const out: string[] = [];
  for (let line = 0; line < lines.length; line++) {
    out.push(...(inserted.get(line) ?? []));
    const field = fields.find((candidate) => candidate.first === line);
    const replacement = replaced.get(line);
    if (field && replacement) {
      out.push(...replacement);
      line = field.last;
    } else out.push(lines[line]!);
  }
  out.push(...(inserted.get(lines.length) ?? []));
  return out.join('\n');
}

/** The first field already in the file that `order` puts after `key`. */
function fieldAfter<F extends { key: string }>(key: string, order: readonly string[], fields: F[]): F | undefined {
  const position = order.indexOf(key);
  if (position < 0) return undefined;
  const later = new Set(order.slice(position + 1));
  return fields.find((field) => later.has(field.key));
}

/** Where lines are added at the end: after the last field (before a final empty line). */
function endOfFields(lines: string[], fields: { last: number }[]): number {
  const last = fields.at(-1)?.last;
  return last === undefined ? (lines.at(-1) === '' ? lines.length - 1 : lines.length) : last + 1;
}

/** `key: value` as YAML lines, in the style of the value it replaces (quotes, block, flow). */
function fieldLines(key: string, value: unknown, old: Node | null, indentSeq: boolean): string[] {
  const document = new Document({ [key]: value });
  const pair = (document.contents as { items: { value: unknown }[] }).items[0]!;
  const node = pair.value;
  if (old && isScalar(old) && isScalar(node) && typeof old.value === typeof node.value) node.type = old.type;
  if (old && isCollection(old) && isSeq(node) && isSeq(old)) node.flow = old.flow ?? false;
  return document.toString({ lineWidth: 0, indentSeq, flowCollectionPadding: false }).replace(/\n$/, '').split('\n');
}

function newFile(values: RecordData, order: readonly string[]): string {
  const rank = (key: string) => (order.includes(key) ? order.indexOf(key) : order.length);
  const sorted = Object.keys(values).sort((a, b) => rank(a) - rank(b));
  return sorted.flatMap((key) => fieldLines(key, values[key], null, true)).join('\n') + '\n';
}

function equal(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => equal(item, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length &&
      keys.every((key) => equal((a as RecordData)[key], (b as RecordData)[key]))
    );
  }
  return a === b;
}
