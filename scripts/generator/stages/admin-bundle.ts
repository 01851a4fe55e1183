/**
 * The web editor's browser files (docs/web-editor.md), written into `admin/` when
 * content/journal.yaml turns the editor on, so the page loads nothing from another site: Decap
 * CMS's prebuilt `decap-cms.js` and its license notices, copied from the project's vendored copy
 * (vendor/decap-cms/), and the editor's own script (admin/editor-script.ts). Each has a key: a
 * build after the first takes the previous output's copy (OutputFile.key) instead of writing 5 MB
 * again, and bundles the script only when its sources changed.
 */
import { readFile } from 'node:fs/promises';
import type { OutputFile } from '../../shared/output-file.ts';
import { CMS_BUNDLE, CMS_BUNDLE_LICENSE } from '../../admin/admin-page.ts';
import { EDITOR_SCRIPT, editorScriptKey, editorScriptSync } from '../../admin/editor-script.ts';
import { readCmsOrigin, vendoredCmsFile } from '../../admin/vendored-cms.ts';
import type { Problem } from '../model/problems.ts';
import type { JournalInput } from '../model/schema.ts';

export async function readAdminBundle(
  journal: JournalInput,
  journalFile: string,
): Promise<{ outputs: OutputFile[]; problems: Problem[] }> {
  if (!journal.admin?.enabled) return { outputs: [], problems: [] };
  try {
    const origin = await readCmsOrigin();
    const copies = await Promise.all(
      [CMS_BUNDLE, CMS_BUNDLE_LICENSE].map(async (name): Promise<OutputFile> => ({
        path: `admin/${name}`,
        body: await readFile(vendoredCmsFile(name)),
        key: `${origin.package}@${origin.version}/dist/${name}`,
      })),
    );
    const script: OutputFile = {
      path: `admin/${EDITOR_SCRIPT}`,
      body: () => [editorScriptSync()],
      key: editorScriptKey(),
    };
    return { outputs: [...copies, script], problems: [] };
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
          message: 'turns on the web editor, but its files in vendor/decap-cms/ cannot be read',
          expected: 'a complete checkout of the project, or admin.enabled: false',
        },
      ],
    };
  }
}
