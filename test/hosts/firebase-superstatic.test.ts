/**
 * Firebase Hosting: the printed `firebase.json` served by superstatic, the open-source
 * engine of Firebase's local Hosting emulator (redirects, rewrites, headers and globs as Firebase
 * applies them), over the built sample. It found that a glob redirect source matches the path with a
 * trailing slash too, which is why the 301 is a regex (scripts/hosts/firebase.ts).
 *
 * superstatic is an emulator, so it is not a dependency: `.ci/run` installs it globally
 * (`npm install -g superstatic@10.0.0`); locally a missing one is reported and skipped, under CI
 * it fails.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderFirebaseConfig } from '../../scripts/hosts/firebase.ts';
import { hostRules } from '../../scripts/hosts/rules.ts';
import { headerList, send, values } from '../servers/http-client.ts';
import { findExecutable, freePort, startProcess, waitForHttp, type ServerProcess } from '../servers/process.ts';
import { TYPED_FILES, writeTypedFiles } from '../servers/http-contract-routes.ts';
import { buildSample, type BuiltSite } from '../servers/site.ts';

const binary = findExecutable('superstatic', process.env['PATH'], ['/usr/bin', '/usr/local/bin']);
const missing = binary ? undefined : 'superstatic is not installed (npm install -g superstatic@10.0.0)';
if (missing && !process.env['CI']) console.warn(`[firebase] skipped: ${missing}`);

describe.skipIf(missing !== undefined && !process.env['CI'])('Firebase Hosting rules on superstatic', () => {
  let site: BuiltSite;
  let server: ServerProcess;
  let origin: string;
  let authors: Buffer;

  beforeAll(async () => {
    if (missing) throw new Error(missing);
    site = await buildSample();
    authors = await readFile(path.join(site.dist, 'api/authors/index.json'));
    await writeTypedFiles(site.dist);
    // firebase.json sits beside dist/, as in the journal's repository.
    const project = path.dirname(site.dist);
    await writeFile(
      path.join(project, 'firebase.json'),
      renderFirebaseConfig(hostRules, { publicDir: path.basename(site.dist) }),
    );
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    server = startProcess(
      binary!,
      ['serve', '.', '--port', String(port), '--host', '127.0.0.1', '--config', 'firebase.json', '--compression'],
      { cwd: project },
    );
    await waitForHttp(origin, server);
  });
  afterAll(async () => {
    await server?.stop();
    await site?.dispose();
  });

  it.each(['/api/authors/', '/api/authors/?format=api', '/api/authors/index.json'])(
    "GET %s answers the list with exactly the contract's headers",
    async (target) => {
      const response = await send(origin, 'GET', target);
      expect(response.status, server.output()).toBe(200);
      expect(response.body.equals(authors)).toBe(true);
      expect(values(response, 'content-type')).toEqual(['application/json']);
      expect(values(response, 'allow')).toEqual(['GET']);
      expect(headerList(response, 'vary')).toEqual(['accept', 'accept-encoding']);
      expect(values(response, 'access-control-allow-origin')).toEqual(['*']);
    },
  );

  it('moves each list without its slash to the canonical path with 301, query kept', async () => {
    for (const list of ['authors', 'volumes', 'manuscripts']) {
      const response = await send(origin, 'GET', `/api/${list}?format=api`);
      expect(response.status).toBe(301);
      expect(values(response, 'location')).toEqual([`/api/${list}/?format=api`]);
    }
  });

  it('sends gzip when asked, decoding to the same bytes', async () => {
    const response = await send(origin, 'GET', '/api/authors/', { 'Accept-Encoding': 'gzip' });
    expect(values(response, 'content-encoding')).toEqual(['gzip']);
    expect(zlib.gunzipSync(response.body).equals(authors)).toBe(true);
  });

  it('answers unknown paths with the 404 page and status 404, never JSON', async () => {
    for (const target of ['/nothing-here', '/api/no-such-list/']) {
      const response = await send(origin, 'GET', target);
      expect(response.status).toBe(404);
      expect(values(response, 'content-type')[0]).toMatch(/^text\/html/);
    }
  });

  it('serves the PDFs as application/pdf with the media headers', async () => {
    const volumes = JSON.parse(await readFile(path.join(site.dist, 'api/volumes/index.json'), 'utf8')) as {
      pdf: string;
    }[];
    const pdfPath = new URL(volumes[0]!.pdf).pathname;
    const response = await send(origin, 'GET', pdfPath);
    expect(response.status).toBe(200);
    expect(values(response, 'content-type')[0]).toMatch(/^application\/pdf/);
    expect(values(response, 'cache-control')).toEqual(['public, max-age=86400']);
  });

  it('answers a landing page at its URL without the extension, as HTML with its citation tags (docs/indexing.md)', async () => {
    const response = await send(origin, 'GET', '/manuscripts/1');
    expect(response.status, server.output()).toBe(200);
    expect(values(response, 'content-type')[0]).toMatch(/^text\/html/);
    expect(response.body.equals(await readFile(path.join(site.dist, 'manuscripts/1.html')))).toBe(true);
    expect(response.body.toString('utf8')).toContain('<meta name="citation_title"');
  });

  it("moves a page's .html and slash spellings (the slash URL pages had as folders) to its URL with 301", async () => {
    for (const target of ['/manuscripts/1.html', '/manuscripts/1/', '/volumes/5/']) {
      const response = await send(origin, 'GET', target);
      expect(response.status, target).toBe(301);
      expect(values(response, 'location'), target).toEqual([target.replace(/(\.html|\/)$/, '')]);
    }
    const missing = await send(origin, 'GET', '/manuscripts/999999999');
    expect(missing.status).toBe(404);
  });

  /** The headers every API answer carries here, a list's or a record's. */
  function expectApiHeaders(response: Awaited<ReturnType<typeof send>>): void {
    expect(values(response, 'content-type')).toEqual(['application/json']);
    expect(values(response, 'allow')).toEqual(['GET']);
    expect(headerList(response, 'vary')).toEqual(['accept', 'accept-encoding']);
    expect(values(response, 'access-control-allow-origin')).toEqual(['*']);
    expect(values(response, 'cache-control')).toEqual(['public, max-age=300']);
  }

  it("serves a record's file at its own path, byte for byte, with the lists' headers", async () => {
    for (const file of ['api/manuscripts/1.json', 'api/volumes/1.json', 'api/authors/ana-petrovska.json']) {
      const response = await send(origin, 'GET', `/${file}`);
      expect(response.status, `${file}\n${server.output()}`).toBe(200);
      expectApiHeaders(response);
      expect(response.body.equals(await readFile(path.join(site.dist, file)))).toBe(true);
    }
  });

  it("documented exception: a record's slash path, and the path without it, move to the record's file with 301, query kept", async () => {
    for (const target of ['/api/manuscripts/1/', '/api/manuscripts/1', '/api/authors/ana-petrovska/']) {
      const response = await send(origin, 'GET', `${target}?format=api`);
      expect(response.status, target).toBe(301);
      expect(values(response, 'location'), target).toEqual([`${target.replace(/\/$/, '')}.json?format=api`]);
    }
  });

  it("documented exception: an id no record has gets the 404 page with status 404, typed as the record's file would be", async () => {
    const response = await send(origin, 'GET', '/api/manuscripts/999999999.json');
    expect(response.status).toBe(404);
    expect(response.body.toString('utf8')).toMatch(/<html/i);
    expect(values(response, 'content-type')).toEqual(['application/json']);
  });

  it('answers the API root and the sections like a list, and moves them without their slash', async () => {
    for (const [target, file] of [
      ['/api/', 'api/index.json'],
      ['/api/index.json', 'api/index.json'],
      ['/api/sections/', 'api/sections/index.json'],
    ] as const) {
      const response = await send(origin, 'GET', target);
      expect(response.status, target).toBe(200);
      expectApiHeaders(response);
      expect(response.body.equals(await readFile(path.join(site.dist, file)))).toBe(true);
    }
    for (const [target, to] of [
      ['/api', '/api/'],
      ['/api/sections', '/api/sections/'],
    ] as const) {
      const response = await send(origin, 'GET', target);
      expect(response.status, target).toBe(301);
      expect(values(response, 'location')).toEqual([to]);
    }
  });

  it('serves the citations, the feed and the OpenAPI description with their types, readable from another origin as the API is', async () => {
    for (const { file, type } of TYPED_FILES) {
      for (const method of ['GET', 'HEAD']) {
        const response = await send(origin, method, `/${file}`, { Origin: 'https://reader.example.net' });
        expect(response.status, `${method} /${file}\n${server.output()}`).toBe(200);
        expect(values(response, 'content-type'), file).toEqual([type]);
        expect(values(response, 'access-control-allow-origin'), file).toEqual(['*']);
        expect(values(response, 'x-content-type-options'), file).toEqual(['nosniff']);
      }
    }
  });

  it('documented exception: other methods are not refused with 405 (firebase.json cannot match a method)', async () => {
    const response = await send(origin, 'POST', '/api/authors/');
    expect(response.status).not.toBe(405);
  });
});
