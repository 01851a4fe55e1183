/**
 * The contract's fixed names (SPEC section 4), shared by the renderer that writes the lists, the
 * host rules that serve them, and the import that reads them.
 */

/** The three list paths of the contract, `/api/<list>/`. */
export const API_LISTS = ['authors', 'volumes', 'manuscripts'] as const;
export type ApiList = (typeof API_LISTS)[number];

/** The file that answers a list path, relative to the output folder. */
export const listFile = (list: ApiList) => `api/${list}/index.json`;
