/**
 * The outputs → files seam kept in memory (`npm run dev`): nothing is written. A renderer lists its
 * outputs as in a build (output.ts) when one of them is first asked for, keyed by what they read
 * last time (reuse/); a file's bytes are made when it is asked for, and kept under its key, so a
 * file asked for again is made again only when a record it read has changed. A list is kept with
 * its items' keys and places: after an edit, only the items whose keys changed are rendered, the
 * rest are the previous bytes.
 */
import type { OutputFile } from '../../../shared/output-file.ts';
import type { Renderer } from '../../model/site.ts';
import type { ResolvedJournal } from '../../stages/resolve.ts';
import { readLongFieldsIn } from '../load/packed-manuscript.ts';
import { rereadManuscript } from '../load/reread.ts';
import { joinChunk, keyed, splicedChunks, type ByteRange, type ListTable } from '../write/list-items.ts';
import { chunksOf } from '../write/previous-lists.ts';
import { trackReads } from '../reuse/read-tracking.ts';
import { emptyReads, keyOutputs, type KeyedRender, type RecordedReads } from '../reuse/reuse.ts';
import { listingSite, type ListedFields } from './listing-site.ts';

/** What the outputs made so far are, kept from one edit to the next. */
export interface OutputMemo {
  /** What each output and list item read when it was last made. */
  reads: RecordedReads;
  files: Map<string, { key: string; bytes: Uint8Array }>;
  lists: Map<string, KeptList>;
}

/** A list as last made: its bytes, and its items' keys and lengths as the build's write stage records them. */
interface KeptList {
  bytes: Uint8Array;
  table: ListTable;
}

export function emptyMemo(): OutputMemo {
  return { reads: emptyReads(), files: new Map(), lists: new Map() };
}

export interface LiveOutput {
  /** The outputs of the renderer at `at`, listed when first asked for (and their reads noted in `fields`). */
  outputsOf(at: number): readonly OutputFile[];
  /** The bytes of an output of this site (made now, or kept since its reads last changed). */
  bytesOf(output: OutputFile): Uint8Array;
}

export function renderLive(
  resolved: ResolvedJournal,
  renderers: readonly Renderer[],
  memo: OutputMemo,
  fields: ListedFields,
): LiveOutput {
  // As a build does (output.ts): a record restored from the check index reads its long fields in first.
  const tracker = trackReads(resolved, { readIn: (record) => readLongFieldsIn(record, rereadManuscript) });
  const listing = listingSite(tracker.site, fields);
  // A renderer lists its outputs when one of them is first asked for: a page asked for after a save
  // lists the pages, not the 750,000 outputs of every renderer (live-build.ts keeps the paths).
  const listed = new Map<number, readonly OutputFile[]>();
  // An output is keyed when it is first asked for, not all of them after each edit (at 100,000
  // manuscripts, keying every page and list item costs more than the rest of the edit). What it
  // read is kept in one record across edits: an output keyed now replaces what it read before, and
  // one never asked for keeps it.
  const keyed = new Map<OutputFile, KeyedRender>();
  return {
    outputsOf(at) {
      let outputs = listed.get(at);
      if (!outputs) listed.set(at, (outputs = listing.list(() => renderers[at]!.render(listing.site))));
      return outputs;
    },
    bytesOf(output) {
      let render = keyed.get(output);
      if (!render) keyed.set(output, (render = keyOutputs([output], tracker, memo.reads, memo.reads)));
      return bytesOf(output, memo, render);
    },
  };
}

const encoder = new TextEncoder();
const toBytes = (body: string | Uint8Array) => (typeof body === 'string' ? encoder.encode(body) : body);

function bytesOf(output: OutputFile, memo: OutputMemo, render: KeyedRender): Uint8Array {
  const { body } = output;
  if (typeof body !== 'function') return toBytes(body);
  if (output.items) return listBytes(output, memo);
  const kept = memo.files.get(output.path);
  if (kept && output.key !== undefined && kept.key === output.key) return kept.bytes;
  // The one output keyed (bytesOf above) has place 0.
  const bytes = toBytes(
    render(output, 0)
      .map((part) => (typeof part === 'string' ? part : part.toString()))
      .join(''),
  );
  // Rendering set its key from what it read while it ran (reuse.ts).
  if (output.key !== undefined) memo.files.set(output.path, { key: output.key, bytes });
  else memo.files.delete(output.path);
  return bytes;
}

/**
 * A list as the build's write stage makes it (list-items.ts, splicedChunks): an item the previous
 * list holds under the same key is taken from its bytes, the rest are rendered; equal keys mean
 * equal bytes (reuse.ts).
 */
function listBytes(output: OutputFile, memo: OutputMemo): Uint8Array {
  const previous = memo.lists.get(output.path);
  if (previous && previous.table.key === output.key) return previous.bytes;
  const items = output.items && keyed(output.items) ? output.items : undefined;
  const record = { lengths: new Uint32Array(items?.count ?? 0), rendered: 0 };
  const chunks = items ? splicedChunks(items, previous?.table, record) : chunksOf(output.body);
  const readInto = (range: ByteRange, into: Uint8Array, at: number) =>
    into.set(previous!.bytes.subarray(range.position, range.position + range.length), at);
  const bytes = Buffer.concat([...chunks].map((parts) => joinChunk(parts, readInto)));
  // As the build records a list's table (site-writer.ts): only with every item keyed.
  if (items && output.key !== undefined)
    memo.lists.set(output.path, {
      bytes,
      table: { key: output.key, stamps: [], keys: items.keys.join('\n'), lengths: record.lengths },
    });
  else memo.lists.delete(output.path);
  return bytes;
}
