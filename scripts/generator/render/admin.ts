/**
 * The web editor's page and configuration under `admin/` (docs/web-editor.md), when
 * content/journal.yaml turns it on. They read the journal's settings only, which the build cache
 * is keyed by: they are written again when those or the code change. The CMS's bundle beside them
 * is copied by the build (stages/admin-bundle.ts).
 */
import type { OutputFile } from '../../shared/output-file.ts';
import { adminPage, configYaml } from '../../admin/admin-page.ts';
import { cmsConfig, productionBackend } from '../../admin/cms-config.ts';
import type { Site } from '../model/site.ts';

export function renderAdmin(site: Site): OutputFile[] {
  const { journal } = site;
  const backend = productionBackend(journal);
  if (!backend) return [];
  const config = () => cmsConfig(journal, backend);
  return [
    { path: 'admin/index.html', body: () => [adminPage(journal.title, config())] },
    { path: 'admin/config.yml', body: () => [configYaml(config())] },
  ];
}
