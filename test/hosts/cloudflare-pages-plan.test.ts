/** `cloudflare_pages_plan` in content/journal.yaml: free or paid, offered to editors as such. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { formatProblem } from '../../scripts/generator/model/problems.ts';
import { createWorkspace, REPO_ROOT, VALID_JOURNAL, type Workspace } from '../helpers/workspace.ts';

const journalText = async (extra: string) =>
  `${await readFile(path.join(VALID_JOURNAL, 'journal.yaml'), 'utf8')}${extra}`;

describe('the build with cloudflare_pages_plan', () => {
  let workspace: Workspace | undefined;
  afterEach(async () => {
    await workspace?.dispose();
    workspace = undefined;
  });

  it('reports a plan it does not know at its line, with the plans it knows', async () => {
    const text = await journalText('hosts: [cloudflare-pages]\ncloudflare_pages_plan: pro\n');
    workspace = await createWorkspace({ 'journal.yaml': text });
    const result = await workspace.build('check');
    expect(result.ok).toBe(false);
    expect(result.problems.map(formatProblem)).toEqual([
      `content/journal.yaml:${text.split('\n').indexOf('cloudflare_pages_plan: pro') + 1}:24 cloudflare_pages_plan: is the string "pro" (free or paid: the Cloudflare plan the Pages project is on)`,
    ]);
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
