/** What every renderer returns: paths relative to `dist/` and their content. Nothing touches disk here. */
export interface OutputFile {
  /** Forward slashes, relative to the output folder, e.g. `api/authors/index.json`. */
  path: string;
  /**
   * Small files as a whole; large lists as a lazy sequence of chunks, streamed to disk; a page as
   * its parts, some of which may be made where the page is written (DeferredText).
   */
  body: string | Uint8Array | (() => Iterable<string | DeferredText>);
  /**
   * A list: the same bytes as `body`, item by item (ListItems). The write stage takes
   * the items it wrote before under the same key from the previous file instead of rendering them.
   */
  items?: ListItems;
  /** Also write precompressed `.gz` and `.br` variants next to it (PRECOMPRESSED). */
  precompress?: boolean;
  /**
   * Identifies everything the content depends on. When the previous build wrote this path
   * with the same key, the write stage reuses that file instead of rendering it again. No key: always written.
   * KEY_AS_RECORDED: whatever key the previous build recorded for this path stands.
   */
  key?: string;
}

/**
 * A file made from one record by a function every record of its kind shares: a manuscript's landing
 * page, its citation files, a record's detail. Its body is made when asked for. A file given as an
 * object literal has a function of its own, and what that function holds, for its whole life, and
 * the key the build sets later takes storage of its own: at 100,000 manuscripts, 650,000 such
 * files were 85 MB more of a build's heap, held to the end of a build where nearly every file is
 * taken from the previous one and never rendered (docs/performance.md).
 */
export class RecordFile<R> implements OutputFile {
  /** Set by the build (OutputFile.key), in a place of its own from the start. */
  key: string | undefined = undefined;

  constructor(
    readonly path: string,
    readonly record: R,
    private readonly write: (record: R) => Iterable<string | DeferredText>,
  ) {}

  get body(): () => Iterable<string | DeferredText> {
    return () => this.write(this.record);
  }
}

/** The twins written next to a file marked `precompress`, in this order. */
export const PRECOMPRESSED = ['.gz', '.br'] as const;

/**
 * An output's key when the build knows that nothing the output read has changed since the previous
 * build made it (generator/engine/reuse/record-values.ts): the key recorded then stands, if there
 * was one. Not a hash, so it equals no recorded key.
 */
export const KEY_AS_RECORDED = '\0as recorded';

/**
 * How a list's items make its file: `open`, the items joined by `separator`, then `close` (with no
 * item, `open` and `close` alone). The write stage and dev splice a list by it; nothing else of the
 * format is theirs to know.
 */
export interface ListFraming {
  readonly open: string;
  readonly separator: string;
  readonly close: string;
}

/** SPEC 4, rule 1: a bare JSON array, its items joined by commas, no spaces (as DRF writes it). */
export const JSON_ARRAY: ListFraming = Object.freeze({ open: '[', separator: ',', close: ']' });

/** A list's framing: its own, or the JSON array when it names none. */
export function framingOf(items: ListItems): ListFraming {
  return items.framing ?? JSON_ARRAY;
}

/** A list, item by item (render/api.ts); its `keys` are set by the build from what each item read (engine/reuse/reuse.ts). */
export interface ListItems {
  count: number;
  /** The item's text, or its pieces: texts, and bytes that are UTF-8 text already (JSON, in a JSON array). */
  render(i: number): string | readonly (string | Uint8Array)[];
  /** What surrounds and separates the items; JSON_ARRAY when left out. `body` must give the same bytes. */
  framing?: ListFraming;
  /** The record item `i` is about: an item is matched with the previous build's by it. */
  subject?(i: number): object;
  /** What each item read when it was last rendered, by its record (set by the build, kept in its cache). */
  reads?: Map<string, string>;
  /**
   * Each item's key: everything its bytes depend on, apart from what the build cache's fingerprint
   * covers (the build code and the journal settings). Equal keys mean equal bytes.
   */
  keys?: readonly string[];
}

/**
 * A part of a file's text made by the thread that writes the file, from bytes it is sent with the
 * file (generator/render/abstract-text.ts: a landing page's abstract), or, when that thread is
 * behind, by the one that hands the file over (`make`). Anything else that reads the text gets it
 * with `toString()`, so `parts.join('')` reads a page whole.
 */
export interface DeferredText {
  /** What to make of `source`: a number the file writer's thread knows (generator/render/abstract-text.ts, makeDeferredText). */
  readonly maker: number;
  readonly source: Uint8Array;
  /** The text, made here: as a string, or as its UTF-8 bytes. */
  make(): string | Uint8Array;
  toString(): string;
}

/** The files of a new output as written, before it is swapped in: each one's path and size in bytes (NaN: not known). */
export interface WrittenFiles {
  readonly count: number;
  name(file: number): string;
  sizeOf(file: number): number;
}
