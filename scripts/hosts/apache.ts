/**
 * Apache httpd 2.4 (issue 5), rendered from the host rules table in two forms that carry the same
 * directives: `.htaccess`, written into the output folder by the build (for hosting where only the
 * folder is yours), and a `<VirtualHost>` printed by `npm run config -- apache --root DIR` (faster:
 * no per-request `.htaccess` lookups). Both need mod_rewrite, mod_headers, mod_mime and mod_dir.
 *
 * Two Apache habits shape the rules (see docs/hosting/apache.md):
 * - the default handler answers POST on a static file with 200, so other methods are refused by
 *   mod_rewrite before any handler runs;
 * - a 405 that Apache renders itself carries its own `Allow` (built from the methods the handler
 *   registered, `TRACE` at least), which no `Header` directive can remove. A 405 answered through a
 *   local `ErrorDocument` is sent as a normal response instead, so only our `Allow: GET` is sent.
 */
import type { OutputFile } from '../generator/output.ts';
import { compressedVary, type HostRules } from './rules.ts';

export interface ApacheOptions {
  /** Absolute path of the built output folder. */
  root: string;
  port: number;
  serverName: string;
}

/** The body of the 405 `ErrorDocument`: a page of its own, so a refused method never reads "not found". */
export const METHOD_NOT_ALLOWED_PAGE = '/405.html';

const HEADER = '# Generated from the host rules table by the build (`.htaccess`) or by `npm run config -- apache`. Regenerate, do not edit.';

export function renderApacheFiles(rules: HostRules): OutputFile[] {
  return [
    { path: '.htaccess', body: [HEADER, ...renderApacheRules(rules)].join('\n') + '\n' },
    { path: METHOD_NOT_ALLOWED_PAGE.slice(1), body: renderMethodNotAllowedPage(rules) },
  ];
}

export function renderApacheVhost(rules: HostRules, options: ApacheOptions): string {
  const root = quote(options.root);
  const lines = [
    HEADER,
    '# Needs: a2enmod rewrite headers (mime and dir are on by default).',
    `<VirtualHost *:${options.port}>`,
    ...(options.serverName === '_' ? [] : [`    ServerName ${options.serverName}`]),
    `    DocumentRoot ${root}`,
    '    ServerSignature Off',
    `    <Directory ${root}>`,
    '        Require all granted',
    // The same rules as the published .htaccess, so that file is not read on every request.
    '        AllowOverride None',
    ...renderApacheRules(rules).map((line) => (line ? `        ${line}` : line)),
    '    </Directory>',
    '</VirtualHost>',
  ];
  return lines.join('\n') + '\n';
}

/** The directives shared by `.htaccess` and `<Directory>`: paths are relative to the output folder. */
export function renderApacheRules(rules: HostRules): string[] {
  const methods = rules.allowedMethods.join('|');
  const allow = rules.apiHeaders['Allow']!;
  const relative = (path: string) => path.replace(/^\//, '');
  const withVary: Record<string, string> = { ...rules.apiHeaders, Vary: compressedVary(rules) };
  const { 'Content-Type': contentType, ...apiHeaders } = withVary;
  const suffixes = rules.precompressed.map((p) => escapeRegex(p.suffix)).join('|');
  const files = rules.api.map((rule) => escapeRegex(rule.file)).join('|');
  const listUris = `^/(${files})(${suffixes})?$`;

  return [
    'Options -Indexes -MultiViews +FollowSymLinks',
    'DirectoryIndex index.json',
    // SPEC section 4: exactly `application/json`, no charset parameter.
    'AddDefaultCharset Off',
    'AddType application/json .json',
    'AddType application/pdf .pdf',
    'AddType text/html .html',
    // The precompressed twins: their type comes from `.json`, their encoding from the last suffix.
    ...rules.precompressed.map((p) => `AddEncoding ${p.encoding} ${p.suffix}`),
    `ErrorDocument 404 ${rules.notFoundPage}`,
    `ErrorDocument 405 ${METHOD_NOT_ALLOWED_PAGE}`,
    '',
    'RewriteEngine On',
    '# SPEC-NOTES 5: GET and HEAD only; Apache would otherwise answer POST with 200.',
    `RewriteCond %{REQUEST_METHOD} !^(${methods})$`,
    'RewriteRule ^ - [R=405,L]',
    '# SPEC-NOTES 6: the path without its slash moves to the canonical one (the query is kept).',
    ...rules.api.map((rule) => `RewriteRule ^${escapeRegex(relative(rule.redirectFrom))}$ ${rule.path} [R=301,L]`),
    '# SPEC section 4: each list is answered by its index.json...',
    ...rules.api.map((rule) => `RewriteRule ^${escapeRegex(relative(rule.path))}$ ${rule.file} [L]`),
    '# ...precompressed when the client accepts it and the build wrote the twin.',
    ...rules.precompressed.flatMap((p) => [
      `RewriteCond %{HTTP:Accept-Encoding} \\b${p.encoding}\\b`,
      `RewriteCond %{REQUEST_FILENAME}${p.suffix} -f`,
      `RewriteRule ^(${files})$ $1${p.suffix} [L,E=no-gzip:1,E=no-brotli:1]`,
    ]),
    '',
    '# The 405 is served through its ErrorDocument, so this is the only Allow it carries.',
    `Header always set Allow ${quote(allow)} "expr=%{REQUEST_STATUS} == 405"`,
    `<If "%{REQUEST_URI} =~ m#${listUris}#">`,
    `    ForceType ${contentType}`,
    ...Object.entries(apiHeaders).map(([name, value]) => `    Header always set ${name} ${quote(value)}`),
    '</If>',
    `<If "%{REQUEST_URI} =~ m#^${escapeRegex(rules.mediaPrefix)}#">`,
    ...Object.entries(rules.mediaHeaders).map(([name, value]) => `    Header always set ${name} ${quote(value)}`),
    '</If>',
  ];
}

function renderMethodNotAllowedPage(rules: HostRules): string {
  const lists = rules.api.map((rule) => `<a href="${rule.path}"><code>${rule.path}</code></a>`).join(', ');
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head><meta charset="utf-8"><meta name="robots" content="noindex"><title>Method not allowed</title></head>',
    '<body>',
    '<h1>Method not allowed</h1>',
    `<p>This API is read-only: use ${rules.apiHeaders['Allow']} on ${lists}.</p>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** A double-quoted Apache argument. Values come from the rules table and the `--root` option only. */
function quote(value: string): string {
  if (/["\\\n]/.test(value)) throw new Error(`cannot be written into an Apache argument: ${value}`);
  return `"${value}"`;
}

function escapeRegex(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
