/**
 * The one table of path rules that every host configuration is rendered from (STYLE: "host configs
 * are rendered from one table, never written by hand per host"). A host renderer only translates
 * these rules into its own syntax.
 */
import { API_LISTS, listFile, PAGE_FOLDERS } from '../shared/contract.ts';

export type Method = 'GET' | 'HEAD';

export interface ApiRule {
  /** Canonical path of the list, with its trailing slash: `/api/authors/` (SPEC section 4). */
  path: string;
  /** The file that answers it, relative to the output folder. */
  file: string;
  /** The same path without the slash; answered with a 301 to `path`, query kept (SPEC-NOTES 6). */
  redirectFrom: string;
}

export interface HostRules {
  api: ApiRule[];
  /** Headers on every list response, on both `path` and `/<file>` (SPEC section 4, SPEC-NOTES 7). */
  apiHeaders: Readonly<Record<string, string>>;
  /** The only methods that succeed; every other one gets 405 with `Allow` (SPEC-NOTES 5). */
  allowedMethods: readonly Method[];
  /** Where the PDFs are served, and the headers they carry. */
  mediaPrefix: string;
  mediaHeaders: Readonly<Record<string, string>>;
  /**
   * The precompressed twins the build writes next to each list (write.ts), in the order a host
   * should prefer them. A host that serves one adds `Accept-Encoding` to `Vary` (SPEC-NOTES 7).
   */
  precompressed: readonly { encoding: 'br' | 'gzip'; suffix: string }[];
  /** The page every unknown path gets, with status 404 (never a fallback page served as JSON). */
  notFoundPage: string;
  /**
   * The HTML pages (docs/indexing.md): `/<folder>/<name>` is answered with the file
   * `<folder>/<name>.html` as HTML. The two other spellings, `/<folder>/<name>.html` and
   * `/<folder>/<name>/` (the URL the pages had when each was a folder), move to it permanently where the
   * host can say so; the home page `/` stays a folder index (`index.html`).
   */
  pages: { folders: readonly string[]; suffix: '.html' };
}

/** SPEC section 4: exactly these three, with no charset parameter on the type. */
export const CONTRACT_HEADERS = Object.freeze({
  'Content-Type': 'application/json',
  Allow: 'GET',
  Vary: 'Accept',
});

export const hostRules: HostRules = Object.freeze({
  api: API_LISTS.map((list) => ({
    path: `/api/${list}/`,
    file: listFile(list),
    redirectFrom: `/api/${list}`,
  })),
  apiHeaders: Object.freeze({
    ...CONTRACT_HEADERS,
    // SPEC-NOTES 7: the data is public and read-only.
    'Access-Control-Allow-Origin': '*',
    'X-Content-Type-Options': 'nosniff',
    // Short enough that a new issue shows within minutes, long enough to absorb harvester bursts;
    // hosts add a validator (ETag or Last-Modified) for cheap revalidation.
    'Cache-Control': 'public, max-age=300',
  }),
  allowedMethods: ['GET', 'HEAD'] as Method[],
  mediaPrefix: '/media/',
  mediaHeaders: Object.freeze({
    // SPEC-NOTES 5: the PDFs are read-only too, and a 405 for them names GET like the lists do.
    Allow: 'GET',
    'Access-Control-Allow-Origin': '*',
    'X-Content-Type-Options': 'nosniff',
    // A published PDF never changes at the same URL in practice; a day is still safe to correct.
    'Cache-Control': 'public, max-age=86400',
  }),
  precompressed: Object.freeze([
    { encoding: 'br', suffix: '.br' },
    { encoding: 'gzip', suffix: '.gz' },
  ] as const),
  notFoundPage: '/404.html',
  pages: Object.freeze({ folders: PAGE_FOLDERS, suffix: '.html' as const }),
});

/**
 * `Vary` on the lists for a host that negotiates compression: the contract's value plus
 * `Accept-Encoding` (SPEC-NOTES 7), on every variant, so a cache never hands gzip to a client that
 * did not ask for it.
 */
export function compressedVary(rules: HostRules): string {
  return `${rules.apiHeaders['Vary']}, Accept-Encoding`;
}
