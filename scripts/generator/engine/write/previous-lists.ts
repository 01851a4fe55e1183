/** The previous build's list files, when they are still the files their tables describe. */
import { closeSync, lstatSync, openSync, readSync } from 'node:fs';
import { JSON_ARRAY, type ListFraming, type OutputFile } from '../../../shared/output-file.ts';
import { sameStamp, stampOfStat, type FileStamp } from '../scan/stat-many.ts';
import { tableBytes, type ListTable } from './list-items.ts';
import type { PreviousListFile } from './list-writer.ts';
import { PRECOMPRESSED } from '../../../shared/output-file.ts';

/**
 * The previous build's files of a list, when they still are the files its table describes: same
 * stamp (the previous output's files are only ever replaced, never modified), and for the list the
 * size the table adds up to, framed by `framing` (the list's). Otherwise every item is rendered (and a
 * twin's every segment compressed). The list writer checks the stamps again as it opens them.
 */
export function previousListFile(
  file: string,
  table: ListTable | undefined,
  framing: ListFraming,
): { table: ListTable; files: PreviousListFile } | undefined {
  if (!table || !hasStamp(file, table.stamps[0]) || table.stamps[0]!.size !== tableBytes(table, framing))
    return undefined;
  // The twins' stamps follow the list's, in the order of PRECOMPRESSED.
  const twins = PRECOMPRESSED.flatMap((suffix, i) => {
    const segments = table.twins?.[suffix];
    const stamp = table.stamps[i + 1];
    return segments && hasStamp(`${file}${suffix}`, stamp)
      ? [{ suffix, file: `${file}${suffix}`, stamp: stamp!, table: segments }]
      : [];
  });
  return { table, files: { file, stamp: table.stamps[0]!, twins } };
}

/** Whether `file` is a file that still has the stamp recorded for it (the build's own outputs are replaced, never modified). */
export function hasStamp(file: string, stamp: FileStamp | undefined): boolean {
  const stat = lstatSync(file, { throwIfNoEntry: false });
  return stamp !== undefined && stat?.isFile() === true && sameStamp(stampOfStat(stat), stamp);
}

/** A body as chunks of bytes: a list's chunks one by one, any other body as one chunk. */
export function* chunksOf(body: OutputFile['body']): Iterable<Uint8Array[]> {
  if (typeof body === 'function') for (const chunk of body()) yield [Buffer.from(String(chunk), 'utf8')];
  else yield [typeof body === 'string' ? Buffer.from(body, 'utf8') : body];
}

/**
 * How many items the JSON array in `file` holds, read in slices and counted without parsing it (a
 * 216 MB list parsed whole would take a build over its memory). Undefined when there is no such
 * file or it is not one array, and for a list framed otherwise (`framing`, the list's): a separator
 * may occur inside an item, and only a JSON scanner tells the two apart. Such a list's items are
 * counted by the table the build cache keeps of it, or not at all.
 */
export function countListItems(file: string, framing: ListFraming = JSON_ARRAY): number | undefined {
  if (!isJsonArray(framing)) return undefined;
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const slice = Buffer.allocUnsafe(1 << 20);
    let depth = 0;
    let inString = false;
    let escaped = false;
    let commas = 0;
    let any = false;
    let opened = false;
    for (let read = readSync(fd, slice); read > 0; read = readSync(fd, slice)) {
      for (let i = 0; i < read; i++) {
        const c = slice[i]!;
        if (inString) {
          if (escaped) escaped = false;
          else if (c === BACKSLASH) escaped = true;
          else if (c === QUOTE) inString = false;
          continue;
        }
        if (c === SPACE || c === NEWLINE || c === TAB || c === RETURN) continue;
        if (depth === 0) {
          if (opened || c !== OPEN_ARRAY) return undefined;
          opened = true;
          depth = 1;
          continue;
        }
        if (depth === 1 && c === COMMA) commas++;
        else if (depth === 1 && c !== CLOSE_ARRAY) any = true;
        if (c === QUOTE) inString = true;
        else if (c === OPEN_ARRAY || c === OPEN_OBJECT) depth++;
        else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
      }
    }
    return opened && depth === 0 ? (any ? commas + 1 : 0) : undefined;
  } finally {
    closeSync(fd);
  }
}

/** Whether `framing` is the JSON array's. */
function isJsonArray({ open, separator, close }: ListFraming): boolean {
  return open === JSON_ARRAY.open && separator === JSON_ARRAY.separator && close === JSON_ARRAY.close;
}

const [BACKSLASH, QUOTE, SPACE, NEWLINE, TAB, RETURN, COMMA, OPEN_ARRAY, CLOSE_ARRAY, OPEN_OBJECT, CLOSE_OBJECT] = [
  '\\',
  '"',
  ' ',
  '\n',
  '\t',
  '\r',
  ',',
  '[',
  ']',
  '{',
  '}',
].map((c) => c.charCodeAt(0));
