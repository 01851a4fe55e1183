/**
 * The build's store: what a build keeps between runs, in one LMDB environment
 * (`<cache>/store.lmdb`, with LMDB's `store.lmdb-lock` beside it) behind this small interface.
 *
 * - **Sections.** What the build keeps is in sections (the output's rows, what the outputs read),
 *   each a run of values in order. A section is trusted only once its mark is written, in the same
 *   transaction as its last values: a build stopped while it commits leaves that section
 *   unmarked, and the next one does not read it; the other sections stay as they were.
 * - **The fingerprint** (cache.ts, cacheFingerprint) is an entry of its own: a store holding another
 *   one is emptied on opening, and this one is written last, with the marks of the first commit.
 * - **Torn writes** cannot happen: LMDB commits a transaction whole, by switching its meta page, or
 *   not at all, so a kill at any point leaves the previous commit. LMDB checks no checksum of its
 *   pages, though: each value keeps the CRC-32 the cache's frames had, so that bytes damaged on the
 *   disk or by hand are not trusted (the section is then read as missing).
 * - **Safe to damage, safe to lose.** A store that does not open, or whose head is not LMDB's or
 *   is longer than the file (headDamage), is removed and made anew, with a warning; one that cannot be made either holds nothing and keeps nothing,
 *   with a warning. Never a failure: the build is then cold.
 * - lmdb is loaded on the first open only: `check` does not open the store yet, and loading lmdb's
 *   code and its native addons costs tens of milliseconds.
 */
import { closeSync, lstatSync, mkdirSync, openSync, readSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import v8 from 'node:v8';
import zlib from 'node:zlib';
import type { CacheWarning } from '../cache/cache.ts';

/** The store's file in the cache folder (LMDB adds `-lock` for its lock file). */
export const STORE_FILE = 'store.lmdb';
const LOCK_SUFFIX = '-lock';

/** The sections a build keeps (cache.ts says what is in each). */
export type StoreSection = 'outputs' | 'reads';

/**
 * Values written per transaction: LMDB holds a write transaction's pages in the process's memory
 * until it commits. A section's values are frames of a few thousand rows (tens of KB each).
 */
const COMMIT_BATCH = 64;

export interface BuildStore {
  /** A section's values, in order, when its last commit finished and they are intact; else undefined. */
  section<T>(name: StoreSection): T[] | undefined;
  /**
   * Forgets `sections` at once, in one transaction: what they describe (the output) is about to
   * change, and must not be trusted if the build stops before it commits them again.
   */
  forget(sections: readonly StoreSection[]): CacheWarning;
  /** Replaces the given sections' values: in transactions of COMMIT_BATCH values, each section's mark last. */
  commit(changes: Partial<Record<StoreSection, Iterable<unknown>>>): CacheWarning;
  /** What opening it found: that it was damaged and made anew, or could not be opened at all. */
  readonly warning: CacheWarning;
  close(): void;
}

/** The part of lmdb's root database this module uses. */
interface LmdbDatabase {
  getBinary(key: LmdbKey): Buffer | undefined;
  putSync(key: LmdbKey, value: Uint8Array): boolean;
  removeSync(key: LmdbKey): boolean;
  clearSync(): void;
  transactionSync<T>(action: () => T): T;
  close(): void;
}
type LmdbKey = string | (string | number)[];
interface LmdbModule {
  open(options: { path: string; encoding: 'binary'; compression: boolean; noReadAhead: boolean }): LmdbDatabase;
}

const FINGERPRINT_KEY = 'fingerprint';
const markKey = (section: StoreSection): LmdbKey => ['mark', section];
const valueKey = (section: StoreSection, index: number): LmdbKey => ['value', section, index];

let lmdb: LmdbModule | undefined;

/** Opens (or makes) the store in the cache folder `dir`; one holding another fingerprint is emptied. */
export function openStore(dir: string, fingerprint: string): BuildStore {
  const file = path.join(dir, STORE_FILE);
  let damage: string | undefined;
  try {
    return new LmdbStore(openChecked(file), dir, fingerprint, undefined);
  } catch (error) {
    damage = reason(error);
  }
  removeStore(file);
  const shown = `${path.relative(process.cwd(), dir) || '.'}/`;
  const mended = `the build cache (${shown}) was damaged (${damage}): it was removed, and is made anew`;
  try {
    return new LmdbStore(openChecked(file), dir, fingerprint, mended);
  } catch (error) {
    return emptyStore(
      `the build cache (${shown}) could not be opened (${reason(error)}): the output is complete; the next build does again what the cache would have spared it`,
    );
  }
}

/** Removes the store's files, so that the next open makes it anew. */
export function removeStore(file: string): void {
  try {
    for (const name of [file, `${file}${LOCK_SUFFIX}`]) rmSync(name, { recursive: true, force: true });
  } catch {
    // What cannot be removed cannot be opened either: openStore then warns that it could not.
  }
}

/** Opens the store's file, when its head is LMDB's and it is as long as its pages say. */
function openChecked(file: string): LmdbDatabase {
  lmdb ??= createRequire(import.meta.url)('lmdb') as LmdbModule;
  mkdirFor(file);
  const existing = lstatSync(file, { throwIfNoEntry: false });
  if (existing && !existing.isFile()) throw new Error(`${STORE_FILE} is not a file`);
  if (existing && existing.size > 0) {
    const damage = headDamage(file, existing.size);
    if (damage) throw new Error(damage);
  }
  // Values are read once each, in order: the system's read-ahead would map pages never read.
  return lmdb.open({ path: file, encoding: 'binary', compression: false, noReadAhead: true });
}

/**
 * What is wrong with an LMDB file's two meta pages, checked before LMDB maps it: LMDB trusts them,
 * and a file overwritten by something else stopped the process in LMDB's native code (a
 * segmentation fault), and one cut short would at the first page read past its end (a bus error).
 * Damage further in is LMDB's to find (a page not found), or the values' checksums'.
 */
function headDamage(file: string, size: number): string | undefined {
  const head = Buffer.alloc(META_BYTES);
  const fd = openSync(file, 'r');
  let pageSize: number;
  let lastPage = 0;
  try {
    if (readSync(fd, head, 0, META_BYTES, 0) !== META_BYTES) return `${STORE_FILE} is cut short`;
    pageSize = head.readUInt32LE(META_PAGE_SIZE);
    if (pageSize < 512 || pageSize > 65_536 || (pageSize & (pageSize - 1)) !== 0 || size < 2 * pageSize)
      return `${STORE_FILE} is not an LMDB file`;
    let newest = -1;
    for (const at of [0, pageSize]) {
      if (readSync(fd, head, 0, META_BYTES, at) !== META_BYTES) return `${STORE_FILE} is cut short`;
      if ((head.readUInt16LE(META_FLAGS) & P_META) === 0 || head.readUInt32LE(META_MAGIC) !== MDB_MAGIC)
        return `${STORE_FILE} is not an LMDB file`;
      const txn = Number(head.readBigUInt64LE(META_TXNID));
      if (txn > newest) {
        newest = txn;
        lastPage = Number(head.readBigUInt64LE(META_LAST_PAGE));
      }
    }
  } finally {
    closeSync(fd);
  }
  return (lastPage + 1) * pageSize > size ? `${STORE_FILE} is cut short` : undefined;
}

/**
 * Where the meta page of lmdb's LMDB (MDB_meta after its 24-byte page header, 64-bit) keeps what
 * headDamage reads: the page flags, the magic number, the page size (in the free pages' database's
 * first field), the last page used and the transaction id.
 */
const P_META = 0x08;
const MDB_MAGIC = 0xbeefc0de;
const META_FLAGS = 18;
const META_MAGIC = 24;
const META_PAGE_SIZE = 24 + 24;
const META_LAST_PAGE = META_PAGE_SIZE + 2 * 48;
const META_TXNID = META_LAST_PAGE + 8;
const META_BYTES = META_TXNID + 8;

/** Makes the cache folder (lmdb would fail on a missing one). */
function mkdirFor(file: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
}

class LmdbStore implements BuildStore {
  readonly warning: CacheWarning;
  readonly #db: LmdbDatabase;
  readonly #dir: string;
  readonly #fingerprint: string;
  /** Whether the store holds this fingerprint (else it is written with the next commit's marks). */
  #trusted: boolean;

  constructor(db: LmdbDatabase, dir: string, fingerprint: string, warning: CacheWarning) {
    this.#db = db;
    this.#dir = dir;
    this.#fingerprint = fingerprint;
    this.warning = warning;
    this.#trusted = db.getBinary(FINGERPRINT_KEY)?.toString('utf8') === fingerprint;
    // Another build's entries are of no use, and would only take room: emptied at once.
    if (!this.#trusted) db.transactionSync(() => db.clearSync());
  }

  section<T>(name: StoreSection): T[] | undefined {
    if (!this.#trusted) return undefined;
    const mark = this.#db.getBinary(markKey(name));
    if (!mark || mark.length !== 4) return undefined;
    const count = mark.readUInt32LE(0);
    const values: T[] = [];
    for (let i = 0; i < count; i++) {
      const value = unpack(this.#db.getBinary(valueKey(name, i)));
      if (value === undefined) return undefined;
      values.push(value as T);
    }
    return values;
  }

  forget(sections: readonly StoreSection[]): CacheWarning {
    return this.#write(() =>
      this.#db.transactionSync(() => sections.forEach((name) => this.#db.removeSync(markKey(name)))),
    );
  }

  commit(changes: Partial<Record<StoreSection, Iterable<unknown>>>): CacheWarning {
    const db = this.#db;
    return this.#write(() => {
      const named = Object.entries(changes) as [StoreSection, Iterable<unknown>][];
      const counts = new Map<StoreSection, number>();
      // Unmarked first: a store left half written by a stopped build is not read.
      db.transactionSync(() => named.forEach(([name]) => db.removeSync(markKey(name))));
      for (const [name, values] of named) {
        const previous = this.#count(name);
        let index = 0;
        let batch: Uint8Array[] = [];
        const flush = (): void => {
          const first = index - batch.length;
          db.transactionSync(() => batch.forEach((value, i) => db.putSync(valueKey(name, first + i), value)));
          batch = [];
        };
        for (const value of values) {
          batch.push(pack(value));
          index++;
          if (batch.length === COMMIT_BATCH) flush();
        }
        if (batch.length > 0) flush();
        counts.set(name, index);
        // Values past the new count (from a larger previous commit) go, batch by batch.
        for (let start = index; start < previous; start += COMMIT_BATCH)
          db.transactionSync(() => {
            for (let i = start; i < Math.min(previous, start + COMMIT_BATCH); i++) db.removeSync(valueKey(name, i));
          });
      }
      db.transactionSync(() => {
        for (const [name, count] of counts) {
          const mark = Buffer.alloc(4);
          mark.writeUInt32LE(count, 0);
          db.putSync(markKey(name), mark);
          // How many values the section holds, marked or not: what a later commit removes past its own.
          db.putSync(['count', name], mark);
        }
        if (!this.#trusted) db.putSync(FINGERPRINT_KEY, Buffer.from(this.#fingerprint, 'utf8'));
      });
      this.#trusted = true;
    });
  }

  close(): void {
    try {
      this.#db.close();
    } catch {
      // Nothing more is written by a build that closes its store: nothing is lost.
    }
  }

  /** How many values of a section the store holds, whether its last commit finished or not. */
  #count(name: StoreSection): number {
    const found = this.#db.getBinary(['count', name]);
    return found?.length === 4 ? found.readUInt32LE(0) : 0;
  }

  #write(action: () => void): CacheWarning {
    try {
      action();
      return undefined;
    } catch (error) {
      return notWritten(this.#dir, error);
    }
  }
}

/** A store that could not be opened: it holds nothing and keeps nothing, and says so once. */
function emptyStore(warning: string): BuildStore {
  return {
    warning,
    section: () => undefined,
    forget: () => undefined,
    commit: () => undefined,
    close: () => undefined,
  };
}

/** A value as the store keeps it: its CRC-32, then its V8 serialization. */
function pack(value: unknown): Uint8Array {
  const payload = v8.serialize(value);
  const packed = Buffer.allocUnsafe(4 + payload.length);
  packed.writeUInt32LE(zlib.crc32(payload), 0);
  payload.copy(packed, 4);
  return packed;
}

/** A value back, or undefined when it is missing or its bytes are not the ones written. */
function unpack(packed: Buffer | undefined): unknown {
  if (!packed || packed.length < 4) return undefined;
  const payload = packed.subarray(4);
  if (zlib.crc32(payload) !== packed.readUInt32LE(0)) return undefined;
  try {
    return v8.deserialize(payload);
  } catch {
    return undefined;
  }
}

function reason(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  return code === 'ENOSPC' || code === 'EDQUOT' ? 'no space left' : message.split('\n')[0]!;
}

function notWritten(dir: string, error: unknown): string {
  const { code } = error as NodeJS.ErrnoException;
  const why = code === 'ENOSPC' || code === 'EDQUOT' ? `no space left on ${dir}` : reason(error);
  return `the build cache could not be written (${why}): the output is complete; the next build does again what the cache would have spared it`;
}
