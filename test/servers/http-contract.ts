/**
 * The one suite of HTTP assertions that every real server runs (docs/hosting/README.md,
 * "Verified here"): what SPEC section 4 and SPEC-NOTES 5-7 promise a client, checked on the wire.
 *
 * A host that cannot meet a point has a row in the exceptions table (exceptions.ts, mirrored in
 * its docs/hosting page); for that point the suite asserts what the host does instead, and says
 * so in the test name. A server missing on this machine is skipped with the reason; under CI
 * (`CI` set, as `.ci/run` does) it is a failure, since CI installs every one of them.
 */
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_LISTS } from '../../scripts/shared/contract.ts';
import { hostRules } from '../../scripts/hosts/rules.ts';
import { REPO_ROOT } from '../helpers/workspace.ts';
import { HOST_DOCS, HOST_EXCEPTIONS, PAGE_MOVED_STATUS, type CheckId } from './exceptions.ts';
import { headerList, send, values, type RawResponse } from './http-client.ts';
import type { RunningServer, ServerUnderTest } from './server.ts';
import { describeRoutes, writeTypedFiles } from './http-contract-routes.ts';
import { buildSample, type BuiltSite } from './site.ts';

/** SPEC-NOTES 5: everything but GET and HEAD (OPTIONS too, as the original refused it). */
const REFUSED_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

export function describeHttpContract(server: ServerUnderTest, env: NodeJS.ProcessEnv): void {
  const missing = server.unavailable();
  const exceptions = HOST_EXCEPTIONS[server.host];
  /** The test name says when a point is an exception for this host. */
  const named = (check: CheckId, title: string) =>
    exceptions[check] ? `${title} — documented exception: ${exceptions[check]}` : title;

  if (missing && env['CI']) {
    describe(server.title, () => {
      it('is installed (CI installs every server the suite runs against)', () => {
        throw new Error(missing);
      });
    });
    return;
  }
  if (missing) console.warn(`[${server.host}] skipped: ${missing}`);

  describe.skipIf(missing !== undefined)(missing ? `${server.title} — skipped: ${missing}` : server.title, () => {
    let site: BuiltSite;
    let running: RunningServer;
    const lists = new Map<string, Buffer>();
    let pdf: { url: string; bytes: Buffer };

    beforeAll(async () => {
      site = await buildSample();
      for (const list of API_LISTS) lists.set(list, await readFile(path.join(site.dist, 'api', list, 'index.json')));
      pdf = await firstPdf(site.dist);
      await writeTypedFiles(site.dist);
      running = await server.start(site);
    });
    afterAll(async () => {
      await running?.stop();
      await site?.dispose();
    });

    const get = (target: string, headers: Record<string, string> = {}) => send(running.origin, 'GET', target, headers);
    /** Failure messages carry the server's config and output. */
    const context = () => running.describe();

    /** SPEC section 4 and SPEC-NOTES 7: what every list answer carries. */
    function expectListHeaders(response: RawResponse): void {
      expect(values(response, 'content-type'), context()).toEqual(['application/json']);
      expect(values(response, 'allow')).toEqual(['GET']);
      expect(headerList(response, 'vary')).toContain('accept');
      expect(values(response, 'access-control-allow-origin')).toEqual(['*']);
      // The rest of the rules table's headers, each exactly once, exactly as the table says.
      for (const [name, value] of Object.entries(hostRules.apiHeaders)) {
        if (name !== 'Vary') expect(values(response, name), name).toEqual([value]);
      }
    }

    describe.each(API_LISTS)('/api/%s/', (list) => {
      const canonical = `/api/${list}/`;

      it(
        named('list-get', "GET answers 200 with the built index.json, byte for byte, and the contract's headers"),
        async () => {
          const response = await get(canonical);
          expect(response.status, context()).toBe(200);
          expectListHeaders(response);
          expect(values(response, 'content-encoding')).toEqual([]);
          expect(response.body.equals(lists.get(list)!)).toBe(true);
        },
      );

      it(named('list-get', 'GET ?format=api answers the same bytes with the same headers'), async () => {
        const response = await get(`${canonical}?format=api`);
        expect(response.status, context()).toBe(200);
        expectListHeaders(response);
        expect(response.body.equals(lists.get(list)!)).toBe(true);
      });

      it(named('index-json', 'GET index.json answers the same bytes with the same headers'), async () => {
        const response = await get(`${canonical}index.json`);
        expect(response.status, context()).toBe(200);
        expectListHeaders(response);
        expect(response.body.equals(lists.get(list)!)).toBe(true);
      });

      it(named('list-head', 'HEAD answers 200 with the headers and no body'), async () => {
        const response = await send(running.origin, 'HEAD', canonical);
        expect(response.status, context()).toBe(200);
        expectListHeaders(response);
        expect(response.body.length).toBe(0);
      });

      it.each(REFUSED_METHODS)(named('methods', '%s answers 405 with exactly one Allow: GET'), async (method) => {
        const response = await send(running.origin, method, canonical);
        expect(response.status, context()).toBe(405);
        expect(values(response, 'allow')).toEqual(['GET']);
        // A refusal that says it is JSON must be JSON (nginx answers as the original DRF view did).
        if (values(response, 'content-type').some((type) => /json/.test(type)) && response.body.length > 0) {
          expect(() => JSON.parse(response.body.toString('utf8'))).not.toThrow();
        }
      });

      it(
        named('no-slash', 'the path without its slash answers 301 to the canonical path, keeping the query'),
        async () => {
          const bare = await get(`/api/${list}`);
          expect(bare.status, context()).toBe(301);
          expect(locationOf(bare, running.origin)).toBe(canonical);
          const withQuery = await get(`/api/${list}?format=api`);
          expect(withQuery.status).toBe(301);
          expect(locationOf(withQuery, running.origin)).toBe(`${canonical}?format=api`);
        },
      );

      if (exceptions.gzip) {
        it(named('gzip', 'Accept-Encoding: gzip'), async () => {
          const response = await get(canonical, { 'Accept-Encoding': 'gzip' });
          expect(response.status).toBe(200);
          expect(decode(response).equals(lists.get(list)!)).toBe(true);
        });
      } else {
        it('Accept-Encoding: gzip answers gzip that decodes to the same bytes, and Vary names Accept-Encoding', async () => {
          const response = await get(canonical, { 'Accept-Encoding': 'gzip' });
          expect(response.status, context()).toBe(200);
          expectListHeaders(response);
          expect(values(response, 'content-encoding')).toEqual(['gzip']);
          expect(zlib.gunzipSync(response.body).equals(lists.get(list)!)).toBe(true);
          expect(headerList(response, 'vary')).toContain('accept-encoding');
        });
      }

      if (exceptions.br) {
        it(named('br', 'Accept-Encoding: br'), async () => {
          // What the host does instead: the identity bytes, never a mislabelled body.
          const response = await get(canonical, { 'Accept-Encoding': 'br' });
          expect(response.status, context()).toBe(200);
          expectListHeaders(response);
          expect(values(response, 'content-encoding')).toEqual([]);
          expect(response.body.equals(lists.get(list)!)).toBe(true);
        });
      } else {
        it('Accept-Encoding: br answers brotli that decodes to the same bytes, and Vary names Accept-Encoding', async () => {
          const response = await get(canonical, { 'Accept-Encoding': 'br' });
          expect(response.status, context()).toBe(200);
          expectListHeaders(response);
          expect(values(response, 'content-encoding')).toEqual(['br']);
          expect(zlib.brotliDecompressSync(response.body).equals(lists.get(list)!)).toBe(true);
          expect(headerList(response, 'vary')).toContain('accept-encoding');
        });
      }

      it("a browser's Accept-Encoding (gzip, deflate, br) still decodes to the same bytes", async () => {
        const response = await get(canonical, { 'Accept-Encoding': 'gzip, deflate, br' });
        expect(response.status, context()).toBe(200);
        expectListHeaders(response);
        expect(decode(response).equals(lists.get(list)!)).toBe(true);
      });
    });

    it.each(['/no-such-page', '/api/no-such-list/', '/api/authors/no-such-file.json', '/media/pdfs/no-such-file.pdf'])(
      named('not-found', 'unknown path %s answers 404, and never as JSON'),
      async (target) => {
        const response = await get(target);
        expect(response.status, context()).toBe(404);
        for (const type of values(response, 'content-type')) expect(type).not.toMatch(/json/i);
        expect(() => JSON.parse(response.body.toString('utf8'))).toThrow();
      },
    );

    it(named('media', 'a PDF under /media/ answers 200 as application/pdf with the same bytes'), async () => {
      const response = await get(pdf.url);
      expect(response.status, context()).toBe(200);
      expect(values(response, 'content-type')).toEqual(['application/pdf']);
      expect(values(response, 'access-control-allow-origin')).toEqual(['*']);
      expect(response.body.equals(pdf.bytes)).toBe(true);
    });

    if (exceptions.range) {
      it(named('range', 'Range on a PDF'), async () => {
        // What the host does instead: the whole file with 200, which every PDF reader accepts.
        const response = await get(pdf.url, { Range: 'bytes=0-7' });
        expect(response.status, context()).toBe(200);
        expect(response.body.equals(pdf.bytes)).toBe(true);
      });
    } else {
      it('Range on a PDF answers 206 with exactly the bytes asked for', async () => {
        const response = await get(pdf.url, { Range: 'bytes=0-7' });
        expect(response.status, context()).toBe(206);
        expect(values(response, 'content-type')).toEqual(['application/pdf']);
        expect(values(response, 'content-range')).toEqual([`bytes 0-7/${pdf.bytes.length}`]);
        expect(response.body.equals(pdf.bytes.subarray(0, 8))).toBe(true);
      });
    }

    it.each(REFUSED_METHODS)(
      named('media-methods', '%s on a PDF answers 405 with exactly one Allow: GET'),
      async (method) => {
        const response = await send(running.origin, method, pdf.url);
        expect(response.status, context()).toBe(405);
        expect(values(response, 'allow')).toEqual(['GET']);
      },
    );

    describe('HTML pages (docs/indexing.md): one file each, answered at the URL without the extension', () => {
      /** The first manuscript the API lists: its page is what an indexer arrives at from the API or the sitemap. */
      let page: { url: string; file: Buffer };
      beforeAll(async () => {
        const [first] = JSON.parse(lists.get('manuscripts')!.toString('utf8')) as { id: number }[];
        if (!first) throw new Error('the built sample lists no manuscript');
        page = {
          url: `/manuscripts/${first.id}`,
          file: await readFile(path.join(site.dist, 'manuscripts', `${first.id}.html`)),
        };
      });
      const moved = PAGE_MOVED_STATUS[server.host];

      it('GET /manuscripts/<id> answers 200 text/html with the built page and its citation tags', async () => {
        const response = await get(page.url);
        expect(response.status, context()).toBe(200);
        expect(values(response, 'content-type')).toHaveLength(1);
        expect(values(response, 'content-type')[0]).toMatch(/^text\/html(;\s*charset=utf-8)?$/i);
        expect(response.body.equals(page.file)).toBe(true);
        const html = response.body.toString('utf8');
        expect(html).toMatch(/<meta name="citation_title" content="[^"]+">/);
        expect(html).toMatch(/<meta name="citation_pdf_url" content="[^"]+">/);
        expect(html).toMatch(
          new RegExp(`<meta name="citation_abstract_html_url" content="https?://[^"/]+${page.url}">`),
        );
        expect(html).toMatch(new RegExp(`<link rel="canonical" href="https?://[^"/]+${page.url}">`));
      });

      it('GET a volume page and the home page answers 200 text/html', async () => {
        for (const [target, marker] of [
          ['/volumes/5', '<h1>Volume V'],
          ['/', '<h2>Volumes</h2>'],
        ] as const) {
          const response = await get(target);
          expect(response.status, `${target}\n${context()}`).toBe(200);
          expect(values(response, 'content-type')[0], target).toMatch(/^text\/html/);
          expect(response.body.toString('utf8'), target).toContain(marker);
        }
      });

      it.each(['.html', '/'])(
        `GET /manuscripts/<id>%s answers ${moved} to /manuscripts/<id>, keeping the query`,
        async (suffix) => {
          const response = await get(`${page.url}${suffix}`);
          expect(response.status, context()).toBe(moved);
          expect(locationOf(response, running.origin)).toBe(page.url);
          const withQuery = await get(`${page.url}${suffix}?utm_source=scholar`);
          expect(withQuery.status).toBe(moved);
          expect(locationOf(withQuery, running.origin)).toBe(`${page.url}?utm_source=scholar`);
        },
      );

      it('GET a page that does not exist answers 404 with the 404 page', async () => {
        const response = await get('/manuscripts/999999999');
        expect(response.status, context()).toBe(404);
        expect(values(response, 'content-type')[0]).toMatch(/^text\/html/);
      });

      it('POST on a page answers 405', async () => {
        const response = await send(running.origin, 'POST', page.url);
        expect(response.status, context()).toBe(405);
      });

      it("serves the sitemap (listing the page's URL) as XML and robots.txt as text", async () => {
        const sitemap = await get('/sitemap.xml');
        expect(sitemap.status, context()).toBe(200);
        expect(values(sitemap, 'content-type')[0]).toMatch(/^(application|text)\/xml/);
        expect(sitemap.body.toString('utf8')).toMatch(new RegExp(`<loc>https?://[^<]+${page.url}</loc>`));
        const robots = await get('/robots.txt');
        expect(robots.status).toBe(200);
        expect(values(robots, 'content-type')[0]).toMatch(/^text\/plain/);
        expect(robots.body.toString('utf8')).toMatch(/^Sitemap: https?:\/\/\S+\/sitemap\.xml$/m);
      });
    });

    describe('the routes beyond the lists (SPEC section 10)', () => {
      describeRoutes({
        site: () => site,
        running: () => running,
        named,
        expectListHeaders,
        locationOf: (response) => locationOf(response, running.origin),
      });
    });

    it(`states every exception it has in ${HOST_DOCS[server.host]}`, async () => {
      const doc = await readFile(path.join(REPO_ROOT, HOST_DOCS[server.host]), 'utf8');
      for (const summary of Object.values(exceptions)) expect(doc).toContain(summary);
    });
  });
}

/** The Location header as a path and query on this server (Apache sends absolute URLs). */
function locationOf(response: RawResponse, origin: string): string {
  const location = values(response, 'location');
  expect(location).toHaveLength(1);
  const url = new URL(location[0]!, `${origin}/`);
  expect(url.origin).toBe(origin);
  return url.pathname + url.search;
}

function decode(response: RawResponse): Buffer {
  const encoding = values(response, 'content-encoding').join(',');
  if (encoding === '') return response.body;
  if (encoding === 'gzip') return zlib.gunzipSync(response.body);
  if (encoding === 'br') return zlib.brotliDecompressSync(response.body);
  throw new Error(`unexpected Content-Encoding: ${encoding}`);
}

/** The first PDF of the built site, by sorted path: the test needs one real published file. */
async function firstPdf(dist: string): Promise<{ url: string; bytes: Buffer }> {
  const files = (await readdir(path.join(dist, 'media'), { recursive: true }))
    .map(String)
    .filter((file) => file.endsWith('.pdf'))
    .sort();
  const file = files[0];
  if (!file) throw new Error('the built sample has no PDF under media/');
  return { url: `/media/${file.split(path.sep).join('/')}`, bytes: await readFile(path.join(dist, 'media', file)) };
}
