/**
 * The OpenAPI description (docs/api-contract.md, "The OpenAPI description"), as the build of the
 * shipped sample journal writes it: a valid OpenAPI 3.1 document by the official schema
 * (swagger-parser), clean under Redocly's strict lint, generated from the published zod schemas,
 * and true of every response the build wrote.
 */
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { createConfig, lintFromString, type RawUniversalConfig } from '@redocly/openapi-core';
import { parse as parseYaml } from 'yaml';
import * as z from 'zod';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { journalSchema } from '../scripts/generator/model/schema.ts';
import {
  PUBLISHED_SCHEMAS,
  publishedAuthorSchema,
  type PublishedAuthor,
  type PublishedVolume,
} from '../scripts/generator/model/published.ts';
import { publishedAuthor, publishedVolume } from '../scripts/generator/render/api.ts';
import { openApiDescription } from '../scripts/generator/render/openapi.ts';
import { ROUTES } from '../scripts/generator/render/openapi-routes.ts';
import { descriptionValidator, type Description } from './helpers/openapi.ts';
import { REPO_ROOT } from './helpers/workspace.ts';
import { buildSample, type BuiltSite } from './servers/site.ts';

/**
 * Redocly's strictest built-in ruleset, less four rules that contradict the contract:
 * - the contract's paths end with a slash (SPEC section 4), so no-path-trailing-slash is off;
 * - a redirect's only answer is 301 and a refused method's is 405: operation-2xx-response is off
 *   (the description test below asserts every route's GET and HEAD answer 200 instead);
 * - a list has no parameter or body to reject, so its GET has no 4XX: operation-4xx-response is off;
 * - the journal's settings name no license for its data: info-license is off.
 * And one more on: every tag an operation uses is declared, with its description.
 */
const LINT_CONFIG: RawUniversalConfig = {
  extends: ['recommended-strict'],
  rules: {
    'operation-tag-defined': 'error',
    'no-path-trailing-slash': 'off',
    'operation-2xx-response': 'off',
    'operation-4xx-response': 'off',
    'info-license': 'off',
  },
};

async function lint(description: object): Promise<string[]> {
  const config = await createConfig(LINT_CONFIG);
  const problems = await lintFromString({
    source: JSON.stringify(description),
    absoluteRef: 'openapi.json',
    config,
  });
  return problems.map((problem) => `${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer}`);
}

/**
 * The built files that answer a route of the description: a folder path its `index.json`, a
 * record's detail route each record's `<id>.json` (the host rules map one onto the other).
 */
async function filesAnswering(route: string): Promise<string[]> {
  if (!route.endsWith('/')) return [route.slice(1)];
  if (!route.includes('{')) return [`${route.slice(1)}index.json`];
  const folder = route.slice(1, route.indexOf('{'));
  const names = await readdir(path.join(site.dist, folder));
  return names
    .filter((name) => name.endsWith('.json') && name !== 'index.json')
    .sort()
    .map((name) => `${folder}${name}`);
}

/** swagger-parser validates a copy: it dereferences the document it is given in place. */
const validateWithSwaggerParser = (description: object) =>
  SwaggerParser.validate(structuredClone(description) as never);

let site: BuiltSite;
let description: Description;
const read = (file: string) => readFile(path.join(site.dist, file), 'utf8');

beforeAll(async () => {
  site = await buildSample();
  description = JSON.parse(await read('api/openapi.json')) as Description;
});
afterAll(() => site?.dispose());

describe('the OpenAPI description of the sample journal, as built', () => {
  it('is valid OpenAPI 3.1 by the official schema (swagger-parser), which refuses a broken one', async () => {
    expect(description['openapi']).toBe('3.1.0');
    await expect(validateWithSwaggerParser(description)).resolves.toBeDefined();

    const broken = structuredClone(description);
    broken.paths['/api/authors/']!['get'] = { responses: { '200': { $ref: '#/components/responses/Nowhere' } } };
    await expect(validateWithSwaggerParser(broken)).rejects.toThrow(/Nowhere/);
  });

  it("has no problem under Redocly's recommended-strict lint, which finds them in a broken one", async () => {
    expect(await lint(description)).toEqual([]);

    const broken = structuredClone(description);
    const authors = broken.paths['/api/authors/'] as Record<string, { operationId?: string }>;
    authors['head']!.operationId = authors['get']!.operationId;
    broken['tags'] = [];
    const problems = await lint(broken);
    expect(problems.some((problem) => problem.startsWith('operation-operationId-unique'))).toBe(true);
    expect(problems.some((problem) => problem.startsWith('operation-tag-defined'))).toBe(true);
  });

  it('is the description generated from the journal settings and the published schemas, byte for byte', async () => {
    const journal = journalSchema.parse(
      parseYaml(await readFile(path.join(REPO_ROOT, 'content/journal.yaml'), 'utf8')),
    );
    expect(await read('api/openapi.json')).toBe(`${JSON.stringify(openApiDescription(journal), null, 2)}\n`);
    expect(description['info']).toMatchObject({ title: journal.title, contact: { name: journal.publisher } });
    expect(description['servers']).toEqual([{ url: 'https://bulletin.example.org', description: expect.any(String) }]);
  });

  it('changes when a published schema changes: a new field is described, and responses without it fail', async () => {
    const journal = { title: 'J', base_url: 'https://j.example.org' };
    const changed = openApiDescription(journal, {
      ...PUBLISHED_SCHEMAS,
      Author: publishedAuthorSchema.extend({ orcid: z.string().regex(/^\d{4}-\d{4}-\d{4}-\d{3}[\dX]$/) }),
    }) as Description;
    const before = openApiDescription(journal) as Description;
    const author = (d: Description) => d.components['schemas']!['Author'] as { properties: object; required: string[] };
    expect(Object.keys(author(before).properties)).toEqual(['name', 'surname', 'institution']);
    expect(Object.keys(author(changed).properties)).toEqual(['name', 'surname', 'institution', 'orcid']);
    expect(author(changed).required).toContain('orcid');
    expect((changed['info'] as { version: string }).version).not.toBe((before['info'] as { version: string }).version);

    const authors: unknown = JSON.parse(await read('api/authors/index.json'));
    expect(descriptionValidator(before).body('/api/authors/')(authors)).toBe(true);
    expect(descriptionValidator(changed).body('/api/authors/')(authors)).toBe(false);
  });

  it('describes the records the list renderer publishes, field for field (checked by the compiler)', () => {
    expectTypeOf(publishedAuthor).returns.toEqualTypeOf<PublishedAuthor>();
    expectTypeOf(publishedVolume).returns.toEqualTypeOf<PublishedVolume>();
  });

  it("names a version that is the contract's and the description's digest, the same on every build", () => {
    const version = (description['info'] as { version: string }).version;
    expect(version).toMatch(/^1\.0\.0\+[0-9a-f]{12}$/);
    const journal = { title: 'J', base_url: 'https://j.example.org' };
    expect(openApiDescription(journal)).toEqual(openApiDescription(journal));
  });
});

describe('every response the build wrote validates against the description', () => {
  it.each(ROUTES.map((route) => route.path))('GET %s: every file that answers it', async (route) => {
    const validate = descriptionValidator(description).body(route);
    const files = await filesAnswering(route);
    expect(files.length, route).toBeGreaterThan(0);
    for (const file of files) {
      const body: unknown = JSON.parse(await read(file));
      expect(validate(body), `${file}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it('GET /api/<list>/<id>/: a detail for every record of every list', async () => {
    for (const [list, route] of [
      ['authors', '/api/authors/{key}/'],
      ['volumes', '/api/volumes/{id}/'],
      ['manuscripts', '/api/manuscripts/{id}/'],
    ] as const) {
      const items = JSON.parse(await read(`api/${list}/index.json`)) as unknown[];
      expect(await filesAnswering(route), list).toHaveLength(items.length);
    }
  });

  it('the schemas refuse what the contract refuses, field by field', async () => {
    const validator = descriptionValidator(description);
    const [volume] = JSON.parse(await read('api/volumes/index.json')) as Record<string, unknown>[];
    const [manuscript] = JSON.parse(await read('api/manuscripts/index.json')) as Record<string, unknown>[];
    const volumes = validator.body('/api/volumes/');
    const manuscripts = validator.body('/api/manuscripts/');
    expect(volumes([volume])).toBe(true);
    expect(manuscripts([manuscript])).toBe(true);
    for (const [field, value] of [
      ['citation_journal_title', 'Volume IIII'],
      ['citation_journal_title', 'Volume '],
      ['citation_issn', '1857-9870'],
      ['udc', '57  59'],
      ['first_page', 'iv'],
      ['full_date', '2023-02-30'],
      ['pdf', 'https://bulletin.example.org/media/pdfs/volume.pdf'],
      ['pdf', '/media/volumes/pdfs/2020/volume.pdf'],
      ['id', 1],
    ] as const) {
      expect(volumes([{ ...volume, [field]: value }]), `volume ${field}: ${value}`).toBe(false);
    }
    for (const [field, value] of [
      ['id', '7'],
      ['id', 0],
      ['keywords', 'birds, owls'],
      ['keywords', 'birds, , owls.'],
      ['keywords', 'birds,  owls.'],
      ['citation_issn', '18579870'],
      ['citation_date', '2023-13-01'],
      ['citation_volume', 'V'],
      ['document', 'https://bulletin.example.org/media/volumes/pdfs/2020/x.pdf'],
      ['authors', [{ name: 'Ana', surname: 'Petrovska' }]],
      ['section', ''],
    ] as const) {
      expect(manuscripts([{ ...manuscript, [field]: value }]), `manuscript ${field}: ${JSON.stringify(value)}`).toBe(
        false,
      );
    }
    const { keywords: _keywords, ...withoutKeywords } = manuscript!;
    expect(manuscripts([withoutKeywords])).toBe(false);
    for (const [field, value] of [
      ['citation_language', ''],
      ['udc', ''],
      ['citation_issn', ''],
    ] as const) {
      expect(manuscripts([{ ...manuscript, [field]: value }]), `manuscript ${field} may be empty`).toBe(true);
    }
  });
});

describe('the routes it names', () => {
  it('are the API: each route with its slash-less redirect, and the description itself', () => {
    expect(Object.keys(description.paths)).toEqual([
      '/api/',
      '/api',
      '/api/authors/',
      '/api/authors',
      '/api/authors/{key}/',
      '/api/authors/{key}',
      '/api/volumes/',
      '/api/volumes',
      '/api/volumes/{id}/',
      '/api/volumes/{id}',
      '/api/manuscripts/',
      '/api/manuscripts',
      '/api/manuscripts/{id}/',
      '/api/manuscripts/{id}',
      '/api/sections/',
      '/api/sections',
      '/api/openapi.json',
    ]);
  });

  it("answer GET and HEAD with 200 and the API's headers (the description, CORS and nosniff), a missing record with 404, other methods with 405", () => {
    const validator = descriptionValidator(description);
    for (const [route, item] of Object.entries(description.paths)) {
      const canonical = ROUTES.find((candidate) => candidate.path === route);
      if (!canonical) {
        for (const method of ['get', 'head'])
          expect(Object.keys(validator.response(route, method, '301')?.['headers'] ?? {}), route).toEqual(['Location']);
        continue;
      }
      const api = canonical.served === 'api';
      expect(Object.keys(item).filter((key) => key !== 'parameters')).toEqual(
        api ? ['get', 'head', 'post', 'put', 'patch', 'delete', 'options'] : ['get', 'head'],
      );
      for (const method of ['get', 'head']) {
        const ok = validator.response(route, method, '200');
        expect(Object.keys(ok?.['headers'] ?? {}), `${method} ${route}`).toEqual(
          api
            ? ['Allow', 'Vary', 'Access-Control-Allow-Origin', 'X-Content-Type-Options', 'Cache-Control']
            : ['Access-Control-Allow-Origin', 'X-Content-Type-Options'],
        );
        expect(Object.keys(ok?.['content'] ?? {})).toEqual(method === 'get' ? ['application/json'] : []);
        if (api) {
          expect(validator.header(route, method, '200', 'Allow')('GET')).toBe(true);
          expect(validator.header(route, method, '200', 'Allow')('GET, HEAD')).toBe(false);
          expect(validator.header(route, method, '200', 'Vary')('Accept, Accept-Encoding')).toBe(true);
          expect(validator.header(route, method, '200', 'Vary')('Accept-Encoding')).toBe(false);
        }
        expect(validator.response(route, method, '404') !== undefined, `${route} 404`).toBe(route.includes('{'));
      }
      if (api)
        for (const method of ['post', 'put', 'patch', 'delete', 'options'])
          expect(validator.header(route, method, '405', 'Allow')('GET'), `${method} ${route}`).toBe(true);
    }
  });

  it('take the `format` query parameter on every JSON route, which changes nothing', () => {
    for (const [route, item] of Object.entries(description.paths)) {
      if (ROUTES.find((candidate) => candidate.path === route)?.served === 'file') continue;
      expect(item['parameters'], route).toContainEqual({ $ref: '#/components/parameters/format' });
    }
  });
});
