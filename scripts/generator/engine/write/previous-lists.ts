/** The previous build's list files, when they are still the files their tables describe. */
import { lstatSync } from 'node:fs';

import type { OutputFile } from '../../../shared/output-file.ts';

import { sameStamp, stampOfStat, type FileStamp } from '../scan/stat-many.ts';

import { tableBytes, type ListTable } from './list-items.ts';
import { type PreviousListFile } from './list-writer.ts';

import { PRECOMPRESSED } from './reusable-files.ts';

/**
 * The previous build's files of a list, when they still are the files its table describes: same
 * stamp (the previous output's files are only ever replaced, never modified), and for the list the
 * size the table adds up to. Otherwise every item is rendered (and a twin's every segment
 * compressed). The list writer checks the stamps again as it opens them.
 */
export function previousListFile(
  file: string,
  table: ListTable | undefined,
): { table: ListTable; files: PreviousListFile } | undefined {
  if (!table || !hasStamp(file, table.stamps[0]) || table.stamps[0]!.size !== tableBytes(table)) return undefined;
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
