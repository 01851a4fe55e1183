/**
 * `firebase.json` for Firebase Hosting, printed by `npm run config -- firebase`. The
 * Firebase CLI reads it from the project folder it runs in (next to `dist/`, never inside the
 * published folder), so the journal saves it at the repository root (docs/hosting/firebase.md).
 *
 * Firebase answers in this order: redirects, exact files, rewrites, the 404 page. The canonical
 * list path has no file of its own (there is no index.html there), so the rewrite answers it.
 */
import { compressedVary, type HostRules } from './rules.ts';

export interface FirebaseOptions {
  /** The folder `firebase deploy` uploads, relative to firebase.json. */
  publicDir: string;
}

type Header = { key: string; value: string };

const headerList = (headers: Readonly<Record<string, string>>, vary?: string): Header[] =>
  Object.entries(headers).map(([key, value]) => ({ key, value: vary !== undefined && key === 'Vary' ? vary : value }));

export function renderFirebaseConfig(rules: HostRules, options: FirebaseOptions = { publicDir: 'dist' }): string {
  const names = rules.api.map((rule) => escapeRegex(rule.path.split('/')[2]!));
  const lists = `@(${names.join('|')})`;
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
        // The slash URL the pages had as folders moves to the page.
        { regex: `^/(${rules.pages.folders.map(escapeRegex).join('|')})/([^/]+)/$`, destination: '/:1/:2', type: 301 },
      ],
      // SPEC section 4: the canonical path is answered by its index.json.
      rewrites: rules.api.map((rule) => ({ source: rule.path, destination: `/${rule.file}` })),
      // Firebase matches headers against the path the client asked for, so both spellings carry them.
      headers: [
        // Firebase compresses responses itself, so `Vary` names `Accept-Encoding` too (SPEC-NOTES 7).
        { source: `/api/${lists}/`, headers: headerList(rules.apiHeaders, compressedVary(rules)) },
        { source: `/api/${lists}/index.json`, headers: headerList(rules.apiHeaders, compressedVary(rules)) },
        { source: `${rules.mediaPrefix}**`, headers: headerList(rules.mediaHeaders) },
      ],
    },
  };
  return JSON.stringify(config, null, 2) + '\n';
}

function escapeRegex(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
