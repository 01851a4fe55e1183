/**
 * `npm run admin` as an editor runs it: the real command line in a copy of the journal prints one
 * address; the page, its configuration (saving through the local backend) and the local backend
 * answer there; Ctrl+C (SIGINT) stops the command and the backend it started. A journal.yaml with a
 * mistake is reported like the build reports it, and nothing starts.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createWorkspace, REPO_ROOT, type Workspace } from './helpers/workspace.ts';

const workspaces: Workspace[] = [];
afterEach(async () => {
  await Promise.all(workspaces.splice(0).map((w) => w.dispose()));
});

function startAdmin(cwd: string) {
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'scripts/cli.cjs'), 'admin', '--port', '0'], {
    cwd,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  return { child, exited, output: () => ({ stdout, stderr }) };
}

describe('npm run admin', () => {
  it('prints the one address to open, serves the editor there, and stops with its backend on Ctrl+C', async () => {
    const workspace = await createWorkspace();
    workspaces.push(workspace);
    const admin = startAdmin(workspace.root);
    try {
      const deadline = Date.now() + 60_000;
      while (!/http:\/\/\S+\/admin\//.test(admin.output().stdout)) {
        if (admin.child.exitCode !== null || Date.now() > deadline)
          throw new Error(`no address printed:\n${JSON.stringify(admin.output())}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const urls = admin.output().stdout.match(/http:\/\/\S+/g)!;
      expect(urls).toHaveLength(1);
      const url = urls[0]!;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/admin\/$/);

      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await page.text()).toContain('<script src="decap-cms.js"></script>');
      expect((await fetch(new URL('decap-cms.js', url))).headers.get('content-type')).toMatch(/javascript/);

      const config = parse(await (await fetch(new URL('config.yml', url))).text()) as {
        backend: { name: string; proxy_url: string };
        collections: { folder: string }[];
      };
      expect(config.backend.name).toBe('proxy');
      expect(config.collections.map((c) => c.folder)).toEqual([
        'content/authors',
        'content/volumes',
        'content/manuscripts',
      ]);
      const info = await fetch(config.backend.proxy_url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ action: 'info' }),
      });
      expect(await info.json()).toMatchObject({ type: 'local_fs' });

      admin.child.kill('SIGINT');
      const [code] = await admin.exited;
      expect(code).toBe(0);
      // The backend went with it.
      await expect(fetch(config.backend.proxy_url, { method: 'POST' })).rejects.toThrow();
    } finally {
      if (admin.child.exitCode === null) admin.child.kill('SIGKILL');
    }
  });

  // journal.yml is read as the build reads it: the settings file is found the same way.
  it.each(['journal.yaml', 'journal.yml'])(
    'reports a mistake in %s as the build does, and starts nothing',
    async (name) => {
      const workspace = await createWorkspace({
        'journal.yaml': null,
        [name]:
          'title: T\nbase_url: https://j.example.org\nmedia_url: https://j.example.org\ncitation_issn: 1857 - 9639\ncitation_language: English\nadmin:\n  enabled: maybe\n',
      });
      workspaces.push(workspace);
      const admin = startAdmin(workspace.root);
      const [code] = await admin.exited;
      expect(code).toBe(1);
      expect(admin.output().stderr).toContain(
        `content/${name}:7:3 admin: enabled "maybe" is not valid (true or false)`,
      );
      expect(admin.output().stdout).not.toMatch(/http:/);
    },
  );
});
