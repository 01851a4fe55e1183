/**
 * The content files discovery found (discover.ts), as columns: a name per file and a folder per
 * collection, with a file's path, key and absolute path made only when asked.
 */
import type { CollectionName } from '../model/schema.ts';
import { NameList, type Names } from './listing.ts';

export interface SourceFile {
  collection: CollectionName;
  /** The record's key: its file name without extension (authors are referenced by it). */
  key: string;
  /** Path relative to the project root, forward slashes: used in every report. */
  file: string;
  /** The file's name in its folder: `file` ends with it. */
  name: string;
  absolutePath: string;
}

/** One collection's files: their names in its folder, in order, and what a file's name is put after. */
interface Folder {
  collection: CollectionName;
  start: number;
  end: number;
  names: Names;
  /** `content/authors/`: a file's path relative to the project root, forward slashes. */
  filePrefix: string;
  absolutePrefix: string;
  /** The extension every file has, when they all have the same one (nearly always): keys are then found by a binary search. */
  extension: string | undefined;
}

/** One collection's files among all found: positions `start` to `end`, and their names in its folder. */
export interface CollectionFiles {
  start: number;
  end: number;
  /** The start of their paths (`content/authors/`); '' when the collection has no file. */
  filePrefix: string;
  names: Names;
}

/**
 * The content files found, in discovery order (the collections in COLLECTION_NAMES order, each
 * sorted), as a column of names and a folder per collection. A file's path, key and absolute path
 * are made when asked: at 100,000 manuscripts, an object and three strings for each of 250,000
 * files made, and the collections that kept them alive cost `check` after an edit a tenth of its
 * second, when it reads hardly any of them.
 */
export class SourceFiles {
  readonly length: number;
  readonly #folders: Folder[];
  /** Per collection, its files' keys to their positions, made when first asked (only for folders of mixed extensions). */
  readonly #keys = new Map<CollectionName, Map<string, number>>();

  constructor(folders: readonly Omit<Folder, 'start' | 'end'>[]) {
    let start = 0;
    this.#folders = folders.map((folder) => {
      const placed = { ...folder, start, end: start + folder.names.length };
      start = placed.end;
      return placed;
    });
    this.length = start;
  }

  #folderAt(i: number): Folder {
    for (const folder of this.#folders) if (i < folder.end) return folder;
    throw new RangeError(`no file ${i} among ${this.length}`);
  }

  collection(i: number): CollectionName {
    return this.#folderAt(i).collection;
  }

  /** The file's name in its folder: `file` ends with it. */
  name(i: number): string {
    const folder = this.#folderAt(i);
    return folder.names.at(i - folder.start);
  }

  /** The record's key: its file name without extension (authors are referenced by it). */
  key(i: number): string {
    return keyOf(this.name(i));
  }

  /** Path relative to the project root, forward slashes: used in every report. */
  file(i: number): string {
    const folder = this.#folderAt(i);
    return folder.filePrefix + folder.names.at(i - folder.start);
  }

  absolutePath(i: number): string {
    const folder = this.#folderAt(i);
    return folder.absolutePrefix + folder.names.at(i - folder.start);
  }

  /** File `i` as one object, for what is sent to a worker or kept with a record. */
  at(i: number): SourceFile {
    const folder = this.#folderAt(i);
    const name = folder.names.at(i - folder.start);
    return {
      collection: folder.collection,
      key: keyOf(name),
      file: folder.filePrefix + name,
      name,
      absolutePath: folder.absolutePrefix + name,
    };
  }

  /** Where a collection's files are (CollectionFiles). */
  range(collection: CollectionName): CollectionFiles {
    const folder = this.#folders.find((f) => f.collection === collection);
    return folder
      ? {
          start: folder.start,
          end: folder.end,
          filePrefix: folder.names.length > 0 ? folder.filePrefix : '',
          names: folder.names,
        }
      : { start: this.length, end: this.length, filePrefix: '', names: NO_NAMES };
  }

  /** The position of `collection`'s file with key `key`, or -1 when there is none. */
  indexOfKey(collection: CollectionName, key: string): number {
    const folder = this.#folders.find((f) => f.collection === collection);
    if (!folder) return -1;
    if (folder.extension !== undefined) {
      // With one extension, a key and its file name sort alike.
      const at = folder.names.position(key + folder.extension);
      return at === undefined ? -1 : folder.start + at;
    }
    let keys = this.#keys.get(collection);
    if (!keys) {
      keys = new Map();
      for (let i = folder.start; i < folder.end; i++) keys.set(this.key(i), i);
      this.#keys.set(collection, keys);
    }
    return keys.get(key) ?? -1;
  }
}

export const NO_NAMES: Names = new NameList([]);

/** A record's key: its file's name without the extension (a name found has one). */
export function keyOf(name: string): string {
  return name.slice(0, name.lastIndexOf('.'));
}
