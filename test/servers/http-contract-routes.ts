/**
 * The shared HTTP suite's part for the routes beyond the lists (SPEC section 10): a record's detail, the API root and the sections, served like the lists; and
 * the Content-Types and cross-origin headers of the files other outputs publish (the citations, the
 * feed, the OpenAPI description), checked with files written into the served folder before the
 * server starts.
 */
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { hostRules } from '../../scripts/hosts/rules.ts';
import type { CheckId } from './exceptions.ts';
import { send, values, type RawResponse } from './http-client.ts';
import type { RunningServer } from './server.ts';
import type { BuiltSite } from './site.ts';

export interface RoutesContext {
  site(): BuiltSite;
  running(): RunningServer;
  named(check: CheckId, title: string): string;
  expectListHeaders(response: RawResponse): void;
  locationOf(response: RawResponse): string;
}

/**
 * What a page on another origin needs to read a file (SPEC-NOTES 7): a browser-based reference
 * manager fetches the citations, a feed reader in the browser the feed, an API explorer (Swagger
 * UI, Redoc) the OpenAPI description, each from its own origin, as a page there reads the API.
 */
export const CROSS_ORIGIN = { 'Access-Control-Allow-Origin': '*', 'X-Content-Type-Options': 'nosniff' };

/**
 * A file of each type rule, with the type the rules table gives it; every one of them carries
 * `CROSS_ORIGIN` too. Written into the served folder here (writeTypedFiles), and the table the
 * host tests (test/hosts) check their own configs against.
 */
export const TYPED_FILES: readonly { file: string; type: string }[] = [
  { file: 'citations/7.bib', type: 'application/x-bibtex; charset=utf-8' },
  { file: 'citations/7.ris', type: 'application/x-research-info-systems; charset=utf-8' },
  { file: 'citations/7.json', type: 'application/vnd.citationstyles.csl+json' },
  { file: 'feed.xml', type: 'application/atom+xml; charset=utf-8' },
  { file: 'api/openapi.json', type: 'application/json' },
  { file: 'oai/identify.xml', type: 'text/xml; charset=utf-8' },
  { file: 'oai/records/7.xml', type: 'text/xml; charset=utf-8' },
  { file: 'oai/items.json', type: 'application/json' },
];

/** Writes the files of outputs this suite does not build, as those outputs will: call before the server starts. */
export async function writeTypedFiles(dist: string): Promise<void> {
  for (const { file } of TYPED_FILES) {
    await mkdir(path.dirname(path.join(dist, file)), { recursive: true, mode: 0o755 });
    const body = file.endsWith('.json')
      ? '{"openapi":"3.1.0"}'
      : file.endsWith('.xml')
        ? file.startsWith('oai/')
          ? '<Identify/>'
          : '<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"/>'
        : 'TY  - JOUR\nTI  - Ćirilica и латиница\nER  - \n';
    await writeFile(path.join(dist, file), body, { mode: 0o644 });
  }
}

export function describeRoutes(ctx: RoutesContext): void {
  const get = (target: string, headers: Record<string, string> = {}) =>
    send(ctx.running().origin, 'GET', target, headers);
  const context = () => ctx.running().describe();

  describe.each(hostRules.details.lists)("a record's detail, /api/%s/<id>/", (list) => {
    /** The list's first record by file name, and its detail file's bytes. */
    let record: { id: string; bytes: Buffer };
    beforeAll(async () => {
      const folder = path.join(ctx.site().dist, 'api', list);
      const [file] = (await readdir(folder)).filter((name) => /\.json$/.test(name) && name !== 'index.json').sort();
      if (!file) throw new Error(`the built sample has no detail in api/${list}/`);
      record = { id: file.slice(0, -'.json'.length), bytes: await readFile(path.join(folder, file)) };
    });

    it(
      ctx.named('detail-get', "GET answers 200 with the record's file, byte for byte, and the lists' headers"),
      async () => {
        for (const target of [`/api/${list}/${record.id}/`, `/api/${list}/${record.id}/?format=api`]) {
          const response = await get(target);
          expect(response.status, `${target}\n${context()}`).toBe(200);
          ctx.expectListHeaders(response);
          expect(values(response, 'content-encoding')).toEqual([]);
          expect(response.body.equals(record.bytes), target).toBe(true);
        }
      },
    );

    it(ctx.named('detail-file', 'GET the .json spelling (the format suffix) answers the same'), async () => {
      const response = await get(`/api/${list}/${record.id}.json`);
      expect(response.status, context()).toBe(200);
      ctx.expectListHeaders(response);
      expect(response.body.equals(record.bytes)).toBe(true);
    });

    it('HEAD answers 200 with the headers and no body', async () => {
      const response = await send(ctx.running().origin, 'HEAD', `/api/${list}/${record.id}/`);
      expect(response.status, context()).toBe(200);
      ctx.expectListHeaders(response);
      expect(response.body.length).toBe(0);
    });

    it(ctx.named('methods', 'POST and DELETE answer 405 with exactly one Allow: GET'), async () => {
      for (const method of ['POST', 'DELETE']) {
        const response = await send(ctx.running().origin, method, `/api/${list}/${record.id}/`);
        expect(response.status, `${method}\n${context()}`).toBe(405);
        expect(values(response, 'allow')).toEqual(['GET']);
      }
    });

    it(
      ctx.named('detail-no-slash', 'the path without its slash answers 301 to the slash path, keeping the query'),
      async () => {
        const bare = await get(`/api/${list}/${record.id}`);
        expect(bare.status, context()).toBe(301);
        expect(ctx.locationOf(bare)).toBe(`/api/${list}/${record.id}/`);
        const withQuery = await get(`/api/${list}/${record.id}?format=api`);
        expect(withQuery.status).toBe(301);
        expect(ctx.locationOf(withQuery)).toBe(`/api/${list}/${record.id}/?format=api`);
      },
    );

    it(ctx.named('detail-not-found', 'an id no record has answers 404 with the 404 page, never as JSON'), async () => {
      for (const target of [`/api/${list}/999999999/`, `/api/${list}/999999999.json`]) {
        const response = await get(target);
        expect(response.status, `${target}\n${context()}`).toBe(404);
        for (const type of values(response, 'content-type')) expect(type, target).not.toMatch(/json/i);
        expect(() => JSON.parse(response.body.toString('utf8'))).toThrow();
      }
    });

    it("a browser's Accept-Encoding (gzip, deflate, br) decodes to the same bytes", async () => {
      const response = await get(`/api/${list}/${record.id}/`, { 'Accept-Encoding': 'gzip, deflate, br' });
      expect(response.status, context()).toBe(200);
      ctx.expectListHeaders(response);
      expect(decoded(response).equals(record.bytes)).toBe(true);
    });
  });

  describe.each(['/api/', '/api/sections/'])('%s, served as a list is', (canonical) => {
    let bytes: Buffer;
    beforeAll(async () => {
      bytes = await readFile(path.join(ctx.site().dist, canonical, 'index.json'));
    });

    it(
      ctx.named('list-get', 'GET, ?format=api and index.json answer 200 with the built file and the headers'),
      async () => {
        for (const target of [canonical, `${canonical}?format=api`, `${canonical}index.json`]) {
          const response = await get(target);
          expect(response.status, `${target}\n${context()}`).toBe(200);
          ctx.expectListHeaders(response);
          expect(response.body.equals(bytes), target).toBe(true);
        }
      },
    );

    it('HEAD answers 200 with no body; POST answers 405 with exactly one Allow: GET', async () => {
      const head = await send(ctx.running().origin, 'HEAD', canonical);
      expect(head.status, context()).toBe(200);
      ctx.expectListHeaders(head);
      expect(head.body.length).toBe(0);
      const post = await send(ctx.running().origin, 'POST', canonical);
      expect(post.status).toBe(405);
      expect(values(post, 'allow')).toEqual(['GET']);
    });

    it(ctx.named('no-slash', 'the path without its slash answers 301 to it, keeping the query'), async () => {
      const bare = await get(`${canonical.slice(0, -1)}?format=api`);
      expect(bare.status, context()).toBe(301);
      expect(ctx.locationOf(bare)).toBe(`${canonical}?format=api`);
    });
  });

  it.each(TYPED_FILES)(ctx.named('types', '/$file answers 200 as $type'), async ({ file, type }) => {
    for (const method of ['GET', 'HEAD']) {
      const response = await send(ctx.running().origin, method, `/${file}`);
      expect(response.status, `${method}\n${context()}`).toBe(200);
      expect(values(response, 'content-type'), method).toEqual([type]);
      for (const [name, value] of Object.entries(CROSS_ORIGIN)) expect(values(response, name), name).toEqual([value]);
      if (method === 'GET') expect(response.body.equals(await readFile(path.join(ctx.site().dist, file)))).toBe(true);
    }
  });

  it.each(TYPED_FILES)(
    ctx.named('types', 'a page on another origin may read /$file, as it may read the API'),
    async ({ file, type }) => {
      const response = await get(`/${file}`, { Origin: 'https://reader.example.net' });
      expect(response.status, context()).toBe(200);
      expect(values(response, 'access-control-allow-origin')).toEqual(['*']);
      expect(values(response, 'x-content-type-options')).toEqual(['nosniff']);
      expect(values(response, 'content-type')).toEqual([type]);
      expect(response.body.equals(await readFile(path.join(ctx.site().dist, file)))).toBe(true);
    },
  );
}

function decoded(response: RawResponse): Buffer {
  const encoding = values(response, 'content-encoding').join(',');
  if (encoding === 'gzip') return zlib.gunzipSync(response.body);
  if (encoding === 'br') return zlib.brotliDecompressSync(response.body);
  if (encoding !== '') throw new Error(`unexpected Content-Encoding: ${encoding}`);
  return response.body;
}
