/**
 * `cloudflare_pages_plan` in content/journal.yaml: a site just over Cloudflare's 20,000 files fails
 * on the Free plan, at the `hosts` line, and builds on a paid plan (up to 100,000 files). The site is
 * made large with small files under public/, which the build publishes as they are: the check
 * counts what the build really wrote.
 */
import { link, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { formatProblem } from '../../scripts/generator/model/problems.ts';
import { snapshot } from '../helpers/snapshot.ts';
import { createWorkspace, REPO_ROOT, VALID_JOURNAL, type Workspace } from '../helpers/workspace.ts';

const journalText = async (extra: string) =>
  `${await readFile(path.join(VALID_JOURNAL, 'journal.yaml'), 'utf8')}${extra}`;

async function filesIn(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).length;
}

describe('the build with cloudflare_pages_plan', () => {
  let workspace: Workspace | undefined;
  afterEach(async () => {
    await workspace?.dispose();
    workspace = undefined;
  });

  it('refuses a site of 20,001 files on the Free plan at the hosts line, and builds it on a paid plan', async () => {
    workspace = await createWorkspace({ 'journal.yaml': await journalText('') });
    expect((await workspace.build()).ok).toBe(true);
    // The files of the sample journal, made up to one more than the Free plan serves.
    const sample = await filesIn(workspace.paths.out);
    const filler = 20_001 - sample;
    const fillerDir = path.join(workspace.root, 'public', 'filler');
    await mkdir(fillerDir, { recursive: true });
    // Links to one file: each is a file of the site, and they are made in a fraction of the time.
    const original = path.join(workspace.root, 'filler.txt');
    await writeFile(original, 'filler\n');
    for (let start = 0; start < filler; start += 500) {
      const names = Array.from({ length: Math.min(500, filler - start) }, (_, i) => `${start + i}.txt`);
      await Promise.all(names.map((name) => link(original, path.join(fillerDir, name))));
    }

    const free = await journalText('hosts:\n  - cloudflare-pages\n');
    await workspace.write('journal.yaml', free);
    const refused = await workspace.build();
    expect(refused.ok).toBe(false);
    expect(refused.problems).toHaveLength(1);
    const [problem] = refused.problems;
    expect(problem).toMatchObject({
      code: 'host/limit',
      file: 'content/journal.yaml',
      // At the list's first item, where a problem of a field's value is reported.
      line: free.split('\n').indexOf('  - cloudflare-pages') + 1,
      column: 3,
      field: 'hosts',
    });
    expect(formatProblem(problem!)).toMatch(
      /^content\/journal\.yaml:\d+:3 hosts: the site has 20,001 files, more than Cloudflare Pages .* on the Free plan \(at most 20,000 files on the Free plan; .*cloudflare_pages_plan: paid.*PAGES_WRANGLER_MAJOR_VERSION=4.*docs\/hosting\/README\.md\)\)$/,
    );
    // Refused before the swap: the previous output stays as it was.
    expect(await filesIn(workspace.paths.out)).toBe(sample);

    await workspace.write('journal.yaml', `${free}cloudflare_pages_plan: paid\n`);
    const built = await workspace.build();
    expect(built.problems).toEqual([]);
    expect(built.ok).toBe(true);
    expect(built.warnings).toContainEqual(expect.stringMatching(/PAGES_WRANGLER_MAJOR_VERSION=4/));
    expect(await filesIn(workspace.paths.out)).toBe(20_001);
  }, 120_000);

  it('reports a plan it does not know at its line, with the plans it knows', async () => {
    const text = await journalText('hosts: [cloudflare-pages]\ncloudflare_pages_plan: pro\n');
    workspace = await createWorkspace({ 'journal.yaml': text });
    const result = await workspace.build('check');
    expect(result.ok).toBe(false);
    expect(result.problems.map(formatProblem)).toEqual([
      `content/journal.yaml:${text.split('\n').indexOf('cloudflare_pages_plan: pro') + 1}:24 cloudflare_pages_plan: is the string "pro" (free or paid: the Cloudflare plan the Pages project is on)`,
    ]);
  });

  it('builds the sample journal as before: the plan changes no output', async () => {
    workspace = await createWorkspace({ 'journal.yaml': await journalText('hosts: [cloudflare-pages]\n') });
    expect((await workspace.build()).ok).toBe(true);
    const free = await snapshot(workspace.paths.out);
    await workspace.write(
      'journal.yaml',
      await journalText('hosts: [cloudflare-pages]\ncloudflare_pages_plan: paid\n'),
    );
    const paid = await workspace.build();
    expect(paid.ok).toBe(true);
    expect(paid.warnings ?? []).toEqual([]);
    expect(await snapshot(workspace.paths.out)).toEqual(free);
    await expect(stat(path.join(workspace.paths.out, 'api/manuscripts/index.json'))).resolves.toBeTruthy();
  });
});

describe("the editors' journal schema", () => {
  it('offers free and paid for cloudflare_pages_plan, and refuses any other plan as the build does', async () => {
    const schema = JSON.parse(await readFile(path.join(REPO_ROOT, 'content/schemas/journal.schema.json'), 'utf8')) as {
      properties: Record<string, { enum?: unknown[] }>;
    };
    expect(schema.properties['cloudflare_pages_plan']?.enum).toEqual(['free', 'paid']);
    const ajv = new Ajv2020({ allErrors: true });
    ajv.addFormat('uri', /^[a-z][a-z0-9+.-]*:[^\s]*$/i);
    const valid = ajv.compile(schema);
    const journal = parse(await journalText('hosts: [cloudflare-pages]\n')) as Record<string, unknown>;
    expect(valid(journal)).toBe(true);
    expect(valid({ ...journal, cloudflare_pages_plan: 'paid' })).toBe(true);
    expect(valid({ ...journal, cloudflare_pages_plan: 'free' })).toBe(true);
    expect(valid({ ...journal, cloudflare_pages_plan: 'pro' })).toBe(false);
  });
});
