/**
 * The entries a store between runs would keep for a journal, made in memory for store-candidates.ts:
 * per content file its path, stamp, content hash and record as the load stage gives it (loaded by
 * the project's own loader from the synthetic journal's text, imported shape), the positions of its
 * fields, and for a manuscript its long fields as the build packs them; per PDF its path and stamp.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import v8 from 'node:v8';
import { packManuscript } from '../generator/engine/load/packed-manuscript.ts';
import { contentHash } from '../generator/engine/load/load-job.ts';
import { loadRecordFrom, type Loaded } from '../generator/stages/load.ts';
import type { CollectionName } from '../generator/model/schema.ts';
import {
  importedAuthor,
  importedManuscript,
  importedVolume,
  importedVolumeStarts,
  renderImportedJournal,
} from './synthetic-imported.ts';
import { syntheticSizes } from './synthetic-journal.ts';
import { random } from './synthetic-records.ts';

/** One content file's entry: what a store between runs keeps of it. */
export interface StoreEntry {
  collection: CollectionName | 'media';
  /** The file's name in its collection's folder. */
  name: string;
  /** size, mtimeMs, ino. */
  stamp: [number, number, number];
  /** '' for a PDF. */
  hash: string;
  /** The record without its long fields; undefined for a PDF. */
  loaded?: Loaded;
  /** Line and column of each top-level field, in pairs; empty for a PDF. */
  positions: Uint32Array;
  /** A manuscript's long fields, packed as the build packs them (packed-manuscript.ts). */
  long?: Uint8Array;
  /** The file's bytes, for a manuscript only (today's rereading of the long fields needs the file). */
  text?: string;
}

export const FOLDERS: Record<StoreEntry['collection'], string> = {
  authors: 'content/authors/',
  volumes: 'content/volumes/',
  manuscripts: 'content/manuscripts/',
  media: 'content/media/',
};

export const pathOf = (entry: Pick<StoreEntry, 'collection' | 'name'>) => FOLDERS[entry.collection] + entry.name;

/** The files as a content scan dates them (2024-01-01), old enough for their stamps to be trusted. */
const MTIME = Date.UTC(2024, 0, 1);

/**
 * The entries of a journal of `manuscripts` manuscripts with 1.5 authors each (350,000 files at
 * 100,000), each collection sorted by name as a folder's listing is.
 */
export function makeEntries(manuscripts: number): StoreEntry[] {
  const sizes = syntheticSizes({ manuscripts, shape: 'imported', authors: Math.round(manuscripts * 1.5) });
  const journal = renderImportedJournal(sizes.seed);
  let ino = 1000;
  const entry = (collection: CollectionName, name: string, text: string): StoreEntry => {
    const bytes = Buffer.from(text, 'utf8');
    const hash = contentHash(bytes);
    const loaded = loadRecordFrom(
      { collection, key: name.replace(/\.yaml$/, ''), file: FOLDERS[collection] + name },
      bytes,
      hash,
    );
    const made: StoreEntry = {
      collection,
      name,
      stamp: [bytes.length, MTIME, ino++],
      hash,
      loaded,
      positions: fieldPositions(text),
    };
    if (collection === 'manuscripts' && loaded.record && loaded.problems.length === 0) {
      const { slim, packed } = packManuscript(loaded.record as Parameters<typeof packManuscript>[0]);
      made.loaded = { ...loaded, record: slim as Loaded['record'] };
      made.long = packed;
      made.text = text;
    }
    return made;
  };
  const authors = Array.from({ length: sizes.authors }, (_, i) => importedAuthor(sizes.seed, i));
  const authorKeys = authors.map((author) => author.key);
  const entries: StoreEntry[] = [];
  for (const author of authors) entries.push(entry('authors', `${author.key}.yaml`, author.text));
  const media: StoreEntry[] = [];
  const pdf = (pdfPath: string): StoreEntry => ({
    collection: 'media',
    name: pdfPath,
    stamp: [between(2_000, 9_000_000, ino), MTIME, ino++],
    hash: '',
    positions: new Uint32Array(0),
  });
  for (let v = 1; v <= sizes.volumes; v++) {
    const volume = importedVolume(sizes, v);
    entries.push(entry('volumes', `${volume.key}.yaml`, volume.text));
    media.push(pdf(volume.pdfPath));
  }
  const starts = importedVolumeStarts(sizes);
  for (let i = 0; i < sizes.manuscripts; i++) {
    const manuscript = importedManuscript(sizes, i, authorKeys, journal.sections, starts);
    entries.push(entry('manuscripts', `${manuscript.key}.yaml`, manuscript.text));
    media.push(pdf(manuscript.pdfPath));
  }
  entries.push(...media);
  const order = ['authors', 'volumes', 'manuscripts', 'media'];
  return entries.sort(
    (a, b) =>
      order.indexOf(a.collection) - order.indexOf(b.collection) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
}

/** A PDF's size, the same for the same inode. */
function between(low: number, high: number, seed: number): number {
  return low + Math.floor(random(1, 99, seed)() * (high - low));
}

/** Line and column (from 1) of each top-level field, as a record's positions would keep them. */
function fieldPositions(text: string): Uint32Array {
  const positions: number[] = [];
  text.split('\n').forEach((line, row) => {
    if (/^[a-z_]+:/.test(line)) positions.push(row + 1, 1);
  });
  return Uint32Array.from(positions);
}

/** `count` distinct manuscripts, the same ones for every candidate. */
export function pickManuscripts(entries: readonly StoreEntry[], count: number): StoreEntry[] {
  const manuscripts = entries.filter((entry) => entry.long !== undefined);
  const rnd = random(7, 98, manuscripts.length);
  const picked = new Set<number>();
  while (picked.size < Math.min(count, manuscripts.length)) picked.add(Math.floor(rnd() * manuscripts.length));
  return [...picked].map((i) => manuscripts[i]!);
}

export function saveEntries(file: string, entries: readonly StoreEntry[]): void {
  writeFileSync(file, v8.serialize(entries));
}

export function readEntries(file: string): StoreEntry[] {
  return v8.deserialize(readFileSync(file)) as StoreEntry[];
}
