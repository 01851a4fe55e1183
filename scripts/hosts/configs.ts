/**
 * Server configurations printed on demand (`npm run config -- <host>`): they name private paths
 * and ports, so they are never written into the published folder.
 */
import { renderApacheVhost } from './apache.ts';
import { renderCaddy } from './caddy.ts';
import { renderNginx, type NginxOptions } from './nginx.ts';
import { hostRules } from './rules.ts';
import { renderAzureConfig } from './azure.ts';
import { renderCloudfrontFunction } from './cloudfront-function.ts';
import { renderFirebaseConfig } from './firebase.ts';
import { renderGitlabPagesJob } from './gitlab-pages.ts';
import { renderNetlifyToml } from './netlify.ts';
import { renderS3DeployScript } from './s3-deploy.ts';
import { renderVercelConfig } from './vercel.ts';

export type ServerOptions = NginxOptions;

export const HOST_CONFIGS: Record<string, (options: ServerOptions) => string> = {
  nginx: (options) => renderNginx(hostRules, options),
  apache: (options) => renderApacheVhost(hostRules, options),
  caddy: (options) => renderCaddy(hostRules, options),
};

export function renderHostConfig(host: string, options: ServerOptions): string {
  const render = HOST_CONFIGS[host];
  if (!render) throw new Error(`no configuration for host ${host}`);
  return render(options);
}

/**
 * Platform configurations: files a hosting platform reads, printed on demand so that
 * `dist/` stays the same for every host. They name no server path, so they need no `--root`;
 * docs/hosting/<host>.md says where each one goes.
 */
export const PLATFORM_CONFIGS: Record<string, { file: string; render: () => string }> = {
  netlify: { file: 'netlify.toml', render: () => renderNetlifyToml() },
  vercel: { file: 'dist/vercel.json', render: () => renderVercelConfig(hostRules) },
  firebase: { file: 'firebase.json', render: () => renderFirebaseConfig(hostRules) },
  'azure-static-web-apps': { file: 'dist/staticwebapp.config.json', render: () => renderAzureConfig(hostRules) },
  s3: { file: 'deploy-s3.sh', render: () => renderS3DeployScript(hostRules) },
  'cloudfront-function': { file: 'cloudfront-function.js', render: () => renderCloudfrontFunction(hostRules) },
  'gitlab-pages': { file: '.gitlab-ci.yml', render: () => renderGitlabPagesJob() },
};
