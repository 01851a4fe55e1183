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
import { hostRules } from '../../scripts/hosts/rules.ts';

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

/** The header rules Netlify reads for a path written the way a rule names it, merged as the CDN merges them. */
function headersOf(...rules: string[]): Record<string, string[]> {
  const merged: Record<string, string[]> = {};
  for (const rule of headers.filter((h) => rules.includes(h.for))) {
    for (const [name, value] of Object.entries(rule.values)) (merged[name] ??= []).push(value);
  }
  return merged;
}

const API_HEADERS = {
  'Content-Type': ['application/json'],
  Allow: ['GET'],
  Vary: ['Accept, Accept-Encoding'],
  'Access-Control-Allow-Origin': ['*'],
  'X-Content-Type-Options': ['nosniff'],
  'Cache-Control': ['public, max-age=300'],
};

describe('Netlify reads the rule files', () => {
  it('parses _headers, _redirects and netlify.toml without an error', () => {
    expect(errors).toEqual([]);
    // Two per list, the sections and the root; three per list for the records.
    expect(redirects).toHaveLength(19);
    expect(headers).toHaveLength(25);
  });

  it('sets the contract headers on each list path and its index.json, each once', () => {
    for (const list of ['authors', 'volumes', 'manuscripts']) {
      expect(headersOf(`/api/${list}/`)).toEqual(API_HEADERS);
      // The list's file is matched by the records' rule too, which names no type (below).
      expect(headersOf(`/api/${list}/index.json`, `/api/${list}/:id.json`)).toEqual(API_HEADERS);
    }
    for (const folder of ['/api/', '/api/sections/']) {
      expect(headersOf(folder)).toEqual(API_HEADERS);
      expect(headersOf(`${folder}index.json`)).toEqual(API_HEADERS);
    }
  });

  it("sets the lists' headers on a record's two spellings, but for the type, which Netlify takes from the file", () => {
    const { 'Content-Type': _type, ...withoutType } = API_HEADERS;
    for (const list of ['authors', 'volumes', 'manuscripts']) {
      expect(headersOf(`/api/${list}/:id/`)).toEqual(withoutType);
      expect(headersOf(`/api/${list}/:id.json`)).toEqual(withoutType);
    }
  });

  it('types the citations, the feed, the OpenAPI description and the OAI-PMH files, readable from any origin as the API is', () => {
    // A reference manager, a feed reader or an API explorer in a browser reads them from its own origin.
    const crossOrigin = { 'Access-Control-Allow-Origin': ['*'], 'X-Content-Type-Options': ['nosniff'] };
    for (const [source, type] of [
      ['/citations/:name.bib', 'application/x-bibtex; charset=utf-8'],
      ['/citations/:name.ris', 'application/x-research-info-systems; charset=utf-8'],
      ['/citations/:name.json', 'application/vnd.citationstyles.csl+json'],
      ['/feed.xml', 'application/atom+xml; charset=utf-8'],
      ['/api/openapi.json', 'application/json'],
      ['/oai/:name.xml', 'text/xml; charset=utf-8'],
      ['/oai/records/:name.xml', 'text/xml; charset=utf-8'],
      ['/oai/items.json', 'application/json'],
    ] as const) {
      expect(headersOf(source), source).toEqual({ 'Content-Type': [type], ...crossOrigin });
    }
  });

  it('rewrites each list path, the sections and the root to its index.json with status 200', () => {
    for (const folder of ['/api/authors/', '/api/volumes/', '/api/manuscripts/', '/api/sections/', '/api/']) {
      expect(match(folder, 'format=api')).toMatchObject({ to: `${folder}index.json`, status: 200 });
    }
    expect(match('/api/no-such-list/')).toBeNull();
  });

  it("rewrites a record's slash path to its file with status 200, never forced over a file that exists", () => {
    expect(match('/api/manuscripts/7/')).toMatchObject({ to: '/api/manuscripts/7.json', status: 200 });
    expect(match('/api/authors/ana.petrovska/')).toMatchObject({ to: '/api/authors/ana.petrovska.json', status: 200 });
    // The file's own path (and the list's index.json) matches a rule too, but Netlify serves a file that
    // exists before any rule that is not forced.
    for (const rule of redirects) expect(rule.force, rule.from).toBe(false);
  });

  it('documented exception: Netlify normalizes the trailing slash, so the path without it is rewritten too (200, not 301)', () => {
    expect(match('/api/volumes')).toMatchObject({ from: '/api/volumes/', to: '/api/volumes/index.json', status: 200 });
    expect(match('/api/manuscripts/7')).toMatchObject({ to: '/api/manuscripts/7.json', status: 200 });
  });
});
