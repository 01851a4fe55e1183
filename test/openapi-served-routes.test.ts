/**
 * The OpenAPI description against what the hosts answer: every path spelling the host rules
 * (scripts/hosts/rules.ts) serve for the API is either described, with the answer the hosts give
 * it, or one of the kinds the description leaves out on purpose, each with its reason in
 * docs/api-contract.md ("The OpenAPI description"), word for word. And every path the description
 * names is one the hosts serve.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { escapeRegex, hostRules } from '../scripts/hosts/rules.ts';
import { openApiDescription } from '../scripts/generator/render/openapi.ts';
import type { Description } from './helpers/openapi.ts';
import { REPO_ROOT } from './helpers/workspace.ts';

/** How the hosts answer a spelling: as a route, as a redirect to one, or as a file behind a route. */
type Kind = 'route' | 'redirect' | 'file' | 'twin';

/** The kinds the description leaves out, and why: each sentence is in docs/api-contract.md as it is here. */
const LEFT_OUT: Partial<Record<Kind, string>> = {
  file:
    "A route's file at its own path (`/api/index.json`, `/api/<list>/index.json`, `/api/<list>/<id>.json`) " +
    'is left out: it answers what its route answers, with the same headers, and a second path per ' +
    'route would give a generated client two methods for one resource.',
  twin:
    'The precompressed twins (`index.json.gz`, `index.json.br`) are left out: they are how a host ' +
    'answers a list to a client that accepts that encoding, not paths of the API.',
};

/** Record ids to spell the detail routes with: the sample journal's author keys, and a key with a dot. */
async function exampleIds(list: string): Promise<string[]> {
  if (list !== 'authors') return ['1', '7', '2147483647'];
  const files = await readdir(path.join(REPO_ROOT, 'content/authors'));
  return [...files.map((name) => name.replace(/\.(ya?ml|json)$/, '')).sort(), 'a.petrovska'];
}

/** Every spelling the host rules serve for the API, with how they answer it. */
async function servedSpellings(): Promise<{ path: string; kind: Kind }[]> {
  const spellings: { path: string; kind: Kind }[] = [];
  for (const rule of hostRules.api) {
    spellings.push(
      { path: rule.path, kind: 'route' },
      { path: rule.redirectFrom, kind: 'redirect' },
      { path: `/${rule.file}`, kind: 'file' },
      ...hostRules.precompressed.map((twin) => ({ path: `/${rule.file}${twin.suffix}`, kind: 'twin' as const })),
    );
  }
  for (const list of hostRules.details.lists) {
    for (const id of await exampleIds(list)) {
      spellings.push(
        { path: `/api/${list}/${id}/`, kind: 'route' },
        { path: `/api/${list}/${id}`, kind: 'redirect' },
        { path: `/api/${list}/${id}${hostRules.details.suffix}`, kind: 'file' },
      );
    }
  }
  for (const rule of hostRules.types) {
    if ('path' in rule && rule.path.startsWith('/api/')) spellings.push({ path: rule.path, kind: 'route' });
  }
  return spellings;
}

interface PathParameter {
  name: string;
  in: string;
  schema: { type?: string } & Record<string, unknown>;
}

const description = openApiDescription({ title: 'J', base_url: 'https://j.example.org' }) as Description;
const ajv = new Ajv2020({ strict: true });

/**
 * The described path a request path falls under, as a client or a validator reads the description:
 * the template matches and each path parameter's value is valid by its schema (an integer's digits
 * read as a number, as OpenAPI's `simple` style does).
 */
function describedAs(pathname: string): { template: string; statuses: string[] } | undefined {
  for (const [template, item] of Object.entries(description.paths)) {
    const names: string[] = [];
    const source = template
      .split(/(\{\w+\})/)
      .map((part) => {
        const name = /^\{(\w+)\}$/.exec(part)?.[1];
        if (name === undefined) return escapeRegex(part);
        names.push(name);
        return '([^/]+)';
      })
      .join('');
    const match = new RegExp(`^${source}$`).exec(pathname);
    if (!match) continue;
    const parameters = ((item['parameters'] ?? []) as PathParameter[]).filter((p) => p.in === 'path');
    const valid = names.every((name, i) => {
      const schema = parameters.find((p) => p.name === name)?.schema;
      if (!schema) throw new Error(`${template} does not declare its parameter ${name}`);
      const raw = decodeURIComponent(match[i + 1]!);
      return ajv.validate(schema, schema.type === 'integer' && /^\d+$/.test(raw) ? Number(raw) : raw);
    });
    const get = item['get'] as { responses: Record<string, unknown> };
    if (valid) return { template, statuses: Object.keys(get.responses) };
  }
  return undefined;
}

describe('the OpenAPI description and the paths the hosts serve', () => {
  it('describes every route the hosts answer, with 200', async () => {
    for (const { path: pathname } of (await servedSpellings()).filter((s) => s.kind === 'route')) {
      expect(describedAs(pathname)?.statuses, pathname).toContain('200');
    }
  });

  it('describes every path without its slash as the redirect the hosts answer with, 301', async () => {
    for (const { path: pathname } of (await servedSpellings()).filter((s) => s.kind === 'redirect')) {
      expect(describedAs(pathname)?.statuses, pathname).toEqual(['301']);
    }
  });

  it("leaves out a route's file at its own path, and describes it as nothing else (never as a redirect)", async () => {
    const files = (await servedSpellings()).filter((s) => s.kind === 'file');
    expect(files.map((s) => s.path)).toEqual(
      expect.arrayContaining(['/api/index.json', '/api/authors/index.json', '/api/manuscripts/7.json']),
    );
    for (const { path: pathname } of files) expect(describedAs(pathname), pathname).toBeUndefined();
  });

  it('leaves out nothing else, and says why in docs/api-contract.md, word for word', async () => {
    const kinds = new Set((await servedSpellings()).map((s) => s.kind));
    const contract = (await readFile(path.join(REPO_ROOT, 'docs/api-contract.md'), 'utf8')).replace(/\s+/g, ' ');
    for (const kind of kinds) {
      const reason = LEFT_OUT[kind];
      if (kind === 'route' || kind === 'redirect') expect(reason, kind).toBeUndefined();
      else expect(contract, kind).toContain(reason);
    }
  });

  it('names no path the hosts do not serve', async () => {
    const spellings = await servedSpellings();
    const served = new Set(spellings.map((s) => describedAs(s.path)?.template));
    expect(Object.keys(description.paths).filter((template) => !served.has(template))).toEqual([]);
  });

  it('gives an author whose key is `index` no record route: its file would be the list', () => {
    for (const pathname of ['/api/authors/index/', '/api/authors/INDEX/', '/api/authors/index']) {
      expect(describedAs(pathname), pathname).toBeUndefined();
    }
  });
});
