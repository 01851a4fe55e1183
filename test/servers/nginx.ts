/**
 * Debian nginx (nginx-light) serving the built site with the block `npm run config -- nginx`
 * prints, inside an nginx.conf with Debian's http settings (gzip on, its mime.types) that writes
 * nothing to /etc or /var. A site that publishes OAI-PMH (`oai/handler.js` built) gets the block's
 * `/oai` location, and the nginx.conf loads the JavaScript module it needs, as Debian's
 * /etc/nginx/modules-enabled/ does.
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { renderHostConfig } from '../../scripts/hosts/configs.ts';
import { findExecutable, freePort, startHttpServer } from './process.ts';
import type { ServerUnderTest } from './server.ts';

const DEBIAN_MIME_TYPES = '/etc/nginx/mime.types';
/** Debian's libnginx-mod-http-js (njs 0.7.9 on bookworm). */
export const NJS_MODULE = '/usr/lib/nginx/modules/ngx_http_js_module.so';

/** Why nginx cannot answer `/oai` here, or undefined when it can. */
export function njsUnavailable(): string | undefined {
  return existsSync(NJS_MODULE)
    ? undefined
    : "nginx's JavaScript module is not installed (Debian: apt-get install libnginx-mod-http-js)";
}

export function nginxServer(env: NodeJS.ProcessEnv): ServerUnderTest {
  const binary = findExecutable('nginx', env['PATH'], ['/usr/sbin', '/usr/local/sbin', '/sbin']);
  return {
    host: 'nginx',
    title: 'nginx with `npm run config -- nginx`',
    unavailable: () => (binary ? undefined : 'nginx is not installed (Debian: apt-get install nginx-light)'),
    async start(site) {
      const port = await freePort();
      const prefix = site.scratch('nginx');
      await mkdir(path.join(prefix, 'temp'), { recursive: true });
      // Without the module the block leaves /oai out, and the rest of the suite still runs.
      const oai = existsSync(path.join(site.dist, 'oai', 'handler.js')) && njsUnavailable() === undefined;
      const serverBlock = renderHostConfig('nginx', { root: site.dist, port, serverName: '_', oai }).replace(
        `listen ${port};`,
        `listen 127.0.0.1:${port};`,
      );
      const conf = [
        ...(oai ? [`load_module ${NJS_MODULE};`] : []),
        // As root, workers drop to www-data (TRAPS: they must read the folder; site.ts makes it readable).
        ...(os.userInfo().uid === 0 ? ['user www-data;'] : []),
        'worker_processes 1;',
        'daemon off;',
        `pid ${path.join(prefix, 'nginx.pid')};`,
        `error_log ${path.join(prefix, 'error.log')} warn;`,
        'events { worker_connections 64; }',
        'http {',
        '    access_log off;',
        // Debian's nginx.conf http settings, so the block is tested inside what a server has.
        ...(existsSync(DEBIAN_MIME_TYPES)
          ? [
              '    sendfile on;',
              '    tcp_nopush on;',
              '    types_hash_max_size 2048;',
              `    include ${DEBIAN_MIME_TYPES};`,
              '    default_type application/octet-stream;',
              '    gzip on;',
            ]
          : []),
        ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
          (kind) => `    ${kind}_temp_path ${path.join(prefix, 'temp', kind)};`,
        ),
        '    include server.conf;',
        '}',
        '',
      ].join('\n');
      await writeFile(path.join(prefix, 'server.conf'), serverBlock);
      await writeFile(path.join(prefix, 'nginx.conf'), conf);
      // SIGTERM is nginx's fast shutdown; the group takes the worker with it.
      return startHttpServer(
        binary!,
        ['-p', prefix, '-c', path.join(prefix, 'nginx.conf'), '-e', path.join(prefix, 'error.log')],
        { cwd: prefix, port, config: serverBlock },
      );
    },
  };
}
