/**
 * The rule files that hosts read from the publish folder (`_headers`, `_redirects`, `.htaccess`),
 * from the table of path rules for the site's renderers (scripts/hosts/path-rules.ts). They depend
 * on no record.
 */
import type { OutputFile } from '../../shared/output-file.ts';
import { renderApacheFiles } from '../../hosts/apache.ts';
import { renderCloudflareFiles } from '../../hosts/cloudflare.ts';
import type { HostRules } from '../../hosts/path-rules.ts';

export function renderHostFiles(rules: HostRules): OutputFile[] {
  return [...renderCloudflareFiles(rules), ...renderApacheFiles(rules)];
}
