/**
 * Netlify: the build's `_headers` and `_redirects` and the printed `netlify.toml`, read by
 * Netlify's own parsers (@netlify/headers-parser, @netlify/redirect-parser, the versions
 * netlify-cli 26.2.0 deploys with), and the redirects matched by Netlify's redirect engine
 * (netlify-redirector, the library `netlify dev` routes with), fed the way netlify-cli feeds it.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderHeaders, renderRedirects } from '../../scripts/hosts/cloudflare.ts';
import { renderNetlifyToml } from '../../scripts/hosts/netlify.ts';
import { CONTRACT_HEADERS, hostRules } from '../../scripts/hosts/rules.ts';

interface ParsedRedirect {
  from: string;
  to: string;
  status: number;
  force: boolean;
  query: Record<string, string>;
  conditions: Record<string, unknown>;
}
interface Match {
  from: string;
  to: string;
  status: number;
}
interface Matcher {
  match(request: Record<string, unknown>): Match | null;
}

// These packages ship no usable type declarations; their shapes are written out above.
const load = (name: string) => import(name) as Promise<Record<string, unknown>>;

let folder: string;
let redirects: ParsedRedirect[];
let headers: { for: string; values: Record<string, string> }[];
let matcher: Matcher;
const errors: unknown[] = [];

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'journal-netlify-'));
  await writeFile(path.join(folder, '_headers'), renderHeaders(hostRules));
  await writeFile(path.join(folder, '_redirects'), renderRedirects(hostRules));
  await writeFile(path.join(folder, 'netlify.toml'), renderNetlifyToml());
  const { parseAllRedirects } = (await load('@netlify/redirect-parser')) as {
    parseAllRedirects(o: object): Promise<{ errors: unknown[]; redirects: ParsedRedirect[] }>;
  };
  const { parseAllHeaders } = (await load('@netlify/headers-parser')) as {
    parseAllHeaders(o: object): Promise<{ errors: unknown[]; headers: typeof headers }>;
  };
  const parsedRedirects = await parseAllRedirects({
    redirectsFiles: [path.join(folder, '_redirects')],
    netlifyConfigPath: path.join(folder, 'netlify.toml'),
    minimal: false,
    configRedirects: [],
  });
  const parsedHeaders = await parseAllHeaders({
    headersFiles: [path.join(folder, '_headers')],
    netlifyConfigPath: path.join(folder, 'netlify.toml'),
    minimal: false,
    configHeaders: [],
  });
  errors.push(...parsedRedirects.errors, ...parsedHeaders.errors);
  redirects = parsedRedirects.redirects;
  headers = parsedHeaders.headers;
  // netlify-cli's own normalization before the engine: `from` is `origin`, `query` is `params`.
  const normalized = redirects.map(({ from, query, ...rule }) => ({ ...rule, origin: from, params: query }));
  const redirector = (await load('netlify-redirector')) as { default?: unknown; parseJSON?: unknown };
  const { parseJSON } = (redirector.default ?? redirector) as {
    parseJSON(json: string, options: object): Promise<Matcher>;
  };
  matcher = await parseJSON(JSON.stringify(normalized), {});
});
afterAll(() => rm(folder, { recursive: true, force: true }));

function match(pathname: string, query = ''): Match | null {
  return matcher.match({
    scheme: 'https',
    host: 'journal.example.org',
    path: pathname,
    query,
    headers: {},
    cookieValues: {},
    getHeader: () => '',
    getCookie: () => '',
  });
}

describe('Netlify reads the rule files', () => {
  it('parses _headers, _redirects and netlify.toml without an error', () => {
    expect(errors).toEqual([]);
    expect(redirects).toHaveLength(6);
    expect(headers).toHaveLength(7);
  });

  it('sets the contract headers on each list path and its index.json', () => {
    for (const list of ['authors', 'volumes', 'manuscripts']) {
      for (const target of [`/api/${list}/`, `/api/${list}/index.json`]) {
        const rule = headers.find((h) => h.for === target);
        expect(rule?.values).toMatchObject({
          ...CONTRACT_HEADERS,
          Vary: 'Accept, Accept-Encoding',
          'Access-Control-Allow-Origin': '*',
        });
      }
    }
  });

  it('rewrites each list path to its index.json with status 200', () => {
    for (const list of ['authors', 'volumes', 'manuscripts']) {
      expect(match(`/api/${list}/`, 'format=api')).toMatchObject({ to: `/api/${list}/index.json`, status: 200 });
      expect(match(`/api/${list}/index.json`)).toBeNull();
    }
    expect(match('/api/sections/')).toBeNull();
  });

  it('documented exception: Netlify normalizes the trailing slash, so the path without it is rewritten too (200, not 301)', () => {
    expect(match('/api/volumes')).toMatchObject({ from: '/api/volumes/', to: '/api/volumes/index.json', status: 200 });
  });
});
