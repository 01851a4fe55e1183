import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeXml, renderSitemap, SITEMAP_MAX_URLS } from '../scripts/generator/render/sitemap.ts';
import { createWorkspace, REPO_ROOT, type Workspace } from './helpers/workspace.ts';
import { sitePages } from '../scripts/generator/render/pages.ts';
import { bodyText, manuscript, site, volume } from './helpers/synthetic-site.ts';

const run = promisify(execFile);
const SCHEMAS = path.join(REPO_ROOT, 'test/fixtures/schemas');

/** xmllint comes from Debian's libxml2-utils; CI installs it (.ci/run). */
const installed = await run('xmllint', ['--version']).then(
  () => true,
  () => false,
);
// Skipped with the reason where xmllint is missing; under CI, which installs it, the checks run (and fail).
const xmllint = installed || Boolean(process.env['CI']);
if (!xmllint) console.warn('xmllint is not installed (Debian libxml2-utils): sitemap schema validation is skipped');

/** Validates with the vendored sitemaps.org schema, offline; resolves to xmllint's report. */
async function validate(file: string, schema: 'sitemap.xsd' | 'siteindex.xsd'): Promise<string> {
  const { stderr } = await run('xmllint', ['--noout', '--nonet', '--schema', path.join(SCHEMAS, schema), file]);
  return stderr.trim();
}

describe('sitemap of the fixture journal, as built', () => {
  let workspace: Workspace;
  beforeAll(async () => {
    workspace = await createWorkspace();
    const result = await workspace.build();
    expect(result.problems).toEqual([]);
  });
  afterAll(() => workspace.dispose());

  it('lists the home page, each volume page and each landing page, with dates from the content', async () => {
    const xml = await readFile(path.join(workspace.paths.out, 'sitemap.xml'), 'utf8');
    expect(xml).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
        '<url><loc>https://journal.example.org/</loc></url>',
        // Newest volume first: Volume II (id 1), then Volume I (id 2).
        '<url><loc>https://journal.example.org/volumes/2</loc><lastmod>2022-06-30</lastmod></url>',
        '<url><loc>https://journal.example.org/volumes/1</loc><lastmod>2021-12-01</lastmod></url>',
        // Manuscripts in the API's published order, each dated by its citation_date.
        '<url><loc>https://journal.example.org/manuscripts/3</loc><lastmod>2022-02-28</lastmod></url>',
        '<url><loc>https://journal.example.org/manuscripts/7</loc><lastmod>2021-03-04</lastmod></url>',
        '<url><loc>https://journal.example.org/manuscripts/12</loc><lastmod>2021-07-15</lastmod></url>',
        '</urlset>',
        '',
      ].join('\n'),
    );
  });

  it.skipIf(!xmllint)('validates against the sitemaps.org schema', async () => {
    expect(await validate(path.join(workspace.paths.out, 'sitemap.xml'), 'sitemap.xsd')).toMatch(/validates$/);
  });

  it('names the sitemap in robots.txt by its absolute URL, and every listed page exists in dist/ as one file', async () => {
    expect(await readFile(path.join(workspace.paths.out, 'robots.txt'), 'utf8')).toBe(
      'User-agent: *\nAllow: /\n\nSitemap: https://journal.example.org/sitemap.xml\n',
    );
    const xml = await readFile(path.join(workspace.paths.out, 'sitemap.xml'), 'utf8');
    const locs = [...xml.matchAll(/<loc>https:\/\/journal\.example\.org\/([^<]*)<\/loc>/g)].map((m) => m[1]!);
    expect(locs).toHaveLength(6);
    for (const loc of locs)
      await expect(
        readFile(path.join(workspace.paths.out, loc === '' ? 'index.html' : `${loc}.html`), 'utf8'),
      ).resolves.toMatch(/^<!doctype html>/);
  });
});

describe('sitemap at the scale target (100,000 manuscripts)', () => {
  const volumes = [volume(1, 'Volume V', '2019-12-16'), volume(2, 'Volume I', '2015-06-01')];
  const manuscripts = Array.from({ length: 100_001 }, (_, i) =>
    manuscript(i + 1, { citation_volume: (i % 2) + 1, citation_date: i === 73_000 ? '2024-02-29' : '2020-01-01' }),
  );
  const outputs = renderSitemap(site({ volumes, manuscripts }));
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'sitemap-test-'));
    for (const output of outputs) await writeFile(path.join(dir, output.path), bodyText(output));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('splits into an index and parts of at most 50,000 URLs, listing every page exactly once', () => {
    expect(outputs.map((o) => o.path)).toEqual([
      'sitemap.xml',
      'sitemap-1.xml',
      'sitemap-2.xml',
      'sitemap-3.xml',
      'robots.txt',
    ]);
    const seen = new Set<string>();
    for (const part of outputs.slice(1, 4)) {
      const locs = [...bodyText(part).matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!);
      expect(locs.length).toBeLessThanOrEqual(SITEMAP_MAX_URLS);
      for (const loc of locs) seen.add(loc);
    }
    // The home page, 2 volume pages and 100,001 landing pages.
    expect(seen.size).toBe(100_004);
    expect(seen.has('https://journal.example.org/manuscripts/100001')).toBe(true);
  });

  it('points the index at each part by absolute URL at the site root, dated by its newest page', () => {
    expect(bodyText(outputs[0])).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
        '<sitemap><loc>https://journal.example.org/sitemap-1.xml</loc><lastmod>2020-01-01</lastmod></sitemap>',
        '<sitemap><loc>https://journal.example.org/sitemap-2.xml</loc><lastmod>2024-02-29</lastmod></sitemap>',
        '<sitemap><loc>https://journal.example.org/sitemap-3.xml</loc><lastmod>2020-01-01</lastmod></sitemap>',
        '</sitemapindex>',
        '',
      ].join('\n'),
    );
    expect(bodyText(outputs[4])).toContain('Sitemap: https://journal.example.org/sitemap.xml\n');
  });

  it.skipIf(!xmllint)('validates: the index against siteindex.xsd, each part against sitemap.xsd', async () => {
    expect(await validate(path.join(dir, 'sitemap.xml'), 'siteindex.xsd')).toMatch(/validates$/);
    for (const part of ['sitemap-1.xml', 'sitemap-2.xml', 'sitemap-3.xml']) {
      expect(await validate(path.join(dir, part), 'sitemap.xsd')).toMatch(/validates$/);
    }
  });

  it('renders the same bytes twice (no clock in <lastmod>)', () => {
    const again = renderSitemap(site({ volumes, manuscripts }));
    expect(again.map(bodyText)).toEqual(outputs.map(bodyText));
  });
});

describe('sitemap edges', () => {
  it('keeps exactly 50,000 URLs in one plain sitemap, and splits at 50,001', () => {
    const volumes = [volume(1, 'Volume I', '2020-01-01')];
    const at = (n: number) =>
      renderSitemap(site({ volumes, manuscripts: Array.from({ length: n }, (_, i) => manuscript(i + 1)) })).map(
        (o) => o.path,
      );
    expect(at(SITEMAP_MAX_URLS - 2)).toEqual(['sitemap.xml', 'robots.txt']);
    expect(at(SITEMAP_MAX_URLS - 1)).toEqual(['sitemap.xml', 'sitemap-1.xml', 'sitemap-2.xml', 'robots.txt']);
  });

  it('lists a part of the pages as the whole list would, reading the records of that part alone', () => {
    const volumes = [volume(1, 'Volume I', '2020-01-01'), volume(2, 'Volume II', '2021-01-01')];
    const all = Array.from({ length: 10 }, (_, i) => manuscript(i + 1, { citation_date: `2021-01-${10 + i}` }));
    const read = new Set<number>();
    // Each manuscript notes when any of its fields is read, as the build's read tracking does.
    const manuscripts = all.map(
      (m) =>
        new Proxy(m, { get: (target, field, receiver) => (read.add(target.id), Reflect.get(target, field, receiver)) }),
    );
    const tracked = site({ volumes, manuscripts });
    const whole = [...sitePages(site({ volumes, manuscripts: all }))];
    expect(whole).toHaveLength(13);
    for (const [from, to] of [
      [0, 1],
      [0, 3],
      [1, 3],
      [2, 7],
      [3, 13],
      [9, 20],
      [5, 5],
      [0, 13],
    ] as const) {
      read.clear();
      expect([...sitePages(tracked, from, to)]).toEqual(whole.slice(from, to));
      // Pages 3 to 12 are the manuscripts 1 to 10.
      const listed = all.filter((_, i) => i + 3 >= from && i + 3 < to).map((m) => m.id);
      expect([...read].filter((id) => !listed.includes(id))).toEqual([]);
    }
  });

  it('escapes the five XML special characters', () => {
    expect(escapeXml(`https://x.example/?a=1&b='2'<"3">`)).toBe(
      'https://x.example/?a=1&amp;b=&apos;2&apos;&lt;&quot;3&quot;&gt;',
    );
  });

  it.skipIf(!xmllint)('fails validation when a date is not a real date (the check can fail)', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'sitemap-test-'));
    try {
      const [sitemap] = renderSitemap(
        site({
          manuscripts: [manuscript(1, { citation_date: '2021-02-30' })],
          volumes: [volume(1, 'Volume I', '2021-01-01')],
        }),
      );
      await writeFile(path.join(dir, 'sitemap.xml'), bodyText(sitemap));
      await expect(validate(path.join(dir, 'sitemap.xml'), 'sitemap.xsd')).rejects.toThrow(/fails to validate/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the vendored sitemap schemas are as strict as the published ones', () => {
  const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';
  const XML = '<?xml version="1.0" encoding="UTF-8"?>\n';
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'sitemap-schema-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  async function check(name: string, text: string, schema: 'sitemap.xsd' | 'siteindex.xsd') {
    const file = path.join(dir, name);
    await writeFile(file, XML + text);
    return validate(file, schema).then(
      (report) => ({ ok: true, report }),
      (error: { stderr?: string }) => ({ ok: false, report: String(error.stderr) }),
    );
  }

  // Each must-fail document beside the one-change document that must pass: the check can fail and pass.
  it.skipIf(!xmllint).each([
    [
      'an index with <lastmod> before <loc>',
      'siteindex.xsd',
      `<sitemapindex ${NS}><sitemap><lastmod>2024-01-02</lastmod><loc>https://journal.example.org/sitemap-1.xml</loc></sitemap></sitemapindex>`,
      `<sitemapindex ${NS}><sitemap><loc>https://journal.example.org/sitemap-1.xml</loc><lastmod>2024-01-02</lastmod></sitemap></sitemapindex>`,
    ],
    [
      'an index whose sitemap has no <loc>',
      'siteindex.xsd',
      `<sitemapindex ${NS}><sitemap><lastmod>2024-01-02</lastmod></sitemap></sitemapindex>`,
      `<sitemapindex ${NS}><sitemap><loc>https://journal.example.org/sitemap-1.xml</loc></sitemap></sitemapindex>`,
    ],
    [
      'a <sitemap> as the root of an index',
      'siteindex.xsd',
      `<sitemap ${NS}><loc>https://journal.example.org/sitemap-1.xml</loc></sitemap>`,
      `<sitemapindex ${NS}><sitemap><loc>https://journal.example.org/sitemap-1.xml</loc></sitemap></sitemapindex>`,
    ],
    [
      'a <url> as the root of a sitemap',
      'sitemap.xsd',
      `<url ${NS}><loc>https://journal.example.org/manuscripts/7</loc></url>`,
      `<urlset ${NS}><url><loc>https://journal.example.org/manuscripts/7</loc></url></urlset>`,
    ],
    [
      'a <loc> as the root of a sitemap',
      'sitemap.xsd',
      `<loc ${NS}>https://journal.example.org/manuscripts/7</loc>`,
      `<urlset ${NS}><url><loc>https://journal.example.org/manuscripts/7</loc></url></urlset>`,
    ],
    [
      'a sitemap index read as a sitemap',
      'sitemap.xsd',
      `<sitemapindex ${NS}><sitemap><loc>https://journal.example.org/sitemap-1.xml</loc></sitemap></sitemapindex>`,
      `<urlset ${NS}><url><loc>https://journal.example.org/sitemap-1.xml</loc></url></urlset>`,
    ],
    [
      'a <url> with <lastmod> before <loc>',
      'sitemap.xsd',
      `<urlset ${NS}><url><lastmod>2024-01-02</lastmod><loc>https://journal.example.org/manuscripts/7</loc></url></urlset>`,
      `<urlset ${NS}><url><loc>https://journal.example.org/manuscripts/7</loc><lastmod>2024-01-02</lastmod></url></urlset>`,
    ],
    [
      'an empty <urlset>',
      'sitemap.xsd',
      `<urlset ${NS}></urlset>`,
      `<urlset ${NS}><url><loc>https://journal.example.org/</loc></url></urlset>`,
    ],
  ] as const)('rejects %s', async (name, schema, loose, strict) => {
    const slug = name.replace(/\W+/g, '-');
    const refused = await check(`${slug}-loose.xml`, loose, schema);
    expect(refused.ok, refused.report).toBe(false);
    expect(refused.report).toMatch(/fails to validate/);
    const accepted = await check(`${slug}-strict.xml`, strict, schema);
    expect(accepted, accepted.report).toEqual({ ok: true, report: expect.stringMatching(/validates$/) });
  });
});
