/**
 * The web editor's browser bundle (docs/web-editor.md): Decap CMS's prebuilt `decap-cms.js`, copied
 * out of node_modules into `admin/` when content/journal.yaml turns the editor on, so the page
 * loads nothing from another site. Its key is the package's version: a build after the first takes
 * the previous output's copy (OutputFile.key) instead of writing 5 MB again.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { OutputFile } from '../../shared/output-file.ts';
import { CMS_BUNDLE, CMS_BUNDLE_LICENSE } from '../../admin/admin-page.ts';
import type { Problem } from '../model/problems.ts';
import type { JournalInput } from '../model/schema.ts';

/** The package the bundle comes from: a dependency, resolved from this module like any import. */
const PACKAGE = 'decap-cms';

export async function readAdminBundle(
  journal: JournalInput,
  journalFile: string,
): Promise<{ outputs: OutputFile[]; problems: Problem[] }> {
  if (!journal.admin?.enabled) return { outputs: [], problems: [] };
  let folder: string;
  let version: string;
  try {
    const require = createRequire(import.meta.url);
    const manifest = require.resolve(`${PACKAGE}/package.json`);
    folder = path.join(path.dirname(manifest), 'dist');
    version = (JSON.parse(await readFile(manifest, 'utf8')) as { version: string }).version;
  } catch {
    return {
      outputs: [],
      problems: [
        {
          code: 'io/unreadable',
          file: journalFile,
          line: 0,
          column: 0,
          field: 'admin',
          message: `turns on the web editor, but its package ${PACKAGE} is not installed`,
          expected: 'the project installed with npm ci, or admin.enabled: false',
        },
      ],
    };
  }
  const outputs = await Promise.all(
    [CMS_BUNDLE, CMS_BUNDLE_LICENSE].map(async (name): Promise<OutputFile> => ({
      path: `admin/${name}`,
      body: await readFile(path.join(folder, name)),
      key: `${PACKAGE}@${version}/dist/${name}`,
    })),
  );
  return { outputs, problems: [] };
}
