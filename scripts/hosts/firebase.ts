/**
 * `firebase.json` for Firebase Hosting, printed by `npm run config -- firebase`. The
 * Firebase CLI reads it from the project folder it runs in (next to `dist/`, never inside the
 * published folder), so the journal saves it at the repository root (docs/hosting/firebase.md).
 *
 * Firebase answers in this order: redirects, exact files, rewrites, the 404 page. The canonical
 * list path has no file of its own (there is no index.html there), so the rewrite answers it.
 */
import { apiFolderName, compressedVary, escapeRegex, typeRuleHeaders, type HostRules } from './path-rules.ts';

export interface FirebaseOptions {
  /** The folder `firebase deploy` uploads, relative to firebase.json. */
  publicDir: string;
}

type Header = { key: string; value: string };

const headerList = (headers: Readonly<Record<string, string>>, vary?: string): Header[] =>
  Object.entries(headers).map(([key, value]) => ({ key, value: vary !== undefined && key === 'Vary' ? vary : value }));

export function renderFirebaseConfig(rules: HostRules, options: FirebaseOptions = { publicDir: 'dist' }): string {
  // The lists and the sections (`/api/<name>/`); the root `/api/` has no name.
  const names = rules.api
    .map(apiFolderName)
    .filter((name) => name !== '')
    .map(escapeRegex);
  const roots = rules.api.filter((rule) => apiFolderName(rule) === '');
  const named = `@(${names.join('|')})`;
  const detailLists = rules.details.lists.map(escapeRegex).join('|');
  const suffix = rules.details.suffix;
  const apiHeaders = headerList(rules.apiHeaders, compressedVary(rules));
  const config = {
    hosting: {
      public: options.publicDir,
      // Firebase compresses on the fly: the precompressed twins and the Cloudflare/Netlify rule
      // files would only be published as stray public files.
      ignore: ['firebase.json', '**/.*', '**/node_modules/**', '**/*.gz', '**/*.br', '_headers', '_redirects'],
      // docs/indexing.md: a page `/<folder>/<name>` is answered by `<folder>/<name>.html`,
      // and `/<folder>/<name>.html` moves there (301). No `trailingSlash`: it would move the lists too.
      cleanUrls: true,
      redirects: [
        // SPEC-NOTES 6: the path without its slash moves to the canonical one, query kept. A regex,
        // not a glob: Firebase's globs also match the path with a trailing slash, so a glob source
        // `/api/authors` would redirect `/api/authors/` to itself forever.
        { regex: `^/api/(${names.join('|')})$`, destination: '/api/:1/', type: 301 },
        ...roots.map((rule) => ({ regex: `^${escapeRegex(rule.redirectFrom)}$`, destination: rule.path, type: 301 })),
        // A record's detail (SPEC section 10): a rewrite cannot carry the id into its
        // destination here, so both the slash path and the path without it move to the record's
        // file, which is served as it is (the exception in docs/hosting/firebase.md).
        {
          regex: `^/api/(${detailLists})/(${notEndingWith(suffix)})/?$`,
          destination: `/api/:1/:2${suffix}`,
          type: 301,
        },
        // The slash URL the pages had as folders moves to the page.
        { regex: `^/(${rules.pages.folders.map(escapeRegex).join('|')})/([^/]+)/$`, destination: '/:1/:2', type: 301 },
      ],
      // SPEC section 4: the canonical path is answered by its index.json.
      rewrites: rules.api.map((rule) => ({ source: rule.path, destination: `/${rule.file}` })),
      // Firebase matches headers against the path the client asked for, so both spellings carry them.
      headers: [
        // Firebase compresses responses itself, so `Vary` names `Accept-Encoding` too (SPEC-NOTES 7).
        { source: `/api/${named}/`, headers: apiHeaders },
        { source: `/api/${named}/index.json`, headers: apiHeaders },
        ...roots.flatMap((rule) => [
          { source: rule.path, headers: apiHeaders },
          { source: `/${rule.file}`, headers: apiHeaders },
        ]),
        // A record's file. Firebase sends the headers of the path asked for on any answer, so an id
        // no record has gets the 404 page with these too (the exception in docs/hosting/firebase.md);
        // without the type, the records would be `application/json; charset=utf-8`.
        { source: `/api/@(${detailLists})/!(index)${suffix}`, headers: apiHeaders },
        ...rules.types.map((rule) => ({
          source: 'path' in rule ? rule.path : `${rule.folder}*${rule.extension}`,
          headers: headerList(typeRuleHeaders(rule)),
        })),
        { source: `${rules.mediaPrefix}**`, headers: headerList(rules.mediaHeaders) },
      ],
    },
  };
  return JSON.stringify(config, null, 2) + '\n';
}

/**
 * A path segment that does not end with `suffix`, for Firebase's regular expressions (RE2, which
 * has no lookbehind): shorter than the suffix, or differing from it at one of its last characters.
 */
function notEndingWith(suffix: string): string {
  const alternatives = [`[^/]{1,${suffix.length - 1}}`];
  for (let k = 0; k < suffix.length; k++) {
    const tail = suffix.slice(k + 1);
    alternatives.push(`[^/]*[^/${escapeRegex(suffix[k]!)}]${escapeRegex(tail)}`);
  }
  return alternatives.join('|');
}
