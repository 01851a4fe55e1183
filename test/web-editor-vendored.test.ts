/**
 * The web editor's files that are not built from the content: Decap CMS's bundle, vendored from
 * its npm tarball (vendor/decap-cms/, checked against ORIGIN.json and no longer a dependency), and
 * the editor's own script, whose key must name every source esbuild bundles into it.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CMS_BUNDLE, CMS_BUNDLE_LICENSE } from '../scripts/admin/admin-page.ts';
import { EDITOR_SCRIPT_SOURCES, editorScript } from '../scripts/admin/editor-script.ts';
import { readCmsOrigin, vendoredCmsFile } from '../scripts/admin/vendored-cms.ts';
import { REPO_ROOT } from './helpers/workspace.ts';

describe("Decap CMS's vendored bundle", () => {
  it('is the pinned release, byte for byte as ORIGIN.json records it', async () => {
    const origin = await readCmsOrigin();
    expect(origin.package).toBe('decap-cms');
    expect(origin.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(origin.tarball).toBe(`https://registry.npmjs.org/decap-cms/-/decap-cms-${origin.version}.tgz`);
    expect(origin.integrity).toMatch(/^sha512-/);
    expect(Object.keys(origin.files).sort()).toEqual([CMS_BUNDLE, CMS_BUNDLE_LICENSE].sort());
    for (const [name, sha] of Object.entries(origin.files)) {
      const digest = createHash('sha256')
        .update(await readFile(vendoredCmsFile(name)))
        .digest('base64');
      expect(`sha256-${digest}`, name).toBe(sha);
    }
  });

  it('is not installed as a dependency: npm ci brings no build tree for a file the build copies', async () => {
    const manifest = JSON.parse(await readFile(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    expect(Object.keys({ ...manifest.dependencies, ...manifest.devDependencies })).not.toContain('decap-cms');
    const lock = JSON.parse(await readFile(path.join(REPO_ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, unknown>;
    };
    expect(Object.keys(lock.packages).filter((key) => /node_modules\/decap-cms(-|$)/.test(key))).toEqual([]);
  });
});

describe("the editor's own script", () => {
  it('is keyed by every file it is bundled from, so that a build never keeps a stale copy', async () => {
    const { text, inputs } = await editorScript();
    expect(text.length).toBeGreaterThan(1000);
    const ours = inputs
      .filter((input) => !input.includes('node_modules'))
      .map((input) => path.resolve(input))
      .sort();
    const keyed = EDITOR_SCRIPT_SOURCES.map((source) => fileURLToPath(source));
    expect(keyed.filter((file) => !file.includes('node_modules')).sort()).toEqual(ours);
    // The bundled packages' versions are in the key too.
    const packages = new Set(
      inputs
        .filter((input) => input.includes('node_modules'))
        .map((input) => input.split('node_modules/')[1]!.split('/')[0]),
    );
    for (const name of packages)
      expect(keyed, name).toContain(path.join(REPO_ROOT, 'node_modules', name!, 'package.json'));
  });
});
