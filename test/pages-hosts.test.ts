/**
 * The HTML pages, the sitemap and robots.txt on every real server the host suite runs (test/servers/):
 * each page is a folder's index.html (docs/indexing.md), so each host must answer the folder's
 * slash path with it, and move the path without the slash there.
 */
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderCloudfrontFunction } from '../scripts/hosts/cloudfront-function.ts';
import { hostRules } from '../scripts/hosts/rules.ts';
import { apacheServer } from './servers/apache.ts';
import { caddyServer } from './servers/caddy.ts';
import { send, values } from './servers/http-client.ts';
import { nginxServer } from './servers/nginx.ts';
import { previewServer } from './servers/preview.ts';
import type { RunningServer, ServerUnderTest } from './servers/server.ts';
import { buildSample, type BuiltSite } from './servers/site.ts';
import { wranglerServer } from './servers/wrangler.ts';

const SERVERS: ServerUnderTest[] = [
  nginxServer(process.env), apacheServer(process.env, 'vhost'), apacheServer(process.env, 'htaccess'),
  caddyServer(process.env), wranglerServer(process.env), previewServer(),
];

let site: BuiltSite | undefined;
beforeAll(async () => {
  site = await buildSample();
});
afterAll(() => site?.dispose());

for (const server of SERVERS) {
  const missing = server.unavailable();
  // As the host suite does: skipped with the reason here, a failure under CI, which installs them all.
  if (missing && !process.env['CI']) console.warn(`[${server.host}] pages skipped: ${missing}`);

  describe.skipIf(Boolean(missing) && !process.env['CI'])(`HTML pages on ${server.title}`, () => {
    let running: RunningServer;
    beforeAll(async () => {
      if (missing) throw new Error(missing);
      running = await server.start(site!);
    });
    afterAll(() => running?.stop());

    const get = (target: string) => send(running.origin, 'GET', target);
    const type = (response: Awaited<ReturnType<typeof get>>) => values(response, 'content-type').join(', ');

    it('answers the home, a volume and a landing page at their slash paths with HTML', async () => {
      for (const [target, marker] of [
        ['/', '<h2>Volumes</h2>'],
        ['/volumes/5/', '<h1>Volume V'],
        ['/manuscripts/1/', '<meta name="citation_title"'],
      ] as const) {
        const response = await get(target);
        expect(response.status, `${target}\n${running.describe()}`).toBe(200);
        expect(type(response), target).toMatch(/^text\/html/);
        expect(response.body.toString('utf8'), target).toContain(marker);
      }
    });

    it('moves a landing page\'s path without its slash to the slash path', async () => {
      const response = await get('/manuscripts/1');
      expect([301, 302, 307, 308], running.describe()).toContain(response.status);
      expect(new URL(values(response, 'location')[0] ?? '', running.origin).pathname).toBe('/manuscripts/1/');
    });

    it('serves the sitemap as XML and robots.txt as text', async () => {
      const sitemap = await get('/sitemap.xml');
      expect(sitemap.status).toBe(200);
      expect(type(sitemap)).toMatch(/^(application|text)\/xml/);
      expect(sitemap.body.toString('utf8')).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
      const robots = await get('/robots.txt');
      expect(robots.status).toBe(200);
      expect(type(robots)).toMatch(/^text\/plain/);
      expect(robots.body.toString('utf8')).toMatch(/^Sitemap: https?:\/\/\S+\/sitemap\.xml$/m);
    });
  });
}

describe('HTML pages behind the CloudFront Function (S3 resolves no folder index)', () => {
  // As CloudFront runs it: the generated source alone, in an empty context, called with a viewer-request event.
  const handler = vm.runInNewContext(`${renderCloudfrontFunction(hostRules)}\n;handler`, Object.create(null)) as (event: unknown) => { uri?: string; statusCode?: number };
  const request = (uri: string) => handler({
    version: '1.0', context: { eventType: 'viewer-request' }, viewer: { ip: '198.51.100.11' },
    request: { method: 'GET', uri, querystring: {}, headers: {}, cookies: {} },
  });

  it('rewrites a page\'s slash path to its index.html, and leaves files and the lists as they were', () => {
    // '/' is left to the distribution's default root object (docs/hosting/s3-cloudfront.md).
    expect(request('/').uri).toBe('/');
    expect(request('/volumes/5/').uri).toBe('/volumes/5/index.html');
    expect(request('/manuscripts/1/').uri).toBe('/manuscripts/1/index.html');
    expect(request('/manuscripts/1/index.html').uri).toBe('/manuscripts/1/index.html');
    expect(request('/sitemap.xml').uri).toBe('/sitemap.xml');
    expect(request('/api/authors/').uri).toBe('/api/authors/index.json');
  });
});
