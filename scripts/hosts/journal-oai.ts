/**
 * Whether the journal publishes an OAI-PMH repository (`oai` in its settings file, docs/oai-pmh.md),
 * for the server blocks printed on demand: the build writes the handler they load only then, and
 * nginx refuses to start on a `js_import` of a file that is not there.
 */
import { readFile } from 'node:fs/promises';
import { discoverJournal } from '../generator/stages/discover.ts';
import { yamlPackage } from '../shared/yaml-package.ts';

/** True when the settings file has an `oai` block; a missing or unreadable file says no. */
export async function journalPublishesOai(projectRoot: string, contentDir: string): Promise<boolean> {
  const { journalFile } = await discoverJournal(projectRoot, contentDir);
  if (!journalFile) return false;
  try {
    // The yaml package reads JSON as well: journal.json is YAML too.
    const settings: unknown = yamlPackage().parse(await readFile(journalFile.absolutePath, 'utf8'));
    return typeof settings === 'object' && settings !== null && 'oai' in settings && settings.oai != null;
  } catch {
    return false;
  }
}
