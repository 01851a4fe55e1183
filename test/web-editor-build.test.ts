/**
 * The web editor in the built site: published under `admin/` only when journal.yaml turns it on,
 * with the configuration generated for this journal, the CMS bundle copied from the vendored copy
 * (never a CDN) and the editor's own script; the setting's mistakes reported like any other; the
 * same bytes cold and after an edit.
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { configYaml } from '../scripts/admin/admin-page.ts';
import { cmsConfig, productionBackend } from '../scripts/admin/cms-config.ts';
import { editorScript } from '../scripts/admin/editor-script.ts';
import { vendoredCmsFile } from '../scripts/admin/vendored-cms.ts';
import { build } from '../scripts/generator/build.ts';
import { journalSchema } from '../scripts/generator/model/schema.ts';
import { createWorkspace, type Workspace } from './helpers/workspace.ts';

const JOURNAL_YAML = `title: Bulletin of the Test Society
base_url: https://journal.example.org
media_url: https://media.example.org
citation_issn: 1857 - 9639
citation_language: English
sections:
  - Zoology
  - Botany
`;

const ENABLED = `${JOURNAL_YAML}admin:
  enabled: true
  backend: github
  repo: test-society/bulletin
`;

const BUNDLE = vendoredCmsFile('decap-cms.js');

const workspaces: Workspace[] = [];
async function journalWith(journalYaml: string): Promise<Workspace> {
  const workspace = await createWorkspace({ 'journal.yaml': journalYaml });
  workspaces.push(workspace);
  return workspace;
}
afterEach(async () => {
  await Promise.all(workspaces.splice(0).map((w) => w.dispose()));
});

const inOutput = (workspace: Workspace, file: string) => path.join(workspace.paths.out, file);
/** A file's digest: comparing 5 MB byte by byte with the test library's deep equality takes a minute. */
const digest = async (file: string) =>
  createHash('sha256')
    .update(await readFile(file))
    .digest('hex');

describe('the web editor in the built site', () => {
  it('is published under admin/ when journal.yaml turns it on: page, configuration, bundle', async () => {
    const workspace = await journalWith(ENABLED);
    const result = await workspace.build();
    expect(result.problems).toEqual([]);

    const journal = journalSchema.parse(parse(ENABLED));
    const config = await readFile(inOutput(workspace, 'admin/config.yml'), 'utf8');
    expect(config).toBe(configYaml(cmsConfig(journal, productionBackend(journal)!)));
    expect(parse(config).backend).toEqual({ name: 'github', repo: 'test-society/bulletin', branch: 'main' });

    const page = await readFile(inOutput(workspace, 'admin/index.html'), 'utf8');
    expect(page).toContain('<script src="decap-cms.js"></script>\n<script src="editor.js"></script>');
    // Nothing is loaded from another site.
    expect(page).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(await digest(inOutput(workspace, 'admin/decap-cms.js'))).toBe(await digest(BUNDLE));
    expect(await readFile(inOutput(workspace, 'admin/decap-cms.js.LICENSE.txt'), 'utf8')).toMatch(/license/i);
    expect(await readFile(inOutput(workspace, 'admin/editor.js'), 'utf8')).toBe((await editorScript()).text);
  });

  it('is not published when the setting is absent or off', async () => {
    for (const journalYaml of [JOURNAL_YAML, `${JOURNAL_YAML}admin:\n  enabled: false\n`]) {
      const workspace = await journalWith(journalYaml);
      expect((await workspace.build()).problems).toEqual([]);
      await expect(stat(inOutput(workspace, 'admin'))).rejects.toThrow(/ENOENT/);
    }
  });

  it("reports the setting's mistakes at the setting, in the editor's words, and writes nothing", async () => {
    const cases = [
      [`admin:\n  enabled: yes\n`, 'schema/format', /enabled "yes" is not valid \(true or false\)/],
      [`admin:\n  enabled: true\n  backend: github\n`, 'schema/missing', /repo is missing/],
      [`admin:\n  enabled: true\n  backend: svn\n  repo: a/b\n`, 'schema/format', /backend "svn" is not known/],
      [`admin:\n  enabled: true\n  backend: github\n  repos: a/b\n`, 'schema/unknown-field', /unknown setting "repos"/],
      [`admin:\n  enabled: true\n  backend: github\n  repo: not a repo\n`, 'schema/format', /owner\/name/],
      [`admin: true\n`, 'schema/type', /a mapping of web editor settings/],
    ] as const;
    for (const [setting, code, words] of cases) {
      const workspace = await journalWith(JOURNAL_YAML + setting);
      const result = await workspace.build();
      expect(result.ok, setting).toBe(false);
      expect(result.problems, setting).toHaveLength(1);
      const [problem] = result.problems;
      expect(problem, setting).toMatchObject({ code, file: 'content/journal.yaml', field: 'admin' });
      // At the setting: its value's line (the line of `admin:` when the value is written on it).
      expect(problem!.line, setting).toBe(setting.startsWith('admin: true') ? 9 : 10);
      expect(`${problem!.message} (${problem!.expected})`, setting).toMatch(words);
      await expect(stat(workspace.paths.out), setting).rejects.toThrow(/ENOENT/);
    }
  });

  it('writes the same bytes from a cold build as from a build after an edit', async () => {
    const workspace = await journalWith(ENABLED);
    expect((await workspace.build()).problems).toEqual([]);
    await workspace.write('authors/ana-petrovska.yaml', 'name: Ana\nsurname: Petrovska\ninstitution: Skopje.\n');
    expect((await workspace.build()).problems).toEqual([]);

    const cold = await journalWith(ENABLED);
    await cold.write('authors/ana-petrovska.yaml', 'name: Ana\nsurname: Petrovska\ninstitution: Skopje.\n');
    expect((await build(cold.paths, 'build', { cache: false })).problems).toEqual([]);
    for (const file of ['admin/index.html', 'admin/config.yml', 'admin/decap-cms.js', 'admin/editor.js'])
      expect(await digest(inOutput(cold, file)), file).toBe(await digest(inOutput(workspace, file)));
  });
});
