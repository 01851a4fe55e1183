/**
 * The path rules every host configuration is rendered from (STYLE: "host configs are rendered from
 * one table, never written by hand per host"): their shapes, the rules the API contract fixes (the
 * lists, the records, the PDFs, the pages), and the helpers a host renderer translates them with.
 * The types of the other files are declared by the renderers that write them (model/site.ts,
 * `types`); `hostRulesFor` puts the two together, and rules.ts is the table of this build's renderers.
 */
import { API_LISTS, API_ROOT, API_SECTIONS, DETAIL_SUFFIX, listFile, PAGE_FOLDERS } from '../shared/contract.ts';
import type { Renderer, TypeRule } from '../generator/model/site.ts';

export type { TypeRule };

export type Method = 'GET' | 'HEAD';

export interface ApiRule {
  /**
   * Canonical path of the list, with its trailing slash: `/api/authors/` (SPEC section 4); the API
   * root `/api/` and `/api/sections/` are served the same way (SPEC section 10).
   */
  path: string;
  /** The file that answers it, relative to the output folder. */
  file: string;
  /** The same path without the slash; answered with a 301 to `path`, query kept (SPEC-NOTES 6). */
  redirectFrom: string;
}

/**
 * A record's detail route (SPEC section 10): `/api/<list>/<id>/` is answered by the file
 * `api/<list>/<id>.json`, with the lists' headers and methods. The file's own path
 * `/api/<list>/<id>.json` (the original's format suffix) answers the same; `/api/<list>/<id>` moves
 * to the slash path with 301, query kept (SPEC-NOTES 6). An id no record has gets the 404 page. The
 * files have no precompressed twins (a few hundred bytes each, and 100,000 of them at scale).
 */
export interface DetailRules {
  /** The lists whose records have a detail route, by name: `/api/<list>/<id>/`. */
  lists: readonly string[];
  /** What follows the id in the file's name. */
  suffix: '.json';
}

export interface HostRules {
  /** The lists, the API root and the sections: each a folder path answered by its `index.json`. */
  api: ApiRule[];
  details: DetailRules;
  /**
   * Headers on every list response, on both `path` and `/<file>` (SPEC section 4, SPEC-NOTES 7), and
   * on every detail response, at both its spellings.
   */
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
  /**
   * Files served as they are with a type of their own, which hosts do not know by extension (or
   * know without the charset): the citations, the feed, the API's OpenAPI description and the OAI-PMH
   * repository's files, each readable from any origin, as the API is. Each renderer declares its own,
   * and they come in the renderers' order.
   */
  types: readonly TypeRule[];
}

/** SPEC section 4: exactly these three, with no charset parameter on the type. */
export const CONTRACT_HEADERS = Object.freeze({
  'Content-Type': 'application/json',
  Allow: 'GET',
  Vary: 'Accept',
});

/**
 * SPEC-NOTES 7: the data is public and read-only, so any web page may read it; and a file is never
 * sniffed as another type than it is served as. On the API's answers, on the PDFs, and on the
 * files other outputs publish that a page on another origin fetches: the citations (a
 * browser-based reference manager), the feed (a feed reader in the browser), the description of
 * the API (an API explorer such as Swagger UI or Redoc).
 */
export const CROSS_ORIGIN_HEADERS = Object.freeze({
  'Access-Control-Allow-Origin': '*',
  'X-Content-Type-Options': 'nosniff',
});

/** The name of an API folder under `/api/`: `authors`, `sections`; the API root `/api/` has none (''). */
export function apiFolderName(rule: ApiRule): string {
  return rule.path.slice('/api/'.length, -1);
}

/** The folder path's spelling without its slash: `/api/authors/` → `/api/authors`. */
const folderRule = (path: string, file: string): ApiRule => ({ path, file, redirectFrom: path.slice(0, -1) });

/** The rules no renderer declares: the API's, the PDFs', the pages'. */
export const CONTRACT_RULES: Omit<HostRules, 'types'> = Object.freeze({
  api: [
    ...API_LISTS.map((list) => folderRule(`/api/${list}/`, listFile(list))),
    folderRule(API_SECTIONS.path, API_SECTIONS.file),
    folderRule(API_ROOT.path, API_ROOT.file),
  ],
  details: Object.freeze({ lists: API_LISTS, suffix: DETAIL_SUFFIX }),
  apiHeaders: Object.freeze({
    ...CONTRACT_HEADERS,
    ...CROSS_ORIGIN_HEADERS,
    // Short enough that a new issue shows within minutes, long enough to absorb harvester bursts;
    // hosts add a validator (ETag or Last-Modified) for cheap revalidation.
    'Cache-Control': 'public, max-age=300',
  }),
  allowedMethods: ['GET', 'HEAD'] as Method[],
  mediaPrefix: '/media/',
  mediaHeaders: Object.freeze({
    // SPEC-NOTES 5: the PDFs are read-only too, and a 405 for them names GET like the lists do.
    Allow: 'GET',
    ...CROSS_ORIGIN_HEADERS,
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

/** The whole table for a site made by `renderers`: the contract's rules and the types each declares, in their order. */
export function hostRulesFor(renderers: readonly Renderer[]): HostRules {
  return Object.freeze({
    ...CONTRACT_RULES,
    types: Object.freeze(renderers.flatMap((renderer) => renderer.types ?? [])),
  });
}

/** The headers a type rule's files are answered with: their type first, then the rule's others. */
export function typeRuleHeaders(rule: TypeRule): Readonly<Record<string, string>> {
  return { 'Content-Type': rule.contentType, ...rule.headers };
}

/** A type rule's files as a regular expression over the request path (without `^` and `$`). */
export function typeRulePattern(rule: TypeRule): string {
  return 'path' in rule ? escapeRegex(rule.path) : `${escapeRegex(rule.folder)}[^/]+${escapeRegex(rule.extension)}`;
}

export function escapeRegex(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * `Vary` on the lists for a host that negotiates compression: the contract's value plus
 * `Accept-Encoding` (SPEC-NOTES 7), on every variant, so a cache never hands gzip to a client that
 * did not ask for it.
 */
export function compressedVary(rules: HostRules): string {
  return `${rules.apiHeaders['Vary']}, Accept-Encoding`;
}
