/**
 * Which records each output read, noted while its body runs: the build takes an output from the
 * previous build when everything it read then is unchanged now (reuse.ts). Nothing is declared by a
 * renderer; what it reads through the Site is what it depends on.
 *
 * What a body reads is named by tokens: `a:<key>`, `v:<key>`, `m:<key>` for one author, volume or
 * manuscript (the content file's key), `each:<list>` for a whole list in its order (a body that
 * takes a list may read any of it), and `in:<volume key>` for which manuscripts a volume holds, in
 * order, and `newest:<count>` for which manuscripts are the newest `count` (model/newest.ts), in
 * order. A token's value is the hash of the content behind it; an output's key hashes its tokens
 * and their values. The journal's settings are not tokens: the build cache is dropped whole when
 * they change (cache.ts, cacheFingerprint), and so is it when the code changes.
 *
 * Records are handed out as proxies: a read of a field notes the record, or, for a field of a group
 * (field-groups.ts: an author's names, `n:<key>`; a manuscript's fields but its long ones, `s:<key>`),
 * the group of that record only. The proxy forwards to the record itself (getters and private fields
 * run on it), so a renderer sees the record unchanged.
 */
import type { AuthorRecord, FoundAuthors, ManuscriptRecord, VolumeRecord } from '../../model/records.ts';
import { newestPositions } from '../../model/newest.ts';
import type { Site } from '../../model/site.ts';
import type { ResolvedJournal } from '../../stages/resolve.ts';
import { FIELD_GROUPS, GroupRead, groupReadsOf } from './field-groups.ts';
import type { RecordValues } from './record-values.ts';
import { EACH, keyMaker, NEWEST, recordFinder, valueOf, type Collection } from './token-values.ts';

export interface ReadTracker {
  /** The site to render from: reads made while `track` runs are noted. */
  readonly site: Site;
  /** Runs `render` and returns what it returned, with the tokens of what it read (newline-joined, in first-read order). */
  track<T>(render: () => T): { value: T; reads: string; key: string | undefined };
  /** The key of `reads` as the content is now; undefined when a token names nothing now, or the hashes are not known. */
  keyOf(reads: string): string | undefined;
  /** The token of a record of the site (as the site handed it out). */
  tokenOf(record: object): string | undefined;
  /** The key of reads that name one record of the site only: keyOf(tokenOf(record)), with no token made. */
  keyOfRecord(record: object): string | undefined;
  /** Readies the records `reads` names for a body about to read them again (TrackingOptions.readIn). */
  prepare(reads: string): void;
  /**
   * What every token names now (record-values.ts), with the composite tokens `also` among them;
   * undefined when the hashes are not known.
   */
  values(also?: Iterable<string>): RecordValues | undefined;
}

export interface TrackingOptions {
  /** Called for a record before a body that read it last time runs again: what it holds on disk only is read in. */
  readIn?: (record: object) => void;
}

const PREFIX: Record<Collection, string> = { authors: 'a:', volumes: 'v:', manuscripts: 'm:' };
/** A manuscript token's first character (PREFIX). */
const M = 'm'.charCodeAt(0);
/** Asked of a proxy, answers its handler (and notes nothing): a WeakMap of 250,000 proxies cost more memory. */
const HANDLER = Symbol('record handler');

/** What a body reads: a record whole (by its handler), a group of its fields, or a token. */
type Read = RecordHandler | GroupRead | string;

/** The tokens read by the body that is running; records are noted by their handler (its token made once, when asked). */
class Reading {
  current: Set<Read> | undefined;
  /** The last record noted: a body reads several fields of one record in a row. */
  last: RecordHandler | GroupRead | undefined;

  note(read: Read): void {
    if (this.current === undefined || read === this.last) return;
    if (typeof read !== 'string') this.last = read;
    this.current.add(read);
  }
}

/** What the handlers of one collection share: a handler per record holds only this and its index. */
interface Shelf {
  readonly collection: Collection;
  readonly records: readonly { origin: { key: string; hash?: string } }[];
  readonly reading: Reading;
  /** The read of a group of fields that `property` belongs to; undefined without groups (field-groups.ts). */
  readonly groupRead: ((of: RecordHandler, property: PropertyKey) => GroupRead | undefined) | undefined;
}

class RecordHandler implements ProxyHandler<object> {
  // Two fields: there is one handler per record (250,000 at 100,000 manuscripts).
  constructor(
    readonly shelf: Shelf,
    readonly index: number,
  ) {}

  get collection(): Collection {
    return this.shelf.collection;
  }

  get record(): { origin: { key: string; hash?: string } } {
    return this.shelf.records[this.index]!;
  }

  /** Made when asked, not kept: the reads that name it keep it in their own text. */
  get token(): string {
    return PREFIX[this.shelf.collection] + this.record.origin.key;
  }

  get reading(): Reading {
    return this.shelf.reading;
  }

  get(target: object, property: PropertyKey): unknown {
    if (property === HANDLER) return this;
    const { groupRead } = this.shelf;
    this.reading.note((groupRead && groupRead(this, property)) || this);
    // The record itself as the receiver: its getters and private fields work as they would unproxied.
    const value: unknown = Reflect.get(target, property, target);
    return typeof value === 'function' ? value.bind(target) : value;
  }

  has(target: object, property: PropertyKey): boolean {
    this.reading.note(this);
    return Reflect.has(target, property);
  }

  ownKeys(target: object): ArrayLike<string | symbol> {
    this.reading.note(this);
    return Reflect.ownKeys(target);
  }

  getOwnPropertyDescriptor(target: object, property: PropertyKey): PropertyDescriptor | undefined {
    this.reading.note(this);
    return Reflect.getOwnPropertyDescriptor(target, property);
  }
}

export function trackReads(resolved: ResolvedJournal, options: TrackingOptions = {}): ReadTracker {
  const reading = new Reading();
  const handlerOfProxy = (record: object): RecordHandler | undefined => {
    const handler = (record as { [HANDLER]?: unknown })[HANDLER];
    return handler instanceof RecordHandler ? handler : undefined;
  };
  const proxies: Record<Collection, object[]> = { authors: [], volumes: [], manuscripts: [] };
  const shelves: Record<Collection, Shelf> = {
    authors: { collection: 'authors', records: resolved.authors, reading, groupRead: groupReadsOf('authors') },
    volumes: { collection: 'volumes', records: resolved.volumes, reading, groupRead: groupReadsOf('volumes') },
    manuscripts: {
      collection: 'manuscripts',
      records: resolved.manuscripts,
      reading,
      groupRead: groupReadsOf('manuscripts'),
    },
  };
  const proxyOf = <T extends object>(collection: Collection, index: number): T => {
    const made = proxies[collection][index];
    if (made) return made as T;
    const record = resolved[collection][index]!;
    const handler = new RecordHandler(shelves[collection], index);
    const proxy = new Proxy(record, handler);
    proxies[collection][index] = proxy;
    return proxy as T;
  };
  const lists = new Map<Collection, readonly object[]>();
  const listOf = <T extends object>(collection: Collection): readonly T[] => {
    reading.note(EACH + collection);
    let list = lists.get(collection);
    if (!list) {
      list = Object.freeze(resolved[collection].map((_, i) => proxyOf(collection, i)));
      lists.set(collection, list);
    }
    return list as readonly T[];
  };
  const handlerOf = (record: object, collection: Collection): RecordHandler => {
    const handler = handlerOfProxy(record);
    if (!handler || handler.collection !== collection) throw new TypeError(`not one of the site's ${collection}`);
    return handler;
  };

  let volumeAt: Map<number, number> | undefined;
  let members: Map<number, number[]> | undefined;
  const membersOf = (volumeId: number): readonly number[] => {
    if (!members) {
      members = new Map();
      resolved.manuscripts.forEach((m, i) => {
        const list = members!.get(m.citation_volume);
        if (list) list.push(i);
        else members!.set(m.citation_volume, [i]);
      });
    }
    return members.get(volumeId) ?? [];
  };

  const site: Site = {
    journal: resolved.journal,
    get authors() {
      return listOf<AuthorRecord>('authors');
    },
    get volumes() {
      return listOf<VolumeRecord>('volumes');
    },
    get manuscripts() {
      return listOf<ManuscriptRecord>('manuscripts');
    },
    volume(id) {
      volumeAt ??= new Map(resolved.volumes.map((v, i) => [v.id, i]));
      const at = volumeAt.get(id);
      return at === undefined ? undefined : proxyOf<VolumeRecord>('volumes', at);
    },
    authorsOf(manuscript): FoundAuthors {
      const handler = handlerOf(manuscript, 'manuscripts');
      // Which authors a manuscript names is its field `authors`.
      reading.note(handler.shelf.groupRead?.(handler, 'authors') ?? handler);
      const found = resolved.manuscriptAuthors[handler.index]!;
      const authorAt = authorIndex();
      return found.map((author) => author && proxyOf<AuthorRecord>('authors', authorAt.get(author)!));
    },
    manuscriptsIn(volume) {
      const handler = handlerOf(volume, 'volumes');
      reading.note(handler);
      reading.note(`in:${handler.record.origin.key}`);
      return membersOf(resolved.volumes[handler.index]!.id).map((i) => proxyOf<ManuscriptRecord>('manuscripts', i));
    },
    newestManuscripts(count) {
      // The dates are read here, on the records themselves: which manuscripts are the newest is
      // noted as one token, and each one the body then reads is noted by itself.
      reading.note(NEWEST + count);
      return newestOf(count).map((i) => proxyOf<ManuscriptRecord>('manuscripts', i));
    },
  };
  const newest = new Map<number, readonly number[]>();
  const newestOf = (count: number): readonly number[] => {
    let chosen = newest.get(count);
    if (!chosen) newest.set(count, (chosen = newestPositions(resolved.manuscripts, count)));
    return chosen;
  };
  const recordOf = recordFinder(resolved);
  const keys = keyMaker(resolved, membersOf, newestOf, recordOf);
  let joined: Pick<RecordValues, 'keys' | 'values' | 'groups'> | undefined;
  let authorPositions: Map<AuthorRecord, number> | undefined;
  const authorIndex = () => (authorPositions ??= new Map(resolved.authors.map((a, i) => [a, i])));

  return {
    site,
    track(render) {
      const outer = reading.current;
      const outerLast = reading.last;
      const reads = new Set<Read>();
      reading.current = reads;
      reading.last = undefined;
      try {
        const value = render();
        const read = readsOf(reads);
        return { value, reads: read.tokens, key: keys.keyOfValues(read.tokens, read.values) };
      } finally {
        reading.current = outer;
        reading.last = outerLast;
        // What a nested body read, its outer body read too.
        if (outer) for (const read of reads) outer.add(read);
      }
    },
    keyOf: keys.keyOf,
    tokenOf: (record) => handlerOfProxy(record)?.token,
    keyOfRecord(record) {
      const handler = handlerOfProxy(record);
      // Without every record's hash nothing is reused (keyMaker), this record's included.
      return handler && keys.compositeValue ? valueOf(handler.record) : undefined;
    },
    values(also = []) {
      const { compositeValue } = keys;
      if (!compositeValue) return undefined;
      // `each:` changes with its collection's keys and values, which are kept whole.
      const composites = new Set<string>(resolved.volumes.map((volume) => `in:${volume.origin.key}`));
      for (const count of newest.keys()) composites.add(NEWEST + count);
      for (const token of also) if (!token.startsWith(EACH)) composites.add(token);
      const valued: [string, string][] = [];
      for (const token of composites) {
        const value = compositeValue(token);
        if (value !== undefined) valued.push([token, value]);
      }
      // The records' part is asked for twice in a build (to compare, then to keep), and is the
      // same both times: 250,000 keys and values joined at 100,000 manuscripts.
      joined ??= joinedValues(resolved);
      return { ...joined, composites: valued };
    },
    prepare(reads) {
      const readIn = options.readIn;
      if (!readIn || !reads.includes(PREFIX.manuscripts)) return;
      for (const token of reads.split('\n')) {
        if (token.charCodeAt(0) !== M) continue;
        const manuscript = recordOf(token);
        if (manuscript) readIn(manuscript);
      }
    },
  };
}

/**
 * Each collection's record keys and their values, and each field group's values, newline-joined in
 * the records' order (record-values.ts).
 */
function joinedValues(resolved: ResolvedJournal): Pick<RecordValues, 'keys' | 'values' | 'groups'> {
  const collections = [resolved.authors, resolved.volumes, resolved.manuscripts] as const;
  return {
    keys: collections.map((records) => records.map((record) => record.origin.key).join('\n')),
    values: collections.map((records) => records.map((record) => valueOf(record)).join('\n')),
    // A group valued as its record has the collection's values (record-values.ts).
    groups: FIELD_GROUPS.map((group) => {
      const { value } = group;
      return value ? resolved[group.collection].map((record) => value(record)).join('\n') : '';
    }),
  };
}

/**
 * The tokens of a body's reads (a record of a list read whole is covered by the list's token, and a
 * group of a record's fields by the record read whole), and for each a record's hash, a group's
 * value, or the token itself for the key maker to value.
 */
function readsOf(reads: ReadonlySet<Read>): { tokens: string; values: (string | undefined)[] } {
  const tokens: string[] = [];
  const values: (string | undefined)[] = [];
  for (const read of reads) {
    if (typeof read === 'string') {
      tokens.push(read);
      values.push(undefined);
    } else if (read instanceof GroupRead) {
      const whole = read.of as RecordHandler;
      if (reads.has(whole) || reads.has(EACH + whole.collection)) continue;
      tokens.push(read.token);
      values.push(read.group.value ? read.value : valueOf(whole.record));
    } else if (!reads.has(EACH + read.collection)) {
      tokens.push(read.token);
      values.push(valueOf(read.record));
    }
  }
  return { tokens: tokens.join('\n'), values };
}
