/**
 * What a command pays for at its start. `check` after an edit is a fraction of a second at the
 * size of most journals, and most of that is the command's start: a package loaded for nothing is
 * a visible part of it (docs/performance.md, "The command line's start").
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fg from 'fast-glob';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countText } from '../scripts/shared/count-text.ts';
import { createWorkspace, REPO_ROOT, runCli, type Workspace } from './helpers/workspace.ts';

/** Prints, as the process exits, how many of the yaml package's modules it loaded. */
const YAML_MODULES_REPORT = `process.on('exit', () => {
  const loaded = Object.keys(require.cache).filter((file) => /[\\\\/]node_modules[\\\\/]yaml[\\\\/]/.test(file));
  process.stderr.write('yaml modules loaded: ' + loaded.length + '\\n');
});
`;

/** A record as plain YAML: block mappings and sequences of double-quoted scalars (JSON's own quoting). */
function plainYaml(record: object): string {
  return Object.entries(record)
    .map(([key, value]) =>
      Array.isArray(value)
        ? `${key}:\n${value.map((item) => `  - ${JSON.stringify(String(item))}`).join('\n')}\n`
        : `${key}: ${JSON.stringify(String(value))}\n`,
    )
    .join('');
}

describe("a command's start", () => {
  let workspace: Workspace;
  let report: string;
  beforeAll(async () => {
    // The sample journal shows JSON records too, which the yaml package reads: here they are YAML.
    workspace = await createWorkspace({}, path.join(REPO_ROOT, 'content'));
    for (const file of await fg('{authors,manuscripts}/*.json', { cwd: workspace.paths.content })) {
      const record = JSON.parse(await readFile(path.join(workspace.paths.content, file), 'utf8')) as object;
      await workspace.remove(file);
      await workspace.write(file.replace(/\.json$/, '.yaml'), plainYaml(record));
    }
    report = path.join(await mkdtemp(path.join(os.tmpdir(), 'journal-preload-')), 'report.cjs');
    await writeFile(report, YAML_MODULES_REPORT);
  });
  afterAll(async () => {
    await workspace.dispose();
    await rm(path.dirname(report), { recursive: true, force: true });
  });
  const yamlModulesOf = (stderr: string) => Number(/yaml modules loaded: (\d+)/.exec(stderr)?.[1]);
  const check = () => workspace.cli('check', '--no-cache');
  const withReport = () => ({ NODE_OPTIONS: `--require ${report}` });

  it('checks plain YAML records without loading the yaml package', async () => {
    const result = await runCli(workspace.root, ['check', '--no-cache'], { env: withReport() });
    expect(result.code, result.stderr).toBe(0);
    expect(yamlModulesOf(result.stderr)).toBe(0);
  });

  it('loads it for a record that is not plain YAML, and reads that record as before', async () => {
    // An anchor and its alias: YAML the plain reader leaves to the package.
    await workspace.write(
      'authors/anchored.yaml',
      'name: &name Ana\nsurname: *name\ninstitution: Institute of Biology\n',
    );
    const result = await runCli(workspace.root, ['check', '--no-cache'], { env: withReport() });
    expect(yamlModulesOf(result.stderr)).toBeGreaterThan(0);
    expect(result.code, result.stderr).toBe(0);
    await workspace.remove('authors/anchored.yaml');
    expect((await check()).code).toBe(0);
  });

  it('writes counts as en-US does', () => {
    for (const n of [0, 7, 999, 1_000, 12_345, 999_999, 1_000_000, 250_100, 750_318, 123_456_789, -4_200])
      expect(countText(n)).toBe(n.toLocaleString('en-US'));
  });
});
