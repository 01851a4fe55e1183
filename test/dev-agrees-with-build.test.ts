/**
 * `npm run dev` and `build` run one pipeline (generator/pipeline.ts): what a build warns of, refuses
 * and writes, dev shows, refuses and serves, for the journal's settings and the files beside the
 * renderers' (the web editor's, the OAI-PMH handler's, public/) as for the records.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { build, type BuildResult } from '../scripts/generator/build.ts';
import { openLiveBuild, type LiveBuild } from '../scripts/generator/live-build.ts';
import type { Problem } from '../scripts/generator/model/problems.ts';
import { createWorkspace, type Workspace } from './helpers/workspace.ts';

let workspace: Workspace;
let live: LiveBuild;
beforeEach(async () => {
  workspace = await createWorkspace();
  live = await openLiveBuild(workspace.paths);
});
afterEach(async () => {
  await workspace.dispose();
});

const JOURNAL = 'journal.yaml';

/** Adds `more` to content/journal.yaml (or changes it), and hands the file to dev as its watcher would. */
async function editJournal(change: (text: string) => string): Promise<void> {
  const file = path.join(workspace.paths.content, JOURNAL);
  await workspace.write(JOURNAL, change(await readFile(file, 'utf8')));
  expect(await live.update([file])).toBe(true);
}

const coldBuild = () => build(workspace.paths, 'build', { cache: false, threads: 0 });
const where = (p: Problem) => `${p.code} ${p.file} ${p.field}`;

/** Every file the cold build wrote (its precompressed twins and search index aside) is served with its bytes. */
async function expectServedAsBuilt(result: BuildResult): Promise<void> {
  expect(result.problems).toEqual([]);
  const site = live.site;
  if (!site.ok) throw new Error(`dev has problems a build has not: ${JSON.stringify(site.problems)}`);
  const files = (await readdir(workspace.paths.out, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile() && !/\.(gz|br)$/.test(entry.name))
    .map((entry) =>
      path.relative(workspace.paths.out, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'),
    )
    .filter((file) => !file.startsWith('pagefind/'));
  const unlike: string[] = [];
  for (const file of files) {
    const media = site.files.mediaSource(file);
    const served = media ? await readFile(media) : site.files.bytes(file);
    if (!served || !Buffer.from(served).equals(await readFile(path.join(workspace.paths.out, file)))) unlike.push(file);
  }
  expect(unlike, 'files dev serves unlike the build').toEqual([]);
}

it("warns of the journal's settings as a build does: the sample journal's example address", async () => {
  await editJournal((text) => text.replace(/^base_url: .*$/m, 'base_url: https://bulletin.example.org'));
  const result = await coldBuild();
  expect(result.contentWarnings?.map(where)).toEqual(['warn/example-domain content/journal.yaml base_url']);
  const site = live.site;
  expect(site.ok).toBe(true);
  expect(site.warnings.map(where)).toEqual(result.contentWarnings?.map(where));
});

it("serves the web editor's files and the OAI-PMH handler's copies a build writes", async () => {
  await editJournal(
    (text) =>
      `${text}admin:\n  enabled: true\n  backend: github\n  repo: test-society/bulletin\n` +
      'oai:\n  admin_email: editor@journal.example.org\n',
  );
  const result = await coldBuild();
  const site = live.site;
  if (!site.ok) throw new Error(`dev has problems: ${JSON.stringify(site.problems)}`);
  for (const file of ['admin/decap-cms.js', 'admin/editor.js', 'oai/handler.js', '_worker.js', '_routes.json'])
    expect(site.files.has(file), file).toBe(true);
  await expectServedAsBuilt(result);
});

it("refuses a file of public/ at the OAI-PMH handler's path, as a build refuses it", async () => {
  await mkdir(workspace.paths.public, { recursive: true });
  await writeFile(path.join(workspace.paths.public, '_routes.json'), '{"version":1}\n');
  await editJournal((text) => `${text}oai:\n  admin_email: editor@journal.example.org\n`);
  const result = await coldBuild();
  expect(result.ok).toBe(false);
  expect(result.problems.map(where)).toEqual(['output/conflict the OAI-PMH handler ']);
  const site = live.site;
  expect(site.ok).toBe(false);
  if (!site.ok) expect(site.problems.map(where)).toEqual(result.problems.map(where));
});

it('forgets a file that is not a content file once it is gone, as a build no longer finds it', async () => {
  // An editor's temporary file (sed -i, vim's 4913), seen in a save of its own and removed in the next.
  const stray = path.join(workspace.paths.content, 'manuscripts', 'sedX1a2b3');
  await writeFile(stray, 'id: 1\n');
  expect(await live.update([stray])).toBe(true);
  expect(live.site.ok).toBe(false);
  await workspace.remove('manuscripts/sedX1a2b3');
  expect(await live.update([stray])).toBe(true);
  const result = await coldBuild();
  const site = live.site;
  if (!site.ok) throw new Error(`dev has problems a build has not: ${JSON.stringify(site.problems)}`);
  await expectServedAsBuilt(result);
});
