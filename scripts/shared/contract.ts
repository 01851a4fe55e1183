/**
 * The contract's fixed names (SPEC section 4), shared by the renderer that writes the lists, the
 * host rules that serve them, and the import that reads them.
 */

/** The three list paths of the contract, `/api/<list>/`. */
export const API_LISTS = ['authors', 'volumes', 'manuscripts'] as const;
export type ApiList = (typeof API_LISTS)[number];

/** The file that answers a list path, relative to the output folder. */
export const listFile = (list: ApiList) => `api/${list}/index.json`;

/**
 * The folders of the HTML pages (docs/indexing.md): a page's URL `/<folder>/<name>` has no
 * extension and is answered by the file `<folder>/<name>.html`; the home page `/` by `index.html`.
 * One file per page, not a folder per page: a folder each costs a cold build about ten seconds at
 * 100,000 pages (docs/performance.md). Shared by the page renderer and the host rules that serve
 * the pages.
 */
export const PAGE_FOLDERS = ['volumes', 'manuscripts'] as const;

/** The file that answers a page's URL path (`/manuscripts/7` → `manuscripts/7.html`, `/` → `index.html`). */
export const pageFile = (urlPath: string) => (urlPath === '/' ? 'index.html' : `${urlPath.slice(1)}.html`);

/** The folder of the PDFs: `content/media/` holds them at the paths they are published at under `/media/`. */
export const MEDIA_FOLDER = 'media';
