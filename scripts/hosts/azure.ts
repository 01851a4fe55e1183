/**
 * `staticwebapp.config.json` for Azure Static Web Apps, printed by
 * `npm run config -- azure-static-web-apps`. The deploy step writes it into `dist/` (the app's
 * output folder, where Azure looks for it) right before the upload; docs/hosting/azure-static-web-apps.md.
 *
 * `/api` is Azure's prefix for a linked API backend: while the app has one (managed Functions or a
 * linked backend) every `/api/*` request goes to it and these rules cannot serve the lists. With no
 * API (`api_location: ""` and nothing linked) Azure serves `/api/*` from the static files, which is
 * what this configuration relies on. Routes are matched in order; the first match wins.
 */
import { compressedVary, typeRuleHeaders, type HostRules } from './path-rules.ts';

/** Every method an Azure route can name; the ones not allowed get a 405 (SPEC-NOTES 5). */
const AZURE_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'CONNECT', 'OPTIONS', 'TRACE'] as const;

export function renderAzureConfig(rules: HostRules): string {
  // Azure compresses responses itself, so `Vary` names `Accept-Encoding` too (SPEC-NOTES 7).
  const apiHeaders = Object.fromEntries(
    Object.entries(rules.apiHeaders).map(([name, value]) => [name, name === 'Vary' ? compressedVary(rules) : value]),
  );
  const allowed = new Set<string>(rules.allowedMethods);
  const config = {
    routes: [
      // SPEC-NOTES 5: anything but GET and HEAD, anywhere, is refused with `Allow: GET`.
      {
        route: '/*',
        methods: AZURE_METHODS.filter((method) => !allowed.has(method)),
        statusCode: 405,
        headers: { Allow: rules.apiHeaders['Allow']! },
      },
      ...rules.api.flatMap((rule) => [
        // The slash path first: if Azure ever matched both spellings, this keeps it from looping.
        { route: rule.path, rewrite: `/${rule.file}`, headers: apiHeaders },
        { route: `/${rule.file}`, headers: apiHeaders },
        // SPEC-NOTES 6: the path without its slash moves to the canonical one.
        { route: rule.redirectFrom, redirect: rule.path, statusCode: 301 },
      ]),
      // A record's detail (SPEC section 10): Azure's routes cannot carry a path's part into a
      // rewrite, so a record is served at its file's own path only, `/api/<list>/<id>.json` (the
      // exception in docs/hosting/azure-static-web-apps.md). After the lists: the first route that
      // matches wins, so each list's index.json keeps its own.
      ...rules.details.lists.map((list) => ({
        route: `/api/${list}/*.{${rules.details.suffix.slice(1)}}`,
        headers: apiHeaders,
      })),
      ...rules.types.map((rule) => ({
        route: 'path' in rule ? rule.path : `${rule.folder}*.{${rule.extension.slice(1)}}`,
        headers: { ...typeRuleHeaders(rule) },
      })),
      { route: `${rules.mediaPrefix}*`, headers: { ...rules.mediaHeaders } },
    ],
    // Unknown paths get the 404 page with status 404, never a fallback page.
    responseOverrides: { '404': { rewrite: rules.notFoundPage } },
  };
  return JSON.stringify(config, null, 2) + '\n';
}
