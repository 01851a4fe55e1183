/**
 * The values of the tokens that name what a body read (read-tracking.ts), as the content is now, and
 * the keys made of them: a record token's value is its file's hash, a field group's what its fields
 * hold (field-groups.ts), a composite token's a hash of the records it names.
 */
import { hash } from 'node:crypto';
import type { ResolvedJournal } from '../../stages/resolve.ts';
import { FIELD_GROUPS, groupOfToken } from './field-groups.ts';

export type Collection = 'authors' | 'volumes' | 'manuscripts';
export const EACH = 'each:';
export const NEWEST = 'newest:';
/** A record token's first two characters: `a:`, `v:`, `m:` (read-tracking.ts, PREFIX). */
const [A, V, M, COLON] = ['a', 'v', 'm', ':'].map((c) => c.charCodeAt(0)) as [number, number, number, number];

/**
 * A record's value: its file's hash, and for a manuscript that names its volume by key, the id the
 * key resolves to now (volume-references.ts): the same file published in another volume after a
 * volume was renamed or re-labelled.
 */
export function valueOf(record: { origin: { hash?: string } }): string | undefined {
  const hash = record.origin.hash;
  if (hash === undefined || (record as { volume?: unknown }).volume === undefined) return hash;
  return `${hash} ${(record as unknown as { citation_volume: number }).citation_volume}`;
}

/**
 * The record a token names (`a:`, `v:`, `m:`, or a field group's letter, and a key), looked up by the
 * token's first letter and its key: no string per token is made, and no property is looked up by a
 * sliced name (that was most of a build's time after an edit at 100,000). The tables are made when
 * first asked.
 */
export function recordFinder(resolved: ResolvedJournal): (token: string) => { origin: { hash?: string } } | undefined {
  let byKey: Map<string, { origin: { hash?: string } }>[] | undefined;
  return (token) => {
    if (token.charCodeAt(1) !== COLON) return undefined;
    byKey ??= COLLECTIONS.map(
      (collection) =>
        new Map<string, { origin: { hash?: string } }>(
          resolved[collection].map((record) => [record.origin.key, record]),
        ),
    );
    const first = token.charCodeAt(0);
    const c = first === A ? 0 : first === V ? 1 : first === M ? 2 : GROUP_COLLECTION.get(first);
    return c === undefined ? undefined : byKey[c]!.get(token.slice(2));
  };
}

const COLLECTIONS: readonly Collection[] = ['authors', 'volumes', 'manuscripts'];
/** A field group's letter, and the place of its collection in COLLECTIONS. */
const GROUP_COLLECTION = new Map(
  FIELD_GROUPS.map((group) => [group.prefix.charCodeAt(0), COLLECTIONS.indexOf(group.collection)]),
);

/** The keys of reads as the content is now: each token's value looked up (records by key, made once), then hashed. */
export function keyMaker(
  resolved: ResolvedJournal,
  membersOf: (volumeId: number) => readonly number[],
  newestOf: (count: number) => readonly number[],
  recordOf: (token: string) => { origin: { hash?: string } } | undefined,
): {
  keyOf: (reads: string) => string | undefined;
  keyOfValues: (tokens: string, values: readonly (string | undefined)[]) => string | undefined;
  /** An `each:`, `in:` or `newest:` token's value; undefined without the hashes. */
  compositeValue: ((token: string) => string | undefined) | undefined;
} {
  const all = [...resolved.authors, ...resolved.volumes, ...resolved.manuscripts];
  // Without every record's hash (a build that did not hash its files), nothing can be reused.
  if (all.some((record) => record.origin.hash === undefined))
    return { keyOf: () => undefined, keyOfValues: () => undefined, compositeValue: undefined };
  /** A record token's value: its file's hash; a field group's, what its fields hold. */
  const recordValue = (token: string): string | undefined => {
    const record = recordOf(token);
    if (!record) return undefined;
    const group = groupOfToken(token.charCodeAt(0));
    return group?.value ? group.value(record) : valueOf(record);
  };
  const composite = new Map<string, string>();
  const compositeValue = (token: string): string | undefined => {
    let value = composite.get(token);
    if (value !== undefined) return value;
    if (token.startsWith(EACH)) {
      const collection = token.slice(EACH.length) as Collection;
      const records = resolved[collection] as readonly { origin: { key: string; hash?: string } }[] | undefined;
      if (!records) return undefined;
      value = digest(records.map((r) => `${r.origin.key}\n${valueOf(r)!}`).join('\n'));
    } else if (token.startsWith('in:')) {
      const volume = resolved.volumes.find((v) => v.origin.key === token.slice(3));
      if (!volume) return undefined;
      value = digest(
        membersOf(volume.id)
          .map((i) => resolved.manuscripts[i]!.origin.key)
          .join('\n'),
      );
    } else if (token.startsWith(NEWEST)) {
      const count = Number(token.slice(NEWEST.length));
      if (!Number.isSafeInteger(count)) return undefined;
      value = digest(
        newestOf(count)
          .map((i) => resolved.manuscripts[i]!.origin.key)
          .join('\n'),
      );
    } else return undefined;
    composite.set(token, value);
    return value;
  };
  /** One record alone (an author's or a volume's item, most keys): its bytes follow from its file's content, so its hash is the key. */
  const alone = (reads: string) =>
    !reads.includes('\n') && !reads.includes(EACH) && !reads.startsWith('in:') && !reads.startsWith(NEWEST);
  return {
    compositeValue,
    // What an earlier build recorded: each token valued as the content is now.
    keyOf(reads) {
      if (reads === '') return digest('');
      if (alone(reads)) return recordValue(reads);
      let text = reads;
      let start = 0;
      while (start <= reads.length) {
        const end = reads.indexOf('\n', start);
        const token = reads.slice(start, end < 0 ? reads.length : end);
        const value = recordValue(token) ?? compositeValue(token);
        if (value === undefined) return undefined;
        text += `\n${value}`;
        if (end < 0) break;
        start = end + 1;
      }
      return digest(text);
    },
    // What a body read just now: the records' hashes came with it, so no lookup by key is made
    // (the tables of every record's hash by key cost a cold build tens of MB).
    keyOfValues(tokens, values) {
      if (tokens === '') return digest('');
      if (alone(tokens)) return values[0];
      let text = tokens;
      let start = 0;
      for (const known of values) {
        const end = tokens.indexOf('\n', start);
        const value = known ?? compositeValue(tokens.slice(start, end < 0 ? tokens.length : end));
        if (value === undefined) return undefined;
        text += `\n${value}`;
        start = end + 1;
      }
      return digest(text);
    },
  };
}

function digest(text: string): string {
  return hash('sha1', text, 'base64url');
}
