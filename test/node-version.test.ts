/**
 * The command line refuses an older Node.js with one sentence that names both versions
 * (scripts/node-version.cjs), where an older Node used to fail deep inside a build.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { MINIMUM_NODE, unsupportedNode } from '../scripts/node-version.cjs';
import { REPO_ROOT } from './helpers/workspace.ts';

describe('the oldest Node.js the command line runs on', () => {
  it("is package.json's engines.node, and the README's", async () => {
    const manifest = JSON.parse(await readFile(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
      engines: { node: string };
    };
    expect(manifest.engines.node).toBe(`>=${MINIMUM_NODE.replace(/\.0$/, '')}`);
    const readme = await readFile(path.join(REPO_ROOT, 'README.md'), 'utf8');
    expect(readme).toContain(`Node.js ${MINIMUM_NODE.replace(/\.0$/, '')} or newer`);
  });

  it('refuses an older one, naming both versions', () => {
    for (const version of ['20.14.0', '20.12.2', '18.20.4', '16.0.0'])
      expect(unsupportedNode(version)).toBe(
        `This needs Node.js ${MINIMUM_NODE} or newer; this is Node.js ${version}. Install a newer Node.js (https://nodejs.org) and run the command again.`,
      );
  });

  it('runs on that one and on any newer one', () => {
    for (const version of [MINIMUM_NODE, '20.15.1', '20.20.2', '21.0.0', '22.1.0', '24.11.1'])
      expect(unsupportedNode(version)).toBeUndefined();
    expect(unsupportedNode(process.versions.node)).toBeUndefined();
  });

  it('is checked by the command line before anything else: an older Node gets the sentence and exit code 1', async () => {
    const cli = path.join(REPO_ROOT, 'scripts', 'cli.cjs');
    // The version an older Node would report, given before the command line starts.
    const script = `Object.defineProperty(process.versions, 'node', { value: '20.12.0' });
process.argv = [process.argv[0], ${JSON.stringify(cli)}, 'check'];
require(${JSON.stringify(cli)});`;
    const failed = await promisify(execFile)(process.execPath, ['-e', script]).then(
      () => undefined,
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stdout).toBe('');
    expect(failed?.stderr.trim()).toBe(unsupportedNode('20.12.0'));
  });
});
