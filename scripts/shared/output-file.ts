/** What every renderer returns: paths relative to `dist/` and their content. Nothing touches disk here. */
export interface OutputFile {
  /** Forward slashes, relative to the output folder, e.g. `api/authors/index.json`. */
  path: string;
  /** Small files as a whole; large lists as a lazy sequence of chunks, streamed to disk. */
  body: string | Uint8Array | (() => Iterable<string>);
  /** Also write precompressed `.gz` and `.br` variants next to it. */
  precompress?: boolean;
  /**
   * Identifies everything the content depends on (issue 4). When the previous build wrote this path
   * with the same key, the write stage reuses that file instead of rendering it again. No key: always written.
   */
  key?: string;
}
