/**
 * Cloudflare's own emulator, `wrangler pages dev`, serving the built site with the `_headers` and
 * `_redirects` the build wrote, and where the journal publishes OAI-PMH its `_worker.js` and
 * `_routes.json` (advanced mode: only `/oai` reaches the worker, which wrangler bundles first). wrangler is not a dependency (its workerd binary is about 200 MB):
 * `.ci/run` installs it globally, and a developer can do the same:
 *
 *   npm install -g --no-fund --no-audit wrangler@4.86.0
 *
 * (4.86.0 is the last release that runs on Node 20; see docs/hosting/cloudflare-pages.md.)
 */
import { execFileSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { findExecutable, freePort, startHttpServer } from './process.ts';
import type { ServerUnderTest } from './server.ts';

export const WRANGLER_VERSION = '4.86.0';
/** Pinned, and in the past: wrangler rejects today's date when its runtime is older than today. */
export const COMPATIBILITY_DATE = '2025-09-01';

export function wranglerServer(env: NodeJS.ProcessEnv): ServerUnderTest {
  const binary = findExecutable('wrangler', env['PATH'], ['/usr/local/bin', '/usr/bin']);
  return {
    host: 'wrangler',
    title: `Cloudflare Pages (wrangler ${WRANGLER_VERSION} pages dev) with the built _headers and _redirects`,
    unavailable: () => {
      if (!binary) return `wrangler is not installed (npm install -g wrangler@${WRANGLER_VERSION}; .ci/run does it)`;
      const version = installedVersion(binary, env);
      return version === WRANGLER_VERSION
        ? undefined
        : `wrangler ${version} is installed; the suite is pinned to ${WRANGLER_VERSION} (npm install -g wrangler@${WRANGLER_VERSION})`;
    },
    async start(site) {
      const port = await freePort();
      const inspectorPort = await freePort();
      const prefix = site.scratch('wrangler');
      await mkdir(prefix, { recursive: true });
      const args = [
        'pages',
        'dev',
        site.dist,
        '--ip',
        '127.0.0.1',
        '--port',
        String(port),
        '--inspector-port',
        String(inspectorPort),
        '--compatibility-date',
        COMPATIBILITY_DATE,
        '--persist-to',
        path.join(prefix, 'state'),
        '--show-interactive-dev-session=false',
        '--log-level',
        'warn',
      ];
      return startHttpServer(binary!, args, {
        cwd: prefix,
        env: {
          PATH: env['PATH'],
          HOME: prefix,
          XDG_CONFIG_HOME: path.join(prefix, 'config'),
          WRANGLER_SEND_METRICS: 'false',
          CI: '1',
          NO_COLOR: '1',
        },
        port,
        config: `wrangler ${args.join(' ')}`,
        readyTimeoutMs: 90_000,
        // TRAPS: wrangler ignores SIGTERM; its process group goes with SIGKILL.
        stopSignal: 'SIGKILL',
      });
    },
  };
}

function installedVersion(binary: string, env: NodeJS.ProcessEnv): string {
  try {
    return execFileSync(binary, ['--version'], {
      encoding: 'utf8',
      timeout: 30_000,
      env: { PATH: env['PATH'], WRANGLER_SEND_METRICS: 'false' },
    }).trim();
  } catch (error) {
    return `(unknown: ${(error as Error).message.split('\n')[0]})`;
  }
}
