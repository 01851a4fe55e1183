/**
 * Caddy (Debian's 2.6.2) serving the built site with the site block `npm run config -- caddy`
 * prints. The global options in front only keep the test to itself: no admin endpoint (its fixed
 * port would collide), and Caddy's data and config folders inside the test's scratch folder.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { renderHostConfig } from '../../scripts/hosts/configs.ts';
import { findExecutable, freePort, startHttpServer } from './process.ts';
import type { ServerUnderTest } from './server.ts';

export function caddyServer(env: NodeJS.ProcessEnv): ServerUnderTest {
  const binary = findExecutable('caddy', env['PATH'], ['/usr/bin', '/usr/local/bin']);
  return {
    host: 'caddy',
    title: 'Caddy with `npm run config -- caddy`',
    unavailable: () => (binary ? undefined : 'caddy is not installed (Debian: apt-get install caddy)'),
    async start(site) {
      const port = await freePort();
      const prefix = site.scratch('caddy');
      await mkdir(prefix, { recursive: true });
      const siteBlock = renderHostConfig('caddy', { root: site.dist, port, serverName: '_' });
      const caddyfile = [
        '{',
        '\tadmin off',
        '\tauto_https off',
        '\tdefault_bind 127.0.0.1',
        `\tstorage file_system ${JSON.stringify(path.join(prefix, 'data'))}`,
        '}',
        '',
        siteBlock,
      ].join('\n');
      await writeFile(path.join(prefix, 'Caddyfile'), caddyfile);
      return startHttpServer(binary!, ['run', '--config', path.join(prefix, 'Caddyfile'), '--adapter', 'caddyfile'], {
        cwd: prefix,
        env: {
          PATH: env['PATH'],
          HOME: prefix,
          XDG_DATA_HOME: path.join(prefix, 'data'),
          XDG_CONFIG_HOME: path.join(prefix, 'config'),
        },
        port,
        config: caddyfile,
      });
    },
  };
}
