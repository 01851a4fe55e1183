/**
 * `vercel.json` for Vercel, printed by `npm run config -- vercel`. Vercel reads it from the
 * root of the folder it deploys, so the deploy step writes it into `dist/` just before
 * `vercel deploy dist` (docs/hosting/vercel.md): `dist/` itself stays the same for every host.
 * One rule per kind, with the list names as an alternation, so the rule count never grows.
 */
import { apiFolderName, compressedVary, escapeRegex, typeRuleHeaders, type HostRules } from './path-rules.ts';

/** Vercel compresses responses itself, so `Vary` names `Accept-Encoding` too (SPEC-NOTES 7). */
function apiHeaders(rules: HostRules): { key: string; value: string }[] {
  return Object.entries(rules.apiHeaders).map(([key, value]) => ({
    key,
    value: key === 'Vary' ? compressedVary(rules) : value,
  }));
}

export function renderVercelConfig(rules: HostRules): string {
  // The lists and the sections, `/api/<name>/`; the API root `/api/` is written out on its own.
  const names = rules.api.map(apiFolderName).filter((name) => name !== '');
  const list = `/api/:list(${names.join('|')})`;
  const roots = rules.api.filter((rule) => apiFolderName(rule) === '');
  const record = `/api/:list(${rules.details.lists.join('|')})`;
  const suffix = rules.details.suffix;
  const config = {
    $schema: 'https://openapi.vercel.sh/vercel.json',
    // docs/indexing.md: a page `/<folder>/<name>` is answered by `<folder>/<name>.html`,
    // and `/<folder>/<name>.html` moves there (308). No `trailingSlash`: it would move the lists too.
    cleanUrls: true,
    redirects: [
      // SPEC-NOTES 6: the path without its slash moves to the canonical one (Vercel keeps the query).
      { source: list, destination: '/api/:list/', statusCode: 301 },
      ...roots.map((rule) => ({ source: rule.redirectFrom, destination: rule.path, statusCode: 301 })),
      // A record's detail (SPEC section 10): the path without its slash moves to it; the file's
      // own path (`/api/<list>/<id>.json`) is served as it is.
      {
        source: `${record}/:id((?!.*${escapeRegex(suffix)}$)[^/]+)`,
        destination: '/api/:list/:id/',
        statusCode: 301,
      },
      // The slash URL the pages had as folders moves to the page.
      { source: `/:folder(${rules.pages.folders.join('|')})/:name/`, destination: '/:folder/:name', statusCode: 301 },
    ],
    // SPEC section 4: the canonical path is answered by its index.json; a record's by its file.
    rewrites: [
      { source: `${list}/`, destination: '/api/:list/index.json' },
      ...roots.map((rule) => ({ source: rule.path, destination: `/${rule.file}` })),
      { source: `${record}/:id/`, destination: `/api/:list/:id${suffix}` },
    ],
    // Headers match the path the client asked for, so both spellings carry them.
    headers: [
      { source: `${list}/`, headers: apiHeaders(rules) },
      { source: `${list}/index.json`, headers: apiHeaders(rules) },
      ...roots.flatMap((rule) => [
        { source: rule.path, headers: apiHeaders(rules) },
        { source: `/${rule.file}`, headers: apiHeaders(rules) },
      ]),
      { source: `${record}/:id/`, headers: apiHeaders(rules) },
      { source: `${record}/:id${suffix}`, headers: apiHeaders(rules) },
      ...rules.types.map((rule) => ({
        source: 'path' in rule ? rule.path : `${rule.folder}:name${rule.extension}`,
        headers: Object.entries(typeRuleHeaders(rule)).map(([key, value]) => ({ key, value })),
      })),
      {
        source: `${rules.mediaPrefix}(.*)`,
        headers: Object.entries(rules.mediaHeaders).map(([key, value]) => ({ key, value })),
      },
    ],
  };
  return JSON.stringify(config, null, 2) + '\n';
}
