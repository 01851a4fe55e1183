/**
 * The long fields of a manuscript restored from the check index by a build (a build
 * after one edit reads no whole records, only the index's columns). The file is read and loaded
 * again, exactly as the load stage did, when a renderer first asks for one of them: after an edit,
 * for the pages and list items that changed. Its bytes must still be the ones the index recorded.
 */
import { readFileSync } from 'node:fs';
import { loadRecordFrom } from '../../stages/load.ts';
import { type ManuscriptRecord } from '../../model/records.ts';
import { contentHash } from './load-job.ts';
import { splitManuscript, type FileBacked, type PackedValues } from './packed-manuscript.ts';

export function rereadManuscript({ source, hash }: FileBacked): PackedValues {
  const bytes = readFileSync(source.absolutePath);
  // Changed between the stamp that let the build trust the index and now: its outputs' keys were
  // worked out from the old bytes, so nothing written from the new ones could be trusted.
  if (contentHash(bytes) !== hash) throw new Error(`${source.file} changed while the build was running; build again`);
  const record = loadRecordFrom(source, bytes, hash).record as ManuscriptRecord | undefined;
  if (!record)
    throw new Error(`${source.file} no longer loads as it did when the build cache recorded it; build again`);
  return splitManuscript(record).values;
}
