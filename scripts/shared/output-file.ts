/** What every renderer returns: paths relative to `dist/` and their content. Nothing touches disk here. */
export interface OutputFile {
  /** Forward slashes, relative to the output folder, e.g. `api/authors/index.json`. */
  path: string;
  /** Small files as a whole; large lists as a lazy sequence of chunks, streamed to disk. */
  body: string | Uint8Array | (() => Iterable<string>);
  /**
   * A list: the same bytes as `body`, item by item (ListItems). The write stage takes
   * the items it wrote before under the same key from the previous file instead of rendering them.
   */
  items?: ListItems;
  /** Also write precompressed `.gz` and `.br` variants next to it. */
  precompress?: boolean;
  /**
   * Identifies everything the content depends on (issue 4). When the previous build wrote this path
   * with the same key, the write stage reuses that file instead of rendering it again. No key: always written.
   */
  key?: string;
}

/** A JSON array, item by item (render-api.ts); `keys` are attached later (output-keys.ts). */
export interface ListItems {
  count: number;
  /** The item's JSON text, or its pieces: texts, and bytes that are UTF-8 JSON already. */
  render(i: number): string | readonly (string | Uint8Array)[];
  /**
   * Each item's key: everything its bytes depend on, apart from what the build cache's fingerprint
   * covers (the build code and the journal settings). Equal keys mean equal bytes.
   */
  keys?: readonly string[];
}
