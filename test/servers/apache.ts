/**
 * Debian Apache httpd 2.4 (apache2) serving the built site, in the two ways a journal can deploy
 * it: the `<VirtualHost>` printed by `npm run config -- apache`, or a plain vhost that lets the
 * `.htaccess` the build wrote into the folder apply (`AllowOverride All`). The main config around
 * it runs without writing to /etc or /var, with the modules a Debian server has (see `modules`).
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { renderHostConfig } from '../../scripts/hosts/configs.ts';
import { findExecutable, freePort, startHttpServer } from './process.ts';
import type { ServerUnderTest } from './server.ts';

/** Debian's layout (apache2-bin); other layouts are reported as missing rather than guessed. */
const MODULES = '/usr/lib/apache2/modules';
const NEEDED = ['mpm_event', 'authz_core', 'mime', 'dir', 'rewrite', 'headers'];
/** The modules a Debian install enables, with their settings (mod_deflate, mod_negotiation...). */
const DEBIAN_ENABLED = '/etc/apache2/mods-enabled';

/**
 * The modules as a journal's server has them: Debian's enabled set plus what the docs ask for
 * (`a2enmod rewrite headers`), so the defaults that could interfere (deflate, negotiation,
 * autoindex) are on. Without Debian's folder, only the modules the rules need.
 */
function modules(): string[] {
  if (!existsSync(DEBIAN_ENABLED)) return NEEDED.map((name) => `LoadModule ${name}_module ${MODULES}/mod_${name}.so`);
  const enabled = readdirSync(DEBIAN_ENABLED);
  return [
    `Include ${DEBIAN_ENABLED}/*.load`,
    ...['rewrite', 'headers']
      .filter((name) => !enabled.includes(`${name}.load`))
      .map((name) => `LoadModule ${name}_module ${MODULES}/mod_${name}.so`),
    `Include ${DEBIAN_ENABLED}/*.conf`,
  ];
}

export function apacheServer(env: NodeJS.ProcessEnv, mode: 'vhost' | 'htaccess'): ServerUnderTest {
  const binary = findExecutable('apache2', env['PATH'], ['/usr/sbin', '/usr/local/sbin', '/sbin']);
  const modulesPresent = NEEDED.every((name) => existsSync(path.join(MODULES, `mod_${name}.so`)));
  return {
    host: mode === 'vhost' ? 'apache' : 'apache-htaccess',
    title:
      mode === 'vhost'
        ? 'Apache httpd with `npm run config -- apache`'
        : 'Apache httpd with the .htaccess the build writes',
    unavailable: () =>
      !binary
        ? 'apache2 is not installed (Debian: apt-get install apache2)'
        : !modulesPresent
          ? `Apache modules missing from ${MODULES} (Debian: apache2-bin)`
          : undefined,
    async start(site) {
      const port = await freePort();
      const prefix = site.scratch(`apache-${mode}`);
      await mkdir(prefix, { recursive: true });
      const root = JSON.stringify(site.dist);
      const vhost =
        mode === 'vhost'
          ? renderHostConfig('apache', { root: site.dist, port, serverName: '_' })
          : [
              // What docs/hosting/apache.md asks of a host that only gives you the folder.
              `<VirtualHost *:${port}>`,
              `    DocumentRoot ${root}`,
              `    <Directory ${root}>`,
              '        Require all granted',
              '        AllowOverride All',
              '    </Directory>',
              '</VirtualHost>',
              '',
            ].join('\n');
      const conf = [
        ...modules(),
        `ServerRoot ${JSON.stringify(prefix)}`,
        `DefaultRuntimeDir ${JSON.stringify(prefix)}`,
        `PidFile ${JSON.stringify(path.join(prefix, 'httpd.pid'))}`,
        `ErrorLog ${JSON.stringify(path.join(prefix, 'error.log'))}`,
        'LogLevel warn',
        `Listen 127.0.0.1:${port}`,
        'ServerName 127.0.0.1',
        // Apache refuses to serve as root; as root it drops to Debian's www-data.
        ...(os.userInfo().uid === 0 ? ['User www-data', 'Group www-data'] : []),
        'StartServers 1',
        '<Directory />',
        '    AllowOverride None',
        '    Require all denied',
        '</Directory>',
        'Include vhost.conf',
        '',
      ].join('\n');
      await writeFile(path.join(prefix, 'vhost.conf'), vhost);
      await writeFile(path.join(prefix, 'httpd.conf'), conf);
      return startHttpServer(binary!, ['-f', path.join(prefix, 'httpd.conf'), '-D', 'FOREGROUND'], {
        cwd: prefix,
        port,
        config: vhost,
      });
    },
  };
}
