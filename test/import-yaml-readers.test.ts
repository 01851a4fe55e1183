/**
 * The files an import writes are read alike by every YAML reader, not only by the build's: the
 * yaml package in YAML 1.2 and in YAML 1.1 mode, and PyYAML (a YAML 1.1 reader, where python3
 * has it). Each is asked for texts only (the failsafe schema, PyYAML's BaseLoader), as the build
 * reads them, so that the comparison is of the characters and not of a reader's types.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { toJson } from '../scripts/generator/render/json-text.ts';
import { parseFile } from '../scripts/generator/stages/parse.ts';
import { importJournal } from '../scripts/import/import.ts';
import { projectPaths } from '../scripts/project.ts';
import { generateDump } from './fixtures/import/generate-dump.ts';

const roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.splice(0).map((root) => rm(root, { recursive: true, force: true })));
});

const PYYAML = (() => {
  try {
    execFileSync('python3', ['-c', 'import yaml'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** Every `.yaml` file under the folder, relative to it, sorted. */
async function yamlFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true });
  return entries.filter((name) => name.endsWith('.yaml')).sort();
}

/** PyYAML's reading of each file, texts only (BaseLoader), in one python3 process. */
function readWithPyYaml(folder: string, files: readonly string[]): Record<string, unknown> {
  const script = [
    'import json, sys, yaml',
    'folder, names = sys.argv[1], json.load(sys.stdin)',
    'out = {}',
    'for name in names:',
    '    with open(folder + "/" + name, encoding="utf-8") as f:',
    '        try:',
    '            out[name] = yaml.load(f, Loader=yaml.BaseLoader)',
    '        except yaml.YAMLError as e:',
    '            out[name] = {"PyYAML refused the file": str(e)}',
    'sys.stdout.write(json.dumps(out))',
  ].join('\n');
  const output = execFileSync('python3', ['-c', script, folder], {
    input: JSON.stringify(files),
    maxBuffer: 1 << 28,
  });
  return JSON.parse(output.toString('utf8')) as Record<string, unknown>;
}

describe('imported YAML files read alike in every YAML reader', () => {
  it('tabs, NEL, U+2028, U+2029 and C1 controls are written as double-quoted escapes', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'journal-import-readers-'));
    roots.push(root);
    const paths = projectPaths(root);
    const dump = generateDump({ seed: 2, authors: 120, manuscripts: 300, collisions: 3 });
    // The generator puts tabs and U+2028 in abstracts; these put the others where plain texts go.
    const odd = [
      'tab\tin text',
      'nel\u0085here',
      'line\u2028sep',
      'para\u2029sep',
      'c1\u0090control',
      'tab\tand\nbreak',
    ];
    odd.forEach((text, i) => (dump.manuscripts[i]!.abstract = `Plain abstract with ${text}.`));
    await writeFile(path.join(root, 'dump.json'), toJson(dump));
    const result = await importJournal(paths, { source: 'dump.json' });
    if (!result.ok) throw new Error(JSON.stringify(result.problems.slice(0, 5)));

    const files = await yamlFiles(paths.content);
    const texts = new Map<string, string>();
    for (const name of files) texts.set(name, await readFile(path.join(paths.content, name), 'utf8'));
    const withTabs = files.filter((name) => /[\t\u0085\u2028\u2029]/.test(texts.get(name)!));
    // No raw tab, NEL or line separator is left in any file: each is an escape in double quotes.
    expect(withTabs).toEqual([]);
    const escaped = files.filter((name) => /"[^"\n]*\\(t|u0085|u2028|u2029)/.test(texts.get(name)!));
    expect(escaped.length).toBeGreaterThanOrEqual(odd.length);

    const build = Object.fromEntries(
      files.map((name) => [name, parseFile(`content/${name}`, Buffer.from(texts.get(name)!)).parsed?.data]),
    );
    for (const version of ['1.2', '1.1'] as const) {
      const read = Object.fromEntries(
        files.map((name) => [name, parse(texts.get(name)!, { version, schema: 'failsafe' }) as unknown]),
      );
      expect(read, `yaml package, YAML ${version}`).toEqual(build);
    }
    if (!PYYAML) {
      console.warn('python3 with PyYAML is not available here: the PyYAML reading of the files is not checked');
      return;
    }
    expect(readWithPyYaml(paths.content, files)).toEqual(build);
  }, 240_000);
});
