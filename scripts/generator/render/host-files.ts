/**
 * The rule files that hosts read from the publish folder (`_headers`, `_redirects`, `.htaccess`),
 * from the one table of path rules (scripts/hosts/rules.ts). They depend on no record.
 */
import type { OutputFile } from '../../shared/output-file.ts';
import { renderApacheFiles } from '../../hosts/apache.ts';
import { renderCloudflareFiles } from '../../hosts/cloudflare.ts';
import { hostRules } from '../../hosts/rules.ts';

export function renderHostFiles(): OutputFile[] {
  return [...renderCloudflareFiles(hostRules), ...renderApacheFiles(hostRules)];
}
