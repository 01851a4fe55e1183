/**
 * Where a host cannot meet a point of the HTTP contract, it says so here, in one sentence that its
 * docs/hosting page repeats word for word (the suite checks that it does). The suite then asserts
 * what the host does instead, so an exception is tested, never skipped.
 */
import type { HostName } from './server.ts';

export type CheckId =
  | 'list-get'
  | 'list-head'
  | 'index-json'
  | 'methods'
  | 'no-slash'
  | 'gzip'
  | 'br'
  | 'not-found'
  | 'media'
  | 'range'
  | 'media-methods'
  | 'detail-get'
  | 'detail-file'
  | 'detail-no-slash'
  | 'detail-not-found'
  | 'types';

export const HOST_EXCEPTIONS: Record<HostName, Partial<Record<CheckId, string>>> = {
  nginx: {
    br: "Debian's nginx-light has no brotli module: a client that accepts only br gets the uncompressed list (gzip when it also accepts gzip).",
  },
  apache: {},
  'apache-htaccess': {},
  caddy: {},
  wrangler: {
    range: '`wrangler pages dev` answers a Range request with 200 and the whole file.',
  },
  preview: {},
};

export const HOST_DOCS: Record<HostName, string> = {
  nginx: 'docs/hosting/nginx.md',
  apache: 'docs/hosting/apache.md',
  'apache-htaccess': 'docs/hosting/apache.md',
  caddy: 'docs/hosting/caddy.md',
  wrangler: 'docs/hosting/cloudflare-pages.md',
  preview: 'docs/hosting/cloudflare-pages.md',
};

/**
 * How each host moves a page's other spellings, `/manuscripts/<id>.html` and `/manuscripts/<id>/`,
 * to its URL (docs/indexing.md): the printed configs say 301; Cloudflare Pages does it itself with
 * 308 (its HTML handling, which `_redirects` cannot change), and the preview does as Cloudflare does.
 */
export const PAGE_MOVED_STATUS: Record<HostName, 301 | 308> = {
  nginx: 301,
  apache: 301,
  'apache-htaccess': 301,
  caddy: 301,
  wrangler: 308,
  preview: 308,
};
