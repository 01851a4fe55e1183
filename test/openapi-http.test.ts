/**
 * What the OpenAPI description promises, checked on the wire: the built sample served by the
 * preview server (`npm start`, which applies the same `_headers` and `_redirects` a CDN does), each
 * route asked over real HTTP, and every status, media type, header and body it answers validated
 * against the description's own schemas for that route.
 */
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPreviewServer } from '../scripts/preview/server.ts';
import { ROUTES, REFUSED_METHODS } from '../scripts/generator/render/openapi-routes.ts';
import { descriptionValidator, type Description, type DescriptionValidator } from './helpers/openapi.ts';
import { send, values, type RawResponse } from './servers/http-client.ts';
import { buildSample, type BuiltSite } from './servers/site.ts';

let site: BuiltSite;
let origin: string;
let stop: () => Promise<void>;
let description: Description;
let validator: DescriptionValidator;
beforeAll(async () => {
  site = await buildSample();
  description = JSON.parse(await readFile(path.join(site.dist, 'api/openapi.json'), 'utf8')) as Description;
  validator = descriptionValidator(description);
  const server = createPreviewServer({ root: site.dist });
  const address = await server.listen(0, '127.0.0.1');
  origin = `http://127.0.0.1:${address.port}`;
  stop = () => server.close();
});
afterAll(async () => {
  await stop?.();
  await site?.dispose();
});

/**
 * A route's path with its parameter set to the first record of its list: the detail file that
 * holds exactly that item names it (`{id}` a manuscript's or a volume's id, `{key}` an author's key).
 */
async function concrete(route: string): Promise<string> {
  const parameter = /\{\w+\}/.exec(route)?.[0];
  if (!parameter) return route;
  const folder = path.join(site.dist, route.slice(1, route.indexOf(parameter)));
  const [first] = JSON.parse(await readFile(path.join(folder, 'index.json'), 'utf8')) as unknown[];
  for (const name of (await readdir(folder)).sort()) {
    if (!name.endsWith('.json') || name === 'index.json') continue;
    if ((await readFile(path.join(folder, name), 'utf8')) === JSON.stringify(first))
      return route.replace(parameter, name.slice(0, -'.json'.length));
  }
  throw new Error(`no detail in ${folder} holds the first item of its list`);
}

/** Every header the description gives the response, as sent (lines of one name joined as HTTP reads them). */
function expectDescribedHeaders(route: string, method: string, status: string, response: RawResponse): void {
  const described = validator.response(route, method, status)?.['headers'] as Record<string, unknown> | undefined;
  for (const name of Object.keys(described ?? {})) {
    const sent = values(response, name);
    expect(sent, `${method.toUpperCase()} ${route}: ${name}`).not.toHaveLength(0);
    const validate = validator.header(route, method, status, name);
    expect(validate(sent.join(', ')), `${name}: ${sent.join(', ')} ${JSON.stringify(validate.errors)}`).toBe(true);
  }
}

describe.each(ROUTES.map((route) => route.path))('%s on the preview server', (route) => {
  const canonical = ROUTES.find((candidate) => candidate.path === route)!;

  it('GET answers 200 with the described media type, headers and body', async () => {
    const target = await concrete(route);
    const response = await send(origin, 'GET', target);
    expect(response.status, target).toBe(200);
    expect(values(response, 'content-type')).toEqual(['application/json']);
    expectDescribedHeaders(route, 'get', '200', response);
    const validate = validator.body(route);
    expect(validate(JSON.parse(response.body.toString('utf8'))), JSON.stringify(validate.errors)).toBe(true);
  });

  it('HEAD answers 200 with the described headers and no body', async () => {
    const response = await send(origin, 'HEAD', await concrete(route));
    expect(response.status).toBe(200);
    expectDescribedHeaders(route, 'head', '200', response);
    expect(response.body).toHaveLength(0);
  });

  if (canonical.served === 'api')
    it.each(REFUSED_METHODS.map((method) => method.toUpperCase()))(
      '%s answers 405 with the described Allow',
      async (method) => {
        const response = await send(origin, method, await concrete(route));
        expect(response.status).toBe(405);
        expectDescribedHeaders(route, method.toLowerCase(), '405', response);
      },
    );

  if (canonical.redirect)
    it('the path without its slash answers 301 to it, keeping the query', async () => {
      const target = await concrete(route);
      const bare = route.replace(/\/$/, '');
      const response = await send(origin, 'GET', `${target.replace(/\/$/, '')}?format=api`);
      expect(response.status).toBe(301);
      expectDescribedHeaders(bare, 'get', '301', response);
      const location = new URL(values(response, 'location')[0]!, `${origin}/`);
      expect(location.pathname + location.search).toBe(`${target}?format=api`);
    });

  if (canonical.parameter)
    it('a record that does not exist answers 404 with an HTML page', async () => {
      const response = await send(origin, 'GET', route.replace(/\{\w+\}/, '999999999'));
      expect(response.status).toBe(404);
      expect(validator.response(route, 'get', '404')?.['content']).toHaveProperty(['text/html']);
      expect(values(response, 'content-type')[0]).toMatch(/^text\/html/);
    });
});
