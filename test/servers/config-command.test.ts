/**
 * The commands the hosting docs tell a user to run print what the server suite serves with, and
 * the build writes Apache's `.htaccess` with the same rules as the printed vhost.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderApacheRules } from '../../scripts/hosts/apache.ts';
import { hostRules } from '../../scripts/hosts/rules.ts';
import { createWorkspace, type Workspace } from '../helpers/workspace.ts';

let workspace: Workspace;
beforeAll(async () => {
  workspace = await createWorkspace();
});
afterAll(() => workspace.dispose());

describe('npm run config -- <server>', () => {
  it.each([
    ['nginx', 'root "/srv/journal/dist";'],
    ['apache', 'DocumentRoot "/srv/journal/dist"'],
    ['caddy', 'root * "/srv/journal/dist"'],
  ])('%s prints a config for the folder given with --root', async (host, line) => {
    const result = await workspace.cli('config', host, '--root', '/srv/journal/dist', '--port', '8081');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(line);
    expect(result.stdout).toContain('8081');
  });

  it("caddy with --server-name uses the name as the site address (Caddy's automatic HTTPS)", async () => {
    const result = await workspace.cli(
      'config',
      'caddy',
      '--root',
      '/srv/journal/dist',
      '--server-name',
      'journal.example.org',
    );
    expect(result.stdout).toMatch(/^journal\.example\.org \{$/m);
  });

  it('nginx answers /oai through its JavaScript module when the journal publishes OAI-PMH, and only then', async () => {
    const without = await workspace.cli('config', 'nginx', '--root', '/srv/journal/dist');
    expect(without.stdout).not.toContain('location = /oai {');
    expect(without.stdout).not.toContain('js_import');
    const journal = await readFile(path.join(workspace.paths.content, 'journal.yaml'), 'utf8');
    await workspace.write('journal.yaml', `${journal}oai:\n  admin_email: editor@journal.example.org\n`);
    try {
      const result = await workspace.cli('config', 'nginx', '--root', '/srv/journal/dist');
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(
        /^ {4}location = \/oai \{\n {8}js_import oai from "\/srv\/journal\/dist\/oai\/handler\.js";\n[\s\S]*?js_content oai\.nginx;\n {4}\}$/m,
      );
      // The module is loaded in nginx.conf's main context, which a server block cannot reach: the block says so.
      expect(result.stdout).toContain('load_module modules/ngx_http_js_module.so;');
      expect(result.stdout).toContain('if ($request_method !~ ^(GET|HEAD|POST)$) { return 405; }');
    } finally {
      await workspace.write('journal.yaml', journal);
    }
  });

  it.each([
    ['apache', '--root', '/srv/a"b'],
    ['nginx', '--root', '/srv/$journal'],
    ['caddy', '--root', '/srv/{journal}'],
    ['nginx', '--server-name', 'journal.example.org; root /'],
  ])('%s refuses %s %s with a clear message, no stack and no output', async (host, option, value) => {
    const args = option === '--root' ? ['--root', value] : ['--root', '/srv/journal/dist', option, value];
    const result = await workspace.cli('config', host, ...args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(JSON.stringify(value));
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('the .htaccess the build writes', () => {
  it('carries exactly the rules of the printed vhost, and its 405 page exists', async () => {
    const result = await workspace.build();
    expect(result.ok).toBe(true);
    const htaccess = await readFile(path.join(workspace.paths.out, '.htaccess'), 'utf8');
    expect(htaccess.split('\n').slice(1, -1)).toEqual(renderApacheRules(hostRules));
    const page = await readFile(path.join(workspace.paths.out, '405.html'), 'utf8');
    expect(page).toContain('Method not allowed');
  });
});
