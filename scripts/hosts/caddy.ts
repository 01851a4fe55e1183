/**
 * A Caddy 2 site block, printed on demand (`npm run config -- caddy --root DIR`) and rendered from
 * the host rules table. Written for the oldest Caddy a journal is likely to meet, Debian's 2.6.2:
 * - it has no automatic 405, so other methods are answered explicitly, before anything else;
 * - its file server redirects a folder without its slash with 308, so the contract's 301s
 *   (SPEC-NOTES 6) come first; it has no `{?query}` placeholder, so the query is carried by a
 *   second redirect that only matches when there is one;
 * - `precompressed` adds its own `Vary: Accept-Encoding` line next to ours (two `Vary` lines,
 *   which HTTP reads as one list).
 */
import { quoteFor, serverName } from './config-value.ts';
import { escapeRegex, typeRulePattern, typeRuleHeaders, type HostRules } from './path-rules.ts';

export interface CaddyOptions {
  /** Absolute path of the built output folder. */
  root: string;
  port: number;
  /** `_` for "any name" (plain HTTP on the port); a domain turns on Caddy's automatic HTTPS. */
  serverName: string;
}

export function renderCaddy(rules: HostRules, options: CaddyOptions): string {
  const allow = rules.apiHeaders['Allow']!;
  const listPaths = rules.api.flatMap((rule) => [rule.path, `/${rule.file}`]);
  const folders = rules.pages.folders.map(escapeRegex).join('|');
  const movedPage = `^/(${folders})/([^/]+)(${escapeRegex(rules.pages.suffix)}|/)$`;
  const detailLists = rules.details.lists.map(escapeRegex).join('|');
  const detailSuffix = escapeRegex(rules.details.suffix);
  const headerBlock = (matcher: string, headers: Readonly<Record<string, string>>) => [
    `header ${matcher} {`,
    ...Object.entries(headers).map(([name, value]) => `\t${name} ${quote(value)}`),
    '}',
  ];

  const body = [
    `root * ${quote(options.root)}`,
    '',
    "# SPEC section 4 and SPEC-NOTES 7: the contract's headers on every list path and its index.json.",
    `@lists path ${listPaths.join(' ')}`,
    ...headerBlock('@lists', rules.apiHeaders),
    ...headerBlock(`${rules.mediaPrefix}*`, rules.mediaHeaders),
    '# Files with a type of their own (the citations, the feed, the OpenAPI description).',
    ...rules.types.flatMap((rule, i) => [
      `@typed${i} path_regexp ^${typeRulePattern(rule)}$`,
      ...headerBlock(`@typed${i}`, typeRuleHeaders(rule)),
    ]),
    '',
    'route {',
    ...[
      '# SPEC-NOTES 5: GET and HEAD only, answered before any redirect or file.',
      `@refused not method ${rules.allowedMethods.join(' ')}`,
      `header @refused Allow ${quote(allow)}`,
      'respond @refused 405',
      '# SPEC-NOTES 6: the path without its slash moves to the canonical one, query kept.',
      ...rules.api.flatMap((rule, i) => [
        `@noslash${i} path ${rule.redirectFrom}`,
        `@noslash${i}query {`,
        `\tpath ${rule.redirectFrom}`,
        '\texpression {query} != ""',
        '}',
        `redir @noslash${i}query ${rule.path}?{query} 301`,
        `redir @noslash${i} ${rule.path} 301`,
      ]),
      "# A record's detail (SPEC section 10): `/api/<list>/<id>/` is answered by its file,",
      '# `/api/<list>/<id>` moves there. The headers are set here, on a file that exists, so an id',
      '# no record has gets the 404 page as HTML, never with the JSON headers.',
      '@detailnoslashquery {',
      `\tpath_regexp detailnoslashquery ^/api/(${detailLists})/([^/]+)$`,
      `\tnot path *${rules.details.suffix}`,
      '\texpression {query} != ""',
      '}',
      'redir @detailnoslashquery /api/{re.detailnoslashquery.1}/{re.detailnoslashquery.2}/?{query} 301',
      '@detailnoslash {',
      `\tpath_regexp detailnoslash ^/api/(${detailLists})/([^/]+)$`,
      `\tnot path *${rules.details.suffix}`,
      '}',
      'redir @detailnoslash /api/{re.detailnoslash.1}/{re.detailnoslash.2}/ 301',
      `@detailslash path_regexp detailslash ^/api/(${detailLists})/([^/]+)/$`,
      `rewrite @detailslash /api/{re.detailslash.1}/{re.detailslash.2}${rules.details.suffix}`,
      '@detailfile {',
      `\tpath_regexp ^/api/(${detailLists})/[^/]+${detailSuffix}$`,
      '\tfile',
      '}',
      ...headerBlock('@detailfile', rules.apiHeaders),
      '# docs/indexing.md: each page is one file, answered at its URL without the extension;',
      '# the other two spellings (the second is the URL the pages had as folders) move there.',
      `@pagemovedquery {`,
      `\tpath_regexp pagemovedquery ${movedPage}`,
      '\texpression {query} != ""',
      '}',
      'redir @pagemovedquery /{re.pagemovedquery.1}/{re.pagemovedquery.2}?{query} 301',
      `@pagemoved path_regexp pagemoved ${movedPage}`,
      'redir @pagemoved /{re.pagemoved.1}/{re.pagemoved.2} 301',
      `@page path_regexp ^/(${folders})/[^/]+$`,
      `rewrite @page {path}${rules.pages.suffix}`,
    ].map((line) => `\t${line}`),
    '}',
    '',
    'file_server {',
    // The lists' folders answer with index.json; `/`, the home page (docs/indexing.md), with index.html.
    '\tindex index.json index.html',
    `\tprecompressed ${rules.precompressed.map((p) => p.encoding).join(' ')}`,
    '}',
    '',
    '# Unknown paths get the 404 page with status 404, never a list.',
    'handle_errors {',
    `\trewrite * ${rules.notFoundPage}`,
    '\tfile_server',
    '}',
  ];

  return [
    '# Generated by `npm run config -- caddy` from the host rules table. Regenerate, do not edit.',
    `${siteAddress(options)} {`,
    ...body.map((line) => (line ? `\t${line}` : line)),
    '}',
    '',
  ].join('\n');
}

function siteAddress(options: CaddyOptions): string {
  if (options.serverName === '_') return `http://:${options.port}`;
  // With a name, Caddy serves HTTPS on 443 and redirects port 80 itself.
  const name = serverName(options.serverName);
  return options.port === 80 ? name : `${name}:${options.port}`;
}

/** A double-quoted Caddyfile token. Values come from the rules table and the `--root` option only. */
function quote(value: string): string {
  return quoteFor('a Caddyfile', value, /["\\\n{}]/);
}
