/**
 * What every token named when the output was last made (read-tracking.ts), kept with the outputs'
 * reads in the build cache, so that the next build can tell which tokens changed since. An output
 * whose reads name none of them keeps the key it was written with: its recorded key was made from
 * those same values. Only an output that read something that changed is valued again, token by
 * token. At 100,000 manuscripts, valuing the reads of 750,000 outputs (a lookup per token) was a
 * quarter of a build with nothing changed; comparing the records' values in order takes a few tens
 * of milliseconds.
 */

import { FIELD_GROUPS } from './field-groups.ts';

/**
 * Each collection's record keys and their values, newline-joined in the records' order, each field
 * group's values, and the composite tokens' values.
 */
export interface RecordValues {
  /** Authors, volumes, manuscripts: each a newline-joined list of keys. */
  keys: readonly string[];
  /** The value of each key above, in the same order. */
  values: readonly string[];
  /**
   * Each field group's values (FIELD_GROUPS, in order), in the order of its collection's keys; for
   * a group valued as its record, nothing (its collection's `values` are its values).
   */
  groups: readonly string[];
  /** `each:`, `in:` and `newest:` tokens and their values. */
  composites: readonly (readonly [string, string])[];
}

/** The token prefix of each collection, and its token read whole, in RecordValues' order (read-tracking.ts). */
const COLLECTION_PREFIXES = ['a:', 'v:', 'm:'] as const;
const COLLECTION_TOKENS = ['each:authors', 'each:volumes', 'each:manuscripts'] as const;
const COLLECTIONS = ['authors', 'volumes', 'manuscripts'] as const;

/**
 * Past this many changed tokens, an output's reads are valued token by token instead: a search
 * for each changed token in each distinct reads would cost more than the lookups it saves.
 */
const MOST_CHANGED = 64;

/**
 * Whether some reads name a token whose value is not what it was in `then`: undefined when that
 * cannot be told cheaply (too many changes), and every output is to be valued again.
 */
export function changesSince(then: RecordValues, now: RecordValues): ((reads: string) => boolean) | undefined {
  const changed: string[] = [];
  for (let c = 0; c < COLLECTION_PREFIXES.length; c++) {
    if (then.keys[c] === now.keys[c] && then.values[c] === now.values[c]) continue;
    changed.push(COLLECTION_TOKENS[c]!);
    const values = [then.values[c]!, now.values[c]!] as const;
    if (!changedRecords(COLLECTION_PREFIXES[c]!, [then.keys[c]!, now.keys[c]!], values, changed)) return undefined;
  }
  // A group changes with its record's file (whose `each:` token is in `changed` already), or not;
  // one valued as its record, as the record does.
  for (let g = 0; g < FIELD_GROUPS.length; g++) {
    const group = FIELD_GROUPS[g]!;
    const c = COLLECTIONS.indexOf(group.collection);
    const keys = [then.keys[c]!, now.keys[c]!] as const;
    const values = group.value
      ? ([then.groups[g], now.groups[g]] as const)
      : ([then.values[c], now.values[c]] as const);
    if (keys[0] === keys[1] && values[0] === values[1]) continue;
    if (values[0] === undefined || values[1] === undefined) return undefined;
    if (!changedRecords(group.prefix, keys, [values[0], values[1]], changed)) return undefined;
  }
  const current = new Map(now.composites);
  for (const [token, value] of then.composites) {
    if (current.get(token) !== value) changed.push(token);
    if (changed.length > MOST_CHANGED) return undefined;
  }
  if (changed.length === 0) return () => false;
  return (reads) => changed.some((token) => namesToken(reads, token));
}

/**
 * Adds the tokens (`prefix` and a key) whose value changed, or whose record is gone, from the
 * newline-joined keys and values then and now; false past MOST_CHANGED.
 */
function changedRecords(
  prefix: string,
  [keysThen, keysNow]: readonly [string, string],
  [valuesThen, valuesNow]: readonly [string, string],
  changed: string[],
): boolean {
  const thenKeys = keysThen.split('\n');
  const thenValues = valuesThen.split('\n');
  const nowKeys = keysNow.split('\n');
  const nowValues = valuesNow.split('\n');
  const add = (key: string) => changed.push(prefix + key) <= MOST_CHANGED;
  if (keysThen === keysNow) {
    for (let i = 0; i < thenKeys.length; i++) if (thenValues[i] !== nowValues[i] && !add(thenKeys[i]!)) return false;
    return true;
  }
  // Records added, removed or renamed: matched by key. A new record is in no earlier reads but
  // through the composite tokens, whose values change with it.
  const valueNow = new Map<string, string>();
  nowKeys.forEach((key, i) => valueNow.set(key, nowValues[i]!));
  for (let i = 0; i < thenKeys.length; i++)
    if (valueNow.get(thenKeys[i]!) !== thenValues[i] && !add(thenKeys[i]!)) return false;
  return true;
}

/** Whether the newline-joined `reads` has `token` as one of its lines. */
function namesToken(reads: string, token: string): boolean {
  for (let at = reads.indexOf(token); at >= 0; at = reads.indexOf(token, at + 1)) {
    const end = at + token.length;
    if (
      (at === 0 || reads.charCodeAt(at - 1) === NEWLINE) &&
      (end === reads.length || reads.charCodeAt(end) === NEWLINE)
    )
      return true;
  }
  return false;
}

const NEWLINE = 10;
