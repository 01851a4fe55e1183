/**
 * Every platform file is rendered from the host rules table, validates against the host's
 * own published schema (test/fixtures/schemas/README.md), and routes the contract's paths.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Ajv, type AnySchema } from 'ajv';
import ajvDraft04 from 'ajv-draft-04';
import {
  cleanUrlsSchema,
  getTransformedRoutes,
  headersSchema,
  redirectsSchema,
  rewritesSchema,
  trailingSlashSchema,
} from '@vercel/routing-utils';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { renderAzureConfig } from '../../scripts/hosts/azure.ts';
import { PLATFORM_CONFIGS } from '../../scripts/hosts/configs.ts';
import { renderFirebaseConfig } from '../../scripts/hosts/firebase.ts';
import { renderGitlabPagesJob } from '../../scripts/hosts/gitlab-pages.ts';
import { renderNetlifyToml } from '../../scripts/hosts/netlify.ts';
import { CONTRACT_HEADERS, escapeRegex, hostRules } from '../../scripts/hosts/rules.ts';
import { renderVercelConfig } from '../../scripts/hosts/vercel.ts';
import { REPO_ROOT, runCli } from '../helpers/workspace.ts';
import { CROSS_ORIGIN, TYPED_FILES } from '../servers/http-contract-routes.ts';

// ajv-draft-04 is CommonJS with a default export; under NodeNext its class is `.default`.
const AjvDraft04 = ajvDraft04.default;
const SCHEMAS = path.join(REPO_ROOT, 'test/fixtures/schemas');
const LISTS = ['authors', 'volumes', 'manuscripts'];

async function vendored(file: string): Promise<AnySchema> {
  return JSON.parse(await readFile(path.join(SCHEMAS, file), 'utf8')) as AnySchema;
}

/**
 * An Azure route as Azure matches it: a `*` stands for the rest of the path, and `*.{a,b}` for a
 * rest that ends in one of those extensions.
 */
function azureRoutePattern(route: string): RegExp {
  const [head = '', tail] = route.split('*');
  const extensions = tail?.match(/^\.\{([\w,]+)\}$/)?.[1]?.split(',');
  const rest = tail === undefined ? '' : extensions ? `.*\\.(${extensions.join('|')})` : `.*${escapeRegex(tail)}`;
  return new RegExp(`^${escapeRegex(head)}${rest}$`);
}

/** Every error, readable in a failed assertion. */
function errorsOf(validate: { errors?: unknown[] | null }): unknown[] {
  return validate.errors ?? [];
}

describe('vercel.json', () => {
  const config = JSON.parse(renderVercelConfig(hostRules));

  it('validates against the schemas the Vercel CLI checks vercel.json with', () => {
    const schema = {
      type: 'object',
      additionalProperties: false,
      properties: {
        $schema: { type: 'string' },
        cleanUrls: cleanUrlsSchema,
        trailingSlash: trailingSlashSchema,
        redirects: redirectsSchema,
        rewrites: rewritesSchema,
        headers: headersSchema,
      },
    };
    const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
    expect(validate(config), JSON.stringify(errorsOf(validate))).toBe(true);
  });

  it("routes every list the contract's way through Vercel's own route compiler", () => {
    const { routes, error } = getTransformedRoutes(config);
    expect(error).toBeNull();
    const matching = (pathname: string) =>
      (routes ?? []).filter(
        (route) => 'src' in route && typeof route.src === 'string' && new RegExp(route.src).test(pathname),
      );
    for (const list of LISTS) {
      const [redirect] = matching(`/api/${list}`);
      expect(redirect).toMatchObject({ status: 301, headers: { Location: '/api/$1/' } });
      for (const pathname of [`/api/${list}/`, `/api/${list}/index.json`]) {
        const withHeaders = matching(pathname).find((route) => 'headers' in route && route.continue);
        expect(withHeaders && 'headers' in withHeaders ? withHeaders.headers : undefined).toEqual({
          ...CONTRACT_HEADERS,
          Vary: 'Accept, Accept-Encoding',
          'Access-Control-Allow-Origin': '*',
          'X-Content-Type-Options': 'nosniff',
          'Cache-Control': 'public, max-age=300',
        });
      }
      const rewrite = matching(`/api/${list}/`).find((route) => 'dest' in route);
      expect(rewrite && 'dest' in rewrite ? rewrite.dest : undefined).toBe('/api/$1/index.json');
    }
    // A name that is not a list gets no rule: the host's 404.
    expect(matching('/api/no-such-list/')).toEqual([]);
  });

  it("routes a record's detail, the API root and the sections through Vercel's route compiler", () => {
    const { routes, error } = getTransformedRoutes(config);
    expect(error).toBeNull();
    const all = routes ?? [];
    const filesystem = all.findIndex((route) => 'handle' in route && route.handle === 'filesystem');
    const fill = (template: string, match: RegExpExecArray) =>
      template.replace(/\$(\d)/g, (_, i: string) => match[Number(i)] ?? '');
    /** What Vercel answers for a path: the first redirect, else the headers of every route that continues, and the rewrite after its file system. */
    const answer = (pathname: string) => {
      const headers: Record<string, string> = {};
      for (const route of all.slice(0, filesystem)) {
        if ('handle' in route || typeof route.src !== 'string') continue;
        const match = new RegExp(route.src).exec(pathname);
        if (!match) continue;
        if (route.status) return { status: route.status, location: fill(route.headers?.['Location'] ?? '', match) };
        Object.assign(headers, route.headers);
      }
      for (const route of all.slice(filesystem + 1)) {
        if ('handle' in route || typeof route.src !== 'string' || !route.dest) continue;
        const match = new RegExp(route.src).exec(pathname);
        if (match) return { rewrite: fill(route.dest, match), headers };
      }
      return { headers };
    };
    const api = {
      ...CONTRACT_HEADERS,
      Vary: 'Accept, Accept-Encoding',
      'Access-Control-Allow-Origin': '*',
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'public, max-age=300',
    };
    expect(answer('/api/manuscripts/7/')).toEqual({ rewrite: '/api/manuscripts/7.json', headers: api });
    expect(answer('/api/authors/ana.petrovska/')).toEqual({ rewrite: '/api/authors/ana.petrovska.json', headers: api });
    // The file's own path is the file, with the same headers; the path without the slash moves.
    expect(answer('/api/volumes/2.json')).toEqual({ headers: api });
    expect(answer('/api/manuscripts/7')).toEqual({ status: 301, location: '/api/manuscripts/7/' });
    expect(answer('/api/authors/index.json')).toEqual({ headers: api });
    expect(answer('/api/')).toEqual({ rewrite: '/api/index.json', headers: api });
    expect(answer('/api/sections/')).toEqual({ rewrite: '/api/sections/index.json', headers: api });
    expect(answer('/api')).toEqual({ status: 301, location: '/api/' });
    expect(answer('/api/sections')).toEqual({ status: 301, location: '/api/sections/' });
    for (const { file, type } of TYPED_FILES) {
      const pathname = `/${file}`;
      expect(answer(pathname), pathname).toEqual({ headers: { 'Content-Type': type, ...CROSS_ORIGIN } });
    }
  });

  it('serves a page at its URL without the extension and moves its other spellings there (docs/indexing.md)', () => {
    expect(config.cleanUrls).toBe(true);
    expect(config.trailingSlash).toBeUndefined();
    const { routes } = getTransformedRoutes(config);
    /** What Vercel answers before its file system: the first redirect that matches, its captures filled in. */
    const redirect = (pathname: string) => {
      for (const route of routes ?? []) {
        if ('handle' in route || typeof route.src !== 'string' || !route.status) continue;
        const match = new RegExp(route.src).exec(pathname);
        if (match)
          return {
            status: route.status,
            location: route.headers?.['Location']?.replace(/\$(\d)/g, (_: string, i: string) => match[Number(i)] ?? ''),
          };
      }
      return undefined;
    };
    expect(redirect('/manuscripts/7.html')).toEqual({ status: 308, location: '/manuscripts/7' });
    expect(redirect('/manuscripts/7/')).toEqual({ status: 301, location: '/manuscripts/7' });
    expect(redirect('/volumes/5/')).toEqual({ status: 301, location: '/volumes/5' });
    // The page itself, the lists and the PDFs are left to the file system (cleanUrls serves `7.html` at `/manuscripts/7`).
    for (const pathname of [
      '/manuscripts/7',
      '/volumes/5',
      '/',
      '/api/authors/',
      '/api/authors/index.json',
      '/media/pdfs/a.pdf',
    ]) {
      expect(redirect(pathname), pathname).toBeUndefined();
    }
  });
});

describe('firebase.json', () => {
  const config = JSON.parse(renderFirebaseConfig(hostRules));

  it("validates against firebase-tools' schema", async () => {
    const validate = new Ajv({ allErrors: true, strict: false }).compile(await vendored('firebase-config.json'));
    expect(validate(config), JSON.stringify(errorsOf(validate))).toBe(true);
  });

  it('fails that schema when a rule is malformed (the check can fail)', async () => {
    const validate = new Ajv({ allErrors: true, strict: false }).compile(await vendored('firebase-config.json'));
    const broken = structuredClone(config);
    broken.hosting.redirects[0].type = 'permanent';
    delete broken.hosting.redirects[0].regex;
    expect(validate(broken)).toBe(false);
  });

  it('rewrites, redirects and sets headers for each list, the sections and the API root', () => {
    expect(config.hosting.public).toBe('dist');
    expect(config.hosting.rewrites).toEqual([
      ...LISTS.map((l) => ({ source: `/api/${l}/`, destination: `/api/${l}/index.json` })),
      { source: '/api/sections/', destination: '/api/sections/index.json' },
      { source: '/api/', destination: '/api/index.json' },
    ]);
    // A regex: Firebase's globs would match the slash path too and loop (test/hosts/firebase-superstatic.test.ts).
    expect(config.hosting.redirects.slice(0, 2)).toEqual([
      { regex: '^/api/(authors|volumes|manuscripts|sections)$', destination: '/api/:1/', type: 301 },
      { regex: '^/api$', destination: '/api/', type: 301 },
    ]);
    // The slash URL the pages had as folders; cleanUrls serves each page without `.html` (docs/indexing.md).
    expect(config.hosting.redirects.at(-1)).toEqual({
      regex: '^/(volumes|manuscripts)/([^/]+)/$',
      destination: '/:1/:2',
      type: 301,
    });
    expect(config.hosting.cleanUrls).toBe(true);
    expect(config.hosting.trailingSlash).toBeUndefined();
    expect(config.hosting.headers.map((h: { source: string }) => h.source)).toEqual([
      '/api/@(authors|volumes|manuscripts|sections)/',
      '/api/@(authors|volumes|manuscripts|sections)/index.json',
      '/api/',
      '/api/index.json',
      '/api/@(authors|volumes|manuscripts)/!(index).json',
      '/citations/*.bib',
      '/citations/*.ris',
      '/citations/*.json',
      '/feed.xml',
      '/api/openapi.json',
      '/oai/*.xml',
      '/oai/records/*.xml',
      '/oai/items.json',
      '/media/**',
    ]);
    expect(config.hosting.headers[0].headers).toContainEqual({ key: 'Content-Type', value: 'application/json' });
    expect(config.hosting.headers[0].headers).toContainEqual({ key: 'Allow', value: 'GET' });
    for (const [source, type] of [
      ['/citations/*.bib', 'application/x-bibtex; charset=utf-8'],
      ['/citations/*.ris', 'application/x-research-info-systems; charset=utf-8'],
      ['/citations/*.json', 'application/vnd.citationstyles.csl+json'],
      ['/feed.xml', 'application/atom+xml; charset=utf-8'],
      ['/api/openapi.json', 'application/json'],
      ['/oai/*.xml', 'text/xml; charset=utf-8'],
      ['/oai/records/*.xml', 'text/xml; charset=utf-8'],
      ['/oai/items.json', 'application/json'],
    ]) {
      expect(config.hosting.headers.find((h: { source: string }) => h.source === source).headers, source).toEqual([
        { key: 'Content-Type', value: type },
        ...Object.entries(CROSS_ORIGIN).map(([key, value]) => ({ key, value })),
      ]);
    }
  });

  it("moves a record's slash path, and the path without it, to the record's file (RE2: no lookbehind)", () => {
    const detail = config.hosting.redirects[2] as { regex: string; destination: string; type: number };
    expect(detail).toMatchObject({ destination: '/api/:1/:2.json', type: 301 });
    const moved = (pathname: string) => new RegExp(detail.regex).exec(pathname)?.slice(1, 3);
    expect(moved('/api/manuscripts/7/')).toEqual(['manuscripts', '7']);
    expect(moved('/api/manuscripts/7')).toEqual(['manuscripts', '7']);
    expect(moved('/api/authors/ana-petrovska/')).toEqual(['authors', 'ana-petrovska']);
    expect(moved('/api/authors/a.json.b/')).toEqual(['authors', 'a.json.b']);
    expect(moved('/api/authors/json/')).toEqual(['authors', 'json']);
    expect(moved('/api/authors/xjson/')).toEqual(['authors', 'xjson']);
    // The files themselves, the lists and their index.json are served as they are.
    for (const pathname of ['/api/manuscripts/7.json', '/api/authors/index.json', '/api/authors/', '/api/authors']) {
      expect(moved(pathname), pathname).toBeUndefined();
    }
  });
});

describe('staticwebapp.config.json', () => {
  const config = JSON.parse(renderAzureConfig(hostRules));

  it("validates against the Azure Static Web Apps CLI's schema (draft-04)", async () => {
    const validate = new AjvDraft04({ allErrors: true, strict: false }).compile(
      await vendored('staticwebapp.config.json'),
    );
    expect(validate(config), JSON.stringify(errorsOf(validate))).toBe(true);
    const broken = { ...config, routes: [{ rewrite: '/x' }] };
    expect(validate(broken)).toBe(false);
  });

  it('refuses other methods first, then answers each list by its index.json', () => {
    const [refuse, ...routes] = config.routes;
    expect(refuse).toEqual({
      route: '/*',
      methods: ['POST', 'PUT', 'DELETE', 'PATCH', 'CONNECT', 'OPTIONS', 'TRACE'],
      statusCode: 405,
      headers: { Allow: 'GET' },
    });
    for (const list of LISTS) {
      const slash = routes.findIndex((r: { route: string }) => r.route === `/api/${list}/`);
      const bare = routes.findIndex((r: { route: string }) => r.route === `/api/${list}`);
      expect(routes[slash]).toMatchObject({
        rewrite: `/api/${list}/index.json`,
        headers: { 'Content-Type': 'application/json', Allow: 'GET', Vary: 'Accept, Accept-Encoding' },
      });
      expect(routes[bare]).toEqual({ route: `/api/${list}`, redirect: `/api/${list}/`, statusCode: 301 });
      expect(slash).toBeLessThan(bare);
    }
    expect(config.responseOverrides).toEqual({ '404': { rewrite: '/404.html' } });
  });

  it("answers the root and the sections like a list, and a record at its file's path with the lists' headers", () => {
    const routes = config.routes as { route: string; rewrite?: string; headers?: Record<string, string> }[];
    for (const [path, file] of [
      ['/api/', '/api/index.json'],
      ['/api/sections/', '/api/sections/index.json'],
    ]) {
      expect(routes.find((r) => r.route === path)).toMatchObject({ rewrite: file, headers: { Allow: 'GET' } });
    }
    for (const list of LISTS) {
      const record = routes.findIndex((r) => r.route === `/api/${list}/*.{json}`);
      expect(routes[record]?.headers).toMatchObject({ 'Content-Type': 'application/json', Allow: 'GET' });
      // After the list's own index.json: Azure takes the first route that matches.
      expect(routes.findIndex((r) => r.route === `/api/${list}/index.json`)).toBeLessThan(record);
    }
    // Azure takes the first route that matches a GET: none before each typed file's own names it.
    const forGet = routes.filter((r) => !('methods' in r));
    for (const { file, type } of TYPED_FILES) {
      const pathname = `/${file}`;
      expect(forGet.find((r) => azureRoutePattern(r.route).test(pathname))?.headers, pathname).toEqual({
        'Content-Type': type,
        ...CROSS_ORIGIN,
      });
    }
  });
});

describe('netlify.toml and the GitLab Pages job', () => {
  it('netlify.toml holds build settings only: the rules are dist/_headers and dist/_redirects', () => {
    const toml = renderNetlifyToml();
    expect(toml).toContain('[build]\n  command = "npm run build"\n  publish = "dist"\n');
    expect(toml).toContain('NODE_VERSION = "20"');
    expect(toml).not.toMatch(/\[\[(headers|redirects)\]\]/);
  });

  it('the GitLab Pages job builds and publishes dist/', () => {
    const job = parseYaml(renderGitlabPagesJob()) as {
      pages: { script: string[]; pages: { publish: string }; artifacts: { paths: string[] } };
    };
    expect(job.pages.script).toEqual(['npm ci', 'npm run build']);
    expect(job.pages.pages.publish).toBe('dist');
    expect(job.pages.artifacts.paths).toEqual(['dist']);
  });
});

describe('npm run config -- <platform>', () => {
  it('prints each platform file exactly as rendered', async () => {
    for (const [host, { render }] of Object.entries(PLATFORM_CONFIGS)) {
      const result = await runCli(REPO_ROOT, ['config', host]);
      expect(result.code, `${host}: ${result.stderr}`).toBe(0);
      expect(result.stdout).toBe(render());
    }
  });
});
