/**
 * Server configurations printed on demand (`npm run config -- <host>`): they name private paths
 * and ports, so they are never written into the published folder.
 */
import { renderNginx, type NginxOptions } from './nginx.ts';
import { hostRules } from './rules.ts';

export type ServerOptions = NginxOptions;

export const HOST_CONFIGS: Record<string, (options: ServerOptions) => string> = {
  nginx: (options) => renderNginx(hostRules, options),
};

export function renderHostConfig(host: string, options: ServerOptions): string {
  const render = HOST_CONFIGS[host];
  if (!render) throw new Error(`no configuration for host ${host}`);
  return render(options);
}
