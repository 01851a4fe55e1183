/**
 * What a new record is made from: the journal's sections, its volumes, the manuscripts' highest id
 * and the authors' keys, read from content/ as it is now. Volumes are few and parsed whole; a
 * manuscript's id is found by its line (at 100,000 manuscripts, parsing every file would take a
 * minute), and the file is parsed only when the line is not there.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { CONTENT_EXTENSIONS, keyOf } from '../generator/stages/discover.ts';
import { VOLUME_LABEL, romanToNumber } from '../generator/model/formats.ts';

export interface VolumeFact {
  /** The file's name without extension: the key a manuscript names it by (`volume: volume-v`). */
  key: string;
  id: number;
  label: string;
  numeral: number;
  fullDate: string;
  udc: string;
}

export interface JournalFacts {
  sections: string[];
  volumes: VolumeFact[];
  /** The highest manuscript id (0 when there is none). */
  lastManuscriptId: number;
  authorKeys: Set<string>;
  /** Every file name taken in each collection's folder, without extension. */
  taken(collection: 'authors' | 'volumes' | 'manuscripts'): Set<string>;
}

export async function readJournalFacts(contentDir: string): Promise<JournalFacts> {
  const names = async (collection: string) =>
    (await readdir(path.join(contentDir, collection)).catch(() => [] as string[])).filter((name) =>
      CONTENT_EXTENSIONS.some((extension) => name.endsWith(extension)),
    );
  const [authorFiles, volumeFiles, manuscriptFiles] = await Promise.all(
    ['authors', 'volumes', 'manuscripts'].map(names),
  );
  const journal = (await readData(path.join(contentDir, 'journal.yaml'))) as { sections?: unknown } | undefined;
  const sections = Array.isArray(journal?.sections) ? journal.sections.map(String) : [];

  const volumes: VolumeFact[] = [];
  for (const name of volumeFiles!) {
    const data = (await readData(path.join(contentDir, 'volumes', name))) as Record<string, unknown> | undefined;
    const label = String(data?.['citation_journal_title'] ?? '');
    const numeral = VOLUME_LABEL.exec(label)?.[1];
    if (typeof data?.['id'] !== 'number') continue;
    volumes.push({
      key: keyOf(name),
      id: data['id'],
      label,
      numeral: numeral ? romanToNumber(numeral) : 0,
      fullDate: String(data['full_date'] ?? ''),
      udc: String(data['udc'] ?? ''),
    });
  }
  // In the order they appeared: by numeral (ids need not follow it).
  volumes.sort((a, b) => a.numeral - b.numeral || a.id - b.id);

  let lastManuscriptId = 0;
  for (const name of manuscriptFiles!) {
    const id = await manuscriptId(path.join(contentDir, 'manuscripts', name));
    if (id !== undefined && id > lastManuscriptId) lastManuscriptId = id;
  }
  const keys = {
    authors: new Set(authorFiles!.map(keyOf)),
    volumes: new Set(volumeFiles!.map(keyOf)),
    manuscripts: new Set(manuscriptFiles!.map(keyOf)),
  };
  return { sections, volumes, lastManuscriptId, authorKeys: keys.authors, taken: (collection) => keys[collection] };
}

async function readData(file: string): Promise<unknown> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    return file.endsWith('.json') ? JSON.parse(text) : parse(text);
  } catch {
    // A broken file is `check`'s to report; the new record is made from the others.
    return undefined;
  }
}

async function manuscriptId(file: string): Promise<number | undefined> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const line = (file.endsWith('.json') ? /"id"\s*:\s*(\d+)/ : /^id:[ \t]*(\d+)[ \t]*(?:#.*)?$/m).exec(text);
  if (line) return Number(line[1]);
  const data = (await readData(file)) as { id?: unknown } | undefined;
  return typeof data?.id === 'number' ? data.id : undefined;
}
