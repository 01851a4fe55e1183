/**
 * Refreshes the web editor's vendored copy of Decap CMS (vendor/decap-cms/): the prebuilt browser
 * bundle and its license notices, taken from the npm package's tarball, and ORIGIN.json, which
 * names the package, its version, the tarball and its integrity, and each file's SHA-256.
 *
 *   npx tsx scripts/admin/vendor-cms.ts 3.16.3
 *
 * The build only copies the bundle; as a dependency, `decap-cms` brought its whole build tree
 * (about 675 packages) into every `npm ci` (docs/web-editor.md, "Decap CMS's bundle"). npm checks
 * the tarball against the registry's integrity; the tests check the files against ORIGIN.json.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CMS_BUNDLE, CMS_BUNDLE_LICENSE } from './admin-page.ts';
import { CMS_ORIGIN, VENDORED_CMS, type CmsOrigin } from './vendored-cms.ts';

const PACKAGE = 'decap-cms';

function main(version: string | undefined): void {
  if (!version || !/^\d+\.\d+\.\d+$/.test(version)) {
    console.error('Usage: npx tsx scripts/admin/vendor-cms.ts <version>, e.g. 3.16.3 (an exact version)');
    process.exitCode = 2;
    return;
  }
  const folder = fileURLToPath(VENDORED_CMS);
  const work = mkdtempSync(path.join(tmpdir(), 'vendor-cms-'));
  try {
    // npm's own client: it verifies the tarball against the registry's integrity.
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', `${PACKAGE}@${version}`, '--json', '--pack-destination', work], {
        encoding: 'utf8',
      }),
    ) as { filename: string; integrity: string }[];
    if (!packed) throw new Error(`npm pack ${PACKAGE}@${version} gave no tarball`);
    const tarball = path.join(work, packed.filename);
    const names = [CMS_BUNDLE, CMS_BUNDLE_LICENSE];
    execFileSync('tar', ['-xzf', tarball, '-C', work, ...names.map((name) => `package/dist/${name}`)]);
    const files: Record<string, string> = {};
    for (const name of names) {
      const bytes = readFileSync(path.join(work, 'package', 'dist', name));
      writeFileSync(path.join(folder, name), bytes);
      files[name] = `sha256-${createHash('sha256').update(bytes).digest('base64')}`;
    }
    const origin: CmsOrigin = {
      package: PACKAGE,
      version,
      tarball: `https://registry.npmjs.org/${PACKAGE}/-/${PACKAGE}-${version}.tgz`,
      integrity: packed.integrity,
      files,
    };
    writeFileSync(path.join(folder, CMS_ORIGIN), `${JSON.stringify(origin, null, 2)}\n`);
    console.log(`vendor/decap-cms/: ${PACKAGE}@${version} (${names.join(', ')})`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main(process.argv[2]);
