/**
 * The Site the renderers list their outputs from in `npm run dev`, and what their listings read.
 *
 * A renderer lists its outputs (their paths) from the records, and its bodies read the records
 * while they run (model/site.ts). Dev lists a renderer's outputs only when one of them is asked for
 * (live-output.ts); to know, at a save, whether the paths it serves are still the site's without
 * listing 750,000 outputs again, it notes which fields of each collection the listings read (the
 * reads outside any body). A save that replaces records in their places (live-order.ts) and leaves
 * every such field as it was cannot change a listing: a renderer is pure, so the same fields give
 * the same paths. Any other save lists everything again.
 *
 * The records are handed out wrapped around the read tracker's (reuse/read-tracking.ts): a read
 * while a body runs goes through to the tracker, which notes it for the output's key; a read while
 * a renderer lists its outputs is noted here, by field, and inside a field by its path
 * (`origin.key`).
 */
import type { AuthorRecord, FoundAuthors, ManuscriptRecord, VolumeRecord } from '../../model/records.ts';
import type { Site } from '../../model/site.ts';
import type { RecordChange } from './live-content.ts';

type Collection = 'authors' | 'volumes' | 'manuscripts';

/** What the listings read of each collection's records: paths of fields (`id`, `origin.key`); WHOLE for all of a record. */
export type ListedFields = Record<Collection, Set<string>>;

/** Asked of a wrapper, answers the tracker's record it wraps (and holds it in the wrapper's slot). */
const INNER = Symbol('wrapped record');
interface Slot {
  [INNER]: object;
}

/** A listing looked at a record as a whole (its keys, its descriptors): any change to it may change a listing. */
const WHOLE = '*';

export function noListedFields(): ListedFields {
  return { authors: new Set(), volumes: new Set(), manuscripts: new Set() };
}

/** Whether the replaced records are the same as before in everything the listings read of them. */
export function sameListedFields(fields: ListedFields, replaced: readonly RecordChange[]): boolean {
  return replaced.every(({ collection, before, after }) => {
    if (!before || !after) return false;
    const read = fields[collection];
    if (read.has(WHOLE)) return false;
    for (const path of read) if (!sameValue(valueAt(before, path), valueAt(after, path))) return false;
    return true;
  });
}

export interface ListingSite {
  readonly site: Site;
  /** Runs a renderer's listing, noting what it reads of the records into `fields`. */
  list<T>(render: () => T): T;
}

/** The site `tracked` (the tracker's), its records wrapped so that what a listing reads is noted into `fields`. */
export function listingSite(tracked: Site, fields: ListedFields): ListingSite {
  let listing = false;
  /** Each tracker's record handed out, and its wrapper: a plain map (weak ones of 250,000 entries cost seconds). */
  const wrappers = new Map<object, object>();
  const note = (collection: Collection, path: string) => {
    if (listing) fields[collection].add(path);
  };

  /** Inside a record, a field's value that is an object notes the paths read of it. */
  const within = (value: unknown, collection: Collection, prefix: string): unknown => {
    if (!listing || value === null || typeof value !== 'object') return value;
    return new Proxy(value, {
      get(target, property, receiver) {
        const inner: unknown = Reflect.get(target, property, receiver);
        if (typeof property === 'symbol') return inner;
        const path = `${prefix}.${property}`;
        note(collection, path);
        return within(inner, collection, path);
      },
      has(target, property) {
        note(collection, prefix);
        return Reflect.has(target, property);
      },
      ownKeys(target) {
        note(collection, prefix);
        return Reflect.ownKeys(target);
      },
    });
  };

  /**
   * One handler per collection. A wrapper's target is a slot holding the tracker's record, not the
   * record: a proxy checks every answer against its target, and the tracker's record, a proxy
   * itself, would note a second read for each check.
   */
  const handlerOf = (collection: Collection): ProxyHandler<Slot> => ({
    get(slot, property) {
      const target = slot[INNER];
      if (property === INNER) return target;
      const value: unknown = Reflect.get(target, property);
      if (!listing || typeof property === 'symbol') return value;
      // A method's result is whatever it reads of the record: the record is read whole.
      note(collection, typeof value === 'function' ? WHOLE : property);
      return within(value, collection, property);
    },
    has(slot, property) {
      note(collection, WHOLE);
      return Reflect.has(slot[INNER], property);
    },
    ownKeys(slot) {
      note(collection, WHOLE);
      return Reflect.ownKeys(slot[INNER]);
    },
    getOwnPropertyDescriptor(slot, property) {
      note(collection, WHOLE);
      const descriptor = Reflect.getOwnPropertyDescriptor(slot[INNER], property);
      // Reported as configurable: the slot has no such property to hold it to more (records are
      // plain data, never frozen).
      return descriptor && { ...descriptor, configurable: true };
    },
    getPrototypeOf: (slot) => Reflect.getPrototypeOf(slot[INNER]),
  });
  const handlers = {
    authors: handlerOf('authors'),
    volumes: handlerOf('volumes'),
    manuscripts: handlerOf('manuscripts'),
  };
  /** The tracker's record, wrapped: one wrapper per record, so that a body may compare records. */
  const wrap = <T extends object>(collection: Collection, record: T): T => {
    let wrapper = wrappers.get(record);
    if (!wrapper) {
      wrapper = new Proxy<Slot>({ [INNER]: record }, handlers[collection]);
      wrappers.set(record, wrapper);
    }
    return wrapper as T;
  };
  /** The tracker's record a wrapper wraps (its target). */
  const unwrap = <T extends object>(record: T): T => (record as { [INNER]?: T })[INNER] ?? record;
  const lists = new Map<Collection, readonly object[]>();
  /** A whole list: read from the tracker each time (a body that reads it depends on all of it), wrapped once. */
  const listOf = <T extends object>(collection: Collection, records: readonly T[]): readonly T[] => {
    let list = lists.get(collection);
    if (!list) lists.set(collection, (list = Object.freeze(records.map((record) => wrap(collection, record)))));
    return list as readonly T[];
  };
  const wrapAuthors = (found: FoundAuthors): FoundAuthors =>
    found.map((author) => author && wrap<AuthorRecord>('authors', author));

  const site: Site = {
    journal: tracked.journal,
    get authors() {
      return listOf('authors', tracked.authors);
    },
    get volumes() {
      return listOf('volumes', tracked.volumes);
    },
    get manuscripts() {
      return listOf('manuscripts', tracked.manuscripts);
    },
    volume(id) {
      // Which volume has an id: the volumes' ids.
      note('volumes', 'id');
      const volume = tracked.volume(id);
      return volume && wrap<VolumeRecord>('volumes', volume);
    },
    authorsOf(manuscript) {
      // Which authors a manuscript's keys name: its authors, and the authors' keys.
      note('manuscripts', 'authors');
      note('authors', 'origin.key');
      return wrapAuthors(tracked.authorsOf(unwrap(manuscript)));
    },
    manuscriptsIn(volume) {
      // Which manuscripts a volume holds, in order: their volumes and what they are sorted by.
      note('volumes', 'id');
      for (const field of ['citation_volume', 'order', 'id', 'origin.key']) note('manuscripts', field);
      return tracked.manuscriptsIn(unwrap(volume)).map((m) => wrap<ManuscriptRecord>('manuscripts', m));
    },
    newestManuscripts(count) {
      // Which are the newest (model/newest.ts): their dates and ids.
      for (const field of ['citation_date', 'id']) note('manuscripts', field);
      return tracked.newestManuscripts(count).map((m) => wrap<ManuscriptRecord>('manuscripts', m));
    },
  };
  return {
    site,
    list(render) {
      listing = true;
      try {
        return render();
      } finally {
        listing = false;
      }
    },
  };
}

function valueAt(record: object, path: string): unknown {
  let value: unknown = record;
  for (const name of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[name];
  }
  return value;
}

/** The same value: the same primitive, or arrays and objects with the same keys and the same values. */
function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every(
    (key) =>
      Object.hasOwn(b, key) && sameValue((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}
