/**
 * Keys for the outputs, from what their bodies read (read-tracking.ts): an output's key is what it
 * read last time, valued as the content is now. The write stage takes the previous build's file of
 * that path when its recorded key is the same (write.ts), and otherwise renders it (KeyedRender),
 * which notes what its body reads this time and sets the key the next build will compare with.
 *
 * A list's items are keyed the same way, one by one, by the record each item is about: the list
 * writer renders only the items whose keys changed (list-items.ts). An item whose record is new has
 * a key no earlier item has, until it is rendered.
 *
 * A body given as a string or bytes was made while the renderer listed its outputs, where nothing is
 * noted: it has no key and is always written (host files, robots.txt: small).
 */
import { hash } from 'node:crypto';
import { KEY_AS_RECORDED, type DeferredText, type ListItems, type OutputFile } from '../../../shared/output-file.ts';
import type { ReadsByPath } from '../cache/output-reads.ts';
import type { ReadTracker } from './read-tracking.ts';
import { changesSince, type RecordValues } from './record-values.ts';

/**
 * What each output (by path) and each list item (by its record's token, per list) read when it was
 * last rendered. An item that read its own record only is not listed: most items are (every author
 * and volume), and at 250,000 items the entries were tens of MB of a build's peak of memory. An
 * output not made again is not listed either: what it read is still what `previous` says.
 */
export interface RecordedReads {
  outputs: Map<string, string>;
  items: Map<string, Map<string, string>>;
  /**
   * A build's record of what the outputs keyed by their bodies read, by their places among them in
   * keyOutputs' order, instead of `outputs`: at 100,000 manuscripts a map of 650,000 paths was 28 MB,
   * and twice that while it grew, at the top of a cold build's peak.
   */
  byPlace?: (string | undefined)[];
}

/** What the previous build recorded, as read from its cache (cache/output-reads.ts). */
export interface PreviousReads {
  outputs: ReadsByPath;
  items: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** What the tokens named when those reads were recorded (record-values.ts). */
  values?: RecordValues | undefined;
}

export function emptyReads(): RecordedReads {
  return { outputs: new Map(), items: new Map() };
}

/**
 * Renders an output keyed by its body: calls the body, notes what it read into the RecordedReads
 * given to keyOutputs, and sets the output's key anew. `place` is its place among the outputs keyed
 * by their bodies, in keyOutputs' order.
 */
export type KeyedRender = (output: OutputFile, place: number) => (string | DeferredText)[];

/**
 * Gives every output with a body to call its key from `previous`, wraps its items' renders so that
 * what they read is noted into `recorded`, and returns how to render the others (KeyedRender).
 * Outputs taken from the previous build keep what they read then. `once`: each body is called at
 * most once (a build, which writes each file once), and lets go of what made it once called.
 *
 * A body is not wrapped in a function of its own: at 100,000 manuscripts the 650,000 wrappers, with
 * what each held, were about 127 MB of a build's heap until the end of the build after an edit,
 * where nearly every output is taken from the previous build and never rendered.
 */
export function keyOutputs(
  outputs: readonly OutputFile[],
  tracker: ReadTracker,
  previous: PreviousReads | undefined,
  recorded: RecordedReads,
  { once = false }: { once?: boolean } = {},
): KeyedRender {
  // The files made of one record mostly read the same records (a manuscript's page and its three
  // citation files): their reads are valued once, and reads noted anew are kept as one string.
  // Reads that name nothing changed need no valuing, nor a place in the map (325,000 of them at
  // 100,000 manuscripts).
  const keys = new Map<string, string | undefined>();
  const copies = new Map<string, string>();
  const changed = changedReads(tracker, previous?.values);
  const valued = (reads: string): string | undefined => {
    if (changed && !changed(reads)) return KEY_AS_RECORDED;
    if (keys.has(reads)) return keys.get(reads);
    const key = tracker.keyOf(reads);
    keys.set(reads, key);
    return key;
  };
  /** The one copy of reads just noted: the files of a record are rendered by different renderers. */
  const kept = (reads: string): string => {
    const copy = copies.get(reads);
    if (copy !== undefined) return copy;
    copies.set(reads, reads);
    return reads;
  };
  // What each output read before, by place. It stays in `previous` until the output is made again:
  // a map of 750,000 paths copied from there cost a build after an edit at 100,000 manuscripts half
  // a second (RecordedReads).
  const before: (string | undefined)[] = [];
  for (const output of outputs) {
    if (output.items) keyItems(output, output.items, tracker, previous?.items.get(output.path), recorded);
    else if (keyedByBody(output)) {
      const reads = previous?.outputs.get(output.path);
      before.push(reads);
      output.key = reads === undefined ? undefined : valued(reads);
    }
  }
  return (output, place) => {
    const then = before[place];
    if (then === RENDERED) calledAlready();
    const render = output.body as () => Iterable<string | DeferredText>;
    if (then !== undefined) tracker.prepare(then);
    const { value, reads, key } = tracker.track(() => [...render()]);
    if (recorded.byPlace) recorded.byPlace[place] = kept(reads);
    else recorded.outputs.set(output.path, kept(reads));
    output.key = key;
    if (once) {
      // At 100,000 manuscripts, the bodies of 750,000 outputs written already were about 100 MB of
      // what a cold build holds while it writes (docs/performance.md). A RecordFile's
      // body is its record's, which the build holds anyway: it has nothing to let go of.
      if (Object.hasOwn(output, 'body')) output.body = calledAlready;
      before[place] = RENDERED;
    }
    return value;
  };
}

/**
 * Whether keyOutputs keys an output by what its body reads (its reads are then RecordedReads.outputs'
 * and PreviousReads.outputs', in the order of the outputs); a list is keyed by its items, and a body
 * given as text or bytes not at all.
 */
export function keyedByBody(output: OutputFile): output is OutputFile & { body: () => Iterable<unknown> } {
  return !output.items && typeof output.body === 'function';
}

/** Whether reads name anything changed since `then`; undefined when every output is to be valued anew. */
function changedReads(tracker: ReadTracker, then: RecordValues | undefined): ((reads: string) => boolean) | undefined {
  const now = then && tracker.values(then.composites.map(([token]) => token));
  return then && now && changesSince(then, now);
}

/**
 * Item `i`'s key from what it read when it was last rendered. Most items read their own record only
 * and are not in `previous` (every author): such an item is valued by its record, with no token made
 * or looked up (150,000 of them at 100,000 manuscripts).
 */
function keyBefore(
  i: number,
  items: ListItems,
  tracker: ReadTracker,
  previous: ReadonlyMap<string, string>,
  tokenOf: (i: number, subject: object | undefined) => string,
  reads: Map<string, string>,
): string | undefined {
  const subject = items.subject?.(i);
  if (subject && previous.size === 0) return tracker.keyOfRecord(subject);
  const token = tokenOf(i, subject);
  const before = previous.get(token) ?? token;
  if (before === token) return subject ? tracker.keyOfRecord(subject) : tracker.keyOf(token);
  reads.set(token, before);
  return tracker.keyOf(before);
}

/** In keyOutputs' `before`, an output made already in a build that makes each once. */
const RENDERED = '\0rendered';

/** The body of an output a build has made already. */
function calledAlready(): never {
  throw new Error('an output is made once in a build');
}

function keyItems(
  output: OutputFile,
  items: ListItems,
  tracker: ReadTracker,
  previous: ReadonlyMap<string, string> | undefined,
  recorded: RecordedReads,
): void {
  const reads = new Map<string, string>();
  recorded.items.set(output.path, reads);
  const keys = new Array<string>(items.count);
  // An item's token is made again when it is rendered rather than kept: 250,000 of them were
  // strings held to the end of a build.
  const tokenOf = (i: number, subject = items.subject?.(i)) => (subject && tracker.tokenOf(subject)) || `item:${i}`;
  for (let i = 0; i < items.count; i++) {
    // A key no previous item has (keys are hashes): the item is rendered, and keyed then.
    keys[i] = (previous && keyBefore(i, items, tracker, previous, tokenOf, reads)) || `new:${i}`;
  }
  const render = items.render;
  items.keys = keys;
  items.reads = reads;
  // The list's key, made again only after an item was rendered: the write stage asks for it several
  // times, and at 100,000 manuscripts each answer hashed 250,000 keys.
  let listKey: { value: string | undefined } | undefined;
  items.render = (i) => {
    const token = tokenOf(i);
    tracker.prepare(reads.get(token) ?? token);
    const { value, reads: read, key } = tracker.track(() => render(i));
    if (read === token) reads.delete(token);
    else reads.set(token, read);
    keys[i] = key ?? `new:${i}`;
    listKey = undefined;
    return value;
  };
  // The list is its items in order: its key is theirs, as they are when it is asked for.
  Object.defineProperty(output, 'key', {
    configurable: true,
    enumerable: true,
    get: () =>
      (listKey ??= {
        value:
          tracker.keyOf('') === undefined || keys.some((key) => key.startsWith('new:'))
            ? undefined
            : hash('sha1', `items\n${keys.join('\n')}`, 'base64url'),
      }).value,
  });
}
