/**
 * The candidates store-candidates.ts measures, each behind the same few operations a build would
 * use: write entries in transactions, read every file's stamp and hash, read one
 * record, read a manuscript's long fields. `today` is the build cache as it is: the check index and
 * media.bin written and read whole by the project's own code, long fields read again from the files.
 *
 * lmdb and better-sqlite3 are loaded from the project's node_modules, or from a folder given with
 * --modules (better-sqlite3 compiles from source at install: see docs/store.md).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import v8 from 'node:v8';
import { writeVerifiedMedia, readVerifiedMedia, type RecordEntry } from '../generator/engine/cache/cache.ts';
import { readCheckIndex } from '../generator/engine/cache/check-index.ts';
import { writeCheckIndex } from '../generator/engine/cache/check-index-write.ts';
import { rereadManuscript } from '../generator/engine/load/reread.ts';
import type { Discovery } from '../generator/stages/discover.ts';
import { NameList } from '../generator/stages/listing.ts';
import { SourceFiles } from '../generator/stages/source-files.ts';
import type { CollectionName } from '../generator/model/schema.ts';
import { FOLDERS, pathOf, type StoreEntry } from './store-dataset.ts';

export const CANDIDATES = ['today', 'lmdb', 'sqlite'] as const;
export type CandidateName = (typeof CANDIDATES)[number];

/** What each step needs to know of the entries without holding them: the paths it reads. */
export interface Probe {
  /** One manuscript's path, to read and update. */
  one: string;
  /** The manuscripts whose long fields a build after an author edit reads again. */
  many: string[];
}

export interface Candidate {
  write(dir: string, entries: readonly StoreEntry[]): void;
  /** Opens the store and reads every file's stamp and hash; returns how many. */
  readStamps(dir: string): number;
  /** Opens the store and reads one file's stamp and record. */
  readOne(dir: string, file: string): unknown;
  /** Replaces one file's entry (an edit). */
  updateOne(dir: string, entry: StoreEntry, all: () => readonly StoreEntry[]): void;
  /** Reads the long fields of `files` (whose hashes the index gives) from the store, or from `content`. */
  readLong(dir: string, files: readonly string[], content: string, hashes: ReadonlyMap<string, string>): number;
  /** Opens the store and reads one stamp: the least a `check` pays for it. */
  open(dir: string, file: string): unknown;
  /** What the step has before it starts and is not timed (today: the listing a content scan gives). */
  before?(dir: string): void;
}

const FINGERPRINT = 'store-candidates';

/** The package a candidate needs, when it is not installed (better-sqlite3 is not a dependency: docs/store.md). */
export function missingPackage(name: CandidateName, modules: string | undefined): string | undefined {
  if (name === 'today') return undefined;
  const wanted = name === 'lmdb' ? 'lmdb' : 'better-sqlite3';
  try {
    createRequire(path.join(modules ?? process.cwd(), 'package.json')).resolve(wanted);
    return undefined;
  } catch {
    return wanted;
  }
}

export function loadCandidate(name: CandidateName, modules: string | undefined): Candidate {
  if (name === 'today') return todayCandidate();
  const require = createRequire(path.join(modules ?? process.cwd(), 'package.json'));
  return name === 'lmdb'
    ? lmdbCandidate(require('lmdb') as LmdbModule)
    : sqliteCandidate(require('better-sqlite3') as SqliteModule);
}

// ---- today: the check index, media.bin, and the files read again

const COLLECTIONS: CollectionName[] = ['authors', 'volumes', 'manuscripts'];

/** The discovery a content scan would give for these entries' files (sorted as listed). */
function discoveryOf(names: Record<CollectionName, string[]>, content: string): Discovery {
  const folders = COLLECTIONS.map((collection) => ({
    collection,
    names: new NameList(names[collection]),
    filePrefix: FOLDERS[collection],
    absolutePrefix: path.join(content, collection) + '/',
    extension: '.yaml',
  }));
  const files = new SourceFiles(folders);
  const listed = Object.fromEntries(folders.map((folder) => [folder.collection, folder.names.joined]));
  return { files, listed, stats: undefined } as unknown as Discovery;
}

function namesOf(entries: readonly StoreEntry[]): Record<CollectionName, string[]> {
  const names: Record<CollectionName, string[]> = {
    authors: [],
    volumes: [],
    manuscripts: [],
  };
  for (const entry of entries) if (entry.collection !== 'media') names[entry.collection].push(entry.name);
  return names;
}

/** The listing is kept beside the index by the bench alone: a real check has it from its scan. */
export const LISTING = 'listing.bin';

function todayCandidate(): Candidate {
  /** The discovery a check has from its content scan before it reads the index (not timed). */
  let listing: Discovery | undefined;
  const openToday = (dir: string) => {
    const index = readCheckIndex(dir, FINGERPRINT, 'check');
    if (!index || !listing) throw new Error(`no check index or listing in ${dir}`);
    return { aligned: index.align(listing.files, listing.listed), sources: listing.files };
  };
  const today: Candidate = {
    write(dir, entries) {
      const records = entries.filter((entry) => entry.collection !== 'media');
      const media = entries.filter((entry) => entry.collection === 'media');
      const found = discoveryOf(namesOf(records), '');
      const recordEntries: RecordEntry[] = records.map((entry) => ({
        file: pathOf(entry),
        stamp: {
          size: entry.stamp[0],
          mtimeMs: entry.stamp[1],
          ino: entry.stamp[2],
        },
        hash: entry.hash,
        loaded: entry.loaded!,
      }));
      writeCheckIndex(dir, FINGERPRINT, found, recordEntries);
      writeVerifiedMedia(dir, FINGERPRINT, {
        paths: media.map((entry) => entry.name).join('\n'),
        stamps: Float64Array.from(media.flatMap((entry) => entry.stamp)),
      });
    },
    readStamps(dir) {
      const { aligned } = openToday(dir);
      const media = readVerifiedMedia(dir, FINGERPRINT)!;
      return aligned.stamps.length / 3 + media.stamps.length / 3;
    },
    readOne(dir, file) {
      const { aligned, sources } = openToday(dir);
      const name = file.slice(FOLDERS.manuscripts.length);
      return aligned.entry(sources.indexOfKey('manuscripts', name.replace(/\.yaml$/, '')));
    },
    updateOne(dir, _entry, all) {
      // Today an edited file's entry waits for 50 stale ones; then the whole index is written again.
      today.write(dir, all());
    },
    readLong(_dir, files, content, hashes) {
      let bytes = 0;
      for (const file of files) {
        const name = file.slice(FOLDERS.manuscripts.length);
        const source = {
          collection: 'manuscripts' as const,
          key: name.replace(/\.yaml$/, ''),
          file,
          name,
          absolutePath: path.join(content, 'manuscripts', name),
        };
        const hash = hashes.get(file)!;
        bytes += (rereadManuscript({ source, hash }).abstract ?? '').length;
      }
      return bytes;
    },
    open(dir, file) {
      return today.readOne(dir, file);
    },
    before(dir) {
      const names = v8.deserialize(readFileSync(path.join(dir, LISTING))) as Record<CollectionName, string[]>;
      listing = discoveryOf(names, '');
      for (const collection of COLLECTIONS) void listing.listed[collection]?.length;
    },
  };
  return today;
}

export function writeTodayListing(dir: string, entries: readonly StoreEntry[]): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, LISTING), v8.serialize(namesOf(entries)));
}

// ---- lmdb: three named databases in one environment

interface LmdbDatabase {
  get(key: string): unknown;
  getBinary(key: string): Buffer | undefined;
  putSync(key: string, value: unknown): boolean;
  getRange(options?: object): Iterable<{ key: string; value: Buffer }>;
  openDB(options: { name: string; encoding?: string }): LmdbDatabase;
  transactionSync<T>(action: () => T): T;
  close(): void;
}
interface LmdbModule {
  open(options: { path: string; compression?: boolean; noReadAhead?: boolean }): LmdbDatabase;
}

/** A stamp as 24 bytes (size, mtimeMs, ino) and the hash's ASCII after them. */
function stampBytes(entry: StoreEntry): Buffer {
  const bytes = Buffer.alloc(24 + entry.hash.length);
  bytes.writeDoubleLE(entry.stamp[0], 0);
  bytes.writeDoubleLE(entry.stamp[1], 8);
  bytes.writeDoubleLE(entry.stamp[2], 16);
  bytes.write(entry.hash, 24, 'latin1');
  return bytes;
}

/** Reads a stamp back, as the build would compare it. */
function readStamp(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return view.getFloat64(0, true) + view.getFloat64(8, true) + view.getFloat64(16, true) + bytes.length;
}

/**
 * Each collection's stamps, hashes and names as one value, as the check index keeps them today
 * (`stamps:<collection>`): a check then reads four values, not one entry per file.
 */
export function stampColumns(entries: readonly StoreEntry[]): [string, Buffer][] {
  const groups = new Map<string, StoreEntry[]>();
  for (const entry of entries) {
    const group = groups.get(entry.collection);
    if (group) group.push(entry);
    else groups.set(entry.collection, [entry]);
  }
  return [...groups].map(([collection, group]) => {
    const stamps = Buffer.alloc(4 + group.length * 24);
    stamps.writeUInt32LE(group.length, 0);
    group.forEach((entry, i) => entry.stamp.forEach((field, f) => stamps.writeDoubleLE(field, 4 + i * 24 + f * 8)));
    const texts = Buffer.from(
      `${group.map((entry) => entry.hash).join('')}\0${group.map((entry) => entry.name).join('\0')}`,
    );
    return [`stamps:${collection}`, Buffer.concat([stamps, texts])];
  });
}

/** Entries written per transaction by a cold build. */
const LMDB_BATCH = 10_000;

function lmdbCandidate(lmdb: LmdbModule): Candidate {
  const openAll = (dir: string) => {
    const root = lmdb.open({
      path: path.join(dir, 'store.lmdb'),
      compression: false,
    });
    return {
      root,
      stamps: root.openDB({ name: 'stamps', encoding: 'binary' }),
      records: root.openDB({ name: 'records' }),
      long: root.openDB({ name: 'long', encoding: 'binary' }),
      columns: root.openDB({ name: 'columns', encoding: 'binary' }),
    };
  };
  const put = (store: ReturnType<typeof openAll>, entry: StoreEntry) => {
    const file = pathOf(entry);
    store.stamps.putSync(file, stampBytes(entry));
    if (entry.loaded)
      store.records.putSync(file, {
        loaded: entry.loaded,
        positions: Buffer.from(entry.positions.buffer, entry.positions.byteOffset, entry.positions.byteLength),
      });
    if (entry.long) store.long.putSync(file, entry.long);
  };
  return {
    write(dir, entries) {
      const store = openAll(dir);
      // LMDB holds a write transaction's pages in memory until it commits: a cold build would
      // commit in batches, as here.
      for (let start = 0; start < entries.length; start += LMDB_BATCH)
        store.root.transactionSync(() =>
          entries.slice(start, start + LMDB_BATCH).forEach((entry) => put(store, entry)),
        );
      store.root.transactionSync(() => {
        for (const [key, value] of stampColumns(entries)) store.columns.putSync(key, value);
      });
      store.root.close();
    },
    readStamps(dir) {
      const store = openAll(dir);
      let count = 0;
      let sum = 0;
      for (const { value } of store.stamps.getRange()) {
        sum += readStamp(value);
        count++;
      }
      store.root.close();
      return sum > 0 ? count : 0;
    },
    readOne(dir, file) {
      const store = openAll(dir);
      const found = [store.stamps.getBinary(file), store.records.get(file)];
      store.root.close();
      return found;
    },
    updateOne(dir, entry) {
      const store = openAll(dir);
      store.root.transactionSync(() => put(store, entry));
      store.root.close();
    },
    readLong(dir, files) {
      const store = openAll(dir);
      let bytes = 0;
      for (const file of files) bytes += store.long.getBinary(file)!.length;
      store.root.close();
      return bytes;
    },
    open(dir, file) {
      const store = openAll(dir);
      const found = store.stamps.getBinary(file);
      store.root.close();
      return found;
    },
  };
}

// ---- better-sqlite3: three tables in one file, written ahead (WAL)

interface SqliteStatement {
  run(...values: unknown[]): unknown;
  get(...values: unknown[]): unknown;
  raw(): { iterate(...values: unknown[]): Iterable<unknown[]> };
}
interface SqliteDatabase {
  pragma(text: string): unknown;
  exec(text: string): void;
  prepare(text: string): SqliteStatement;
  transaction<A extends unknown[]>(action: (...args: A) => void): (...args: A) => void;
  close(): void;
}
type SqliteModule = new (file: string) => SqliteDatabase;

function sqliteCandidate(Database: SqliteModule): Candidate {
  const openAll = (dir: string) => {
    mkdirSync(dir, { recursive: true });
    const db = new Database(path.join(dir, 'store.sqlite'));
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    return db;
  };
  const writer = (db: SqliteDatabase) => {
    db.exec(`CREATE TABLE IF NOT EXISTS stamps (path TEXT PRIMARY KEY, size REAL, mtime REAL, ino REAL, hash TEXT) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS records (path TEXT PRIMARY KEY, value BLOB) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS long (path TEXT PRIMARY KEY, value BLOB);
      CREATE TABLE IF NOT EXISTS columns (name TEXT PRIMARY KEY, value BLOB) WITHOUT ROWID;`);
    const stamp = db.prepare('INSERT OR REPLACE INTO stamps VALUES (?, ?, ?, ?, ?)');
    const record = db.prepare('INSERT OR REPLACE INTO records VALUES (?, ?)');
    const long = db.prepare('INSERT OR REPLACE INTO long VALUES (?, ?)');
    return db.transaction((entries: readonly StoreEntry[]) => {
      for (const entry of entries) {
        const file = pathOf(entry);
        stamp.run(file, entry.stamp[0], entry.stamp[1], entry.stamp[2], entry.hash);
        if (entry.loaded) record.run(file, v8.serialize({ loaded: entry.loaded, positions: entry.positions }));
        if (entry.long) long.run(file, entry.long);
      }
    });
  };
  return {
    write(dir, entries) {
      const db = openAll(dir);
      writer(db)(entries);
      const column = db.prepare('INSERT OR REPLACE INTO columns VALUES (?, ?)');
      db.transaction(() => stampColumns(entries).forEach(([key, value]) => column.run(key, value)))();
      db.close();
    },
    readStamps(dir) {
      const db = openAll(dir);
      let count = 0;
      let sum = 0;
      for (const row of db.prepare('SELECT path, size, mtime, ino, hash FROM stamps').raw().iterate()) {
        sum += (row[1] as number) + (row[2] as number) + (row[3] as number) + (row[4] as string).length;
        count++;
      }
      db.close();
      return sum > 0 ? count : 0;
    },
    readOne(dir, file) {
      const db = openAll(dir);
      const stamp = db.prepare('SELECT size, mtime, ino, hash FROM stamps WHERE path = ?').get(file);
      const row = db.prepare('SELECT value FROM records WHERE path = ?').get(file) as { value: Buffer };
      db.close();
      return [stamp, v8.deserialize(row.value)];
    },
    updateOne(dir, entry) {
      const db = openAll(dir);
      writer(db)([entry]);
      db.close();
    },
    readLong(dir, files) {
      const db = openAll(dir);
      const get = db.prepare('SELECT value FROM long WHERE path = ?');
      let bytes = 0;
      for (const file of files) bytes += (get.get(file) as { value: Buffer }).value.length;
      db.close();
      return bytes;
    },
    open(dir, file) {
      const db = openAll(dir);
      const found = db.prepare('SELECT size, mtime, ino, hash FROM stamps WHERE path = ?').get(file);
      db.close();
      return found;
    },
  };
}
