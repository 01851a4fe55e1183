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
 * The other routes of the original's router (SPEC-NOTES, "The original deployment"), each a folder
 * path answered by its `index.json` like a list: the root object naming the lists, and the sections.
 */
export const API_ROOT = { path: '/api/', file: 'api/index.json' } as const;
export const API_SECTIONS = { path: '/api/sections/', file: 'api/sections/index.json' } as const;

/**
 * A record's detail route, `/api/<list>/<id>/`, is answered by the file `api/<list>/<id>.json`: one
 * file per record, not a folder each (a folder per record costs a cold build about ten seconds at
 * 100,000 records, docs/performance.md). The file's own path is also the original's `.json` format
 * suffix of the route (docs/contract-notes.md). `<id>` is a manuscript's `id`, a volume's `id`, and
 * an author's key (its file name without the extension).
 */
export const DETAIL_SUFFIX = '.json';
export const detailFile = (list: ApiList, id: string | number) => `api/${list}/${id}${DETAIL_SUFFIX}`;

/**
 * A detail's id that would name the list's own file (`index` → `api/authors/index.json`). Only an
 * author's key can be such a name (ids are numbers); compared without case, since a journal may be
 * built on a file system that ignores it.
 */
export const isReservedDetailId = (id: string) => id.toLowerCase() === 'index';

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
