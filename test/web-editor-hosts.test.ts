/**
 * The web editor as the servers serve it, each with the configuration the project generates
 * (test/servers/: nginx, Apache with and without .htaccess, Caddy, Cloudflare's emulator with the
 * build's rule files, and `npm run preview`): `/admin/` answers with the page as HTML, the bundle
 * as JavaScript and the configuration beside them, `/admin` moves to `/admin/`, and a headless
 * Chromium opened on the page gets the CMS's sign-in screen with nothing fetched from another site.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type Browser } from 'playwright-core';
import { haveChromium, launchChromium } from './helpers/chromium.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../scripts/generator/build.ts';
import { formatReport } from '../scripts/generator/model/problems.ts';
import { projectPaths } from '../scripts/project.ts';
import { REPO_ROOT } from './helpers/workspace.ts';
import { apacheServer } from './servers/apache.ts';
import { caddyServer } from './servers/caddy.ts';
import { send, values } from './servers/http-client.ts';
import { nginxServer } from './servers/nginx.ts';
import { previewServer } from './servers/preview.ts';
import { wranglerServer } from './servers/wrangler.ts';
import type { RunningServer, ServerUnderTest } from './servers/server.ts';
import { makeReadable, type BuiltSite } from './servers/site.ts';

const SERVERS: ServerUnderTest[] = [
  nginxServer(process.env),
  apacheServer(process.env, 'vhost'),
  apacheServer(process.env, 'htaccess'),
  caddyServer(process.env),
  wranglerServer(process.env),
  previewServer(),
];

/** The sample journal with the web editor turned on, built into a folder the servers' users can read. */
async function buildWithEditor(): Promise<BuiltSite> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'journal-admin-hosts-'));
  await cp(path.join(REPO_ROOT, 'content'), path.join(dir, 'content'), { recursive: true });
  await cp(path.join(REPO_ROOT, 'public'), path.join(dir, 'public'), { recursive: true });
  const journal = path.join(dir, 'content/journal.yaml');
  await writeFile(
    journal,
    `${await readFile(journal, 'utf8')}admin:\n  enabled: true\n  backend: github\n  repo: society/bulletin\n`,
  );
  const paths = projectPaths(dir);
  const result = await build(paths, 'build');
  if (!result.ok)
    throw new Error(`the sample journal with the editor does not build:\n${formatReport(result.problems)}`);
  await makeReadable(dir);
  return {
    dist: paths.out,
    scratch: (name) => path.join(dir, name),
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}

let site: BuiltSite;
let browser: Browser | undefined;

beforeAll(async () => {
  site = await buildWithEditor();
  if (haveChromium) browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await site?.dispose();
});

for (const server of SERVERS) {
  const missing = server.unavailable();
  // Under CI, which installs every server, a missing one fails (as in test/servers/).
  if (missing && !process.env['CI']) console.warn(`[${server.host}] web editor checks skipped: ${missing}`);

  describe.skipIf(missing !== undefined && !process.env['CI'])(`the web editor on ${server.title}`, () => {
    let running: RunningServer;
    beforeAll(async () => {
      if (missing) throw new Error(missing);
      running = await server.start(site);
    });
    afterAll(async () => {
      await running?.stop();
    });

    it('answers /admin/ with the page as HTML, the scripts as JavaScript, the configuration beside them', async () => {
      const page = await send(running.origin, 'GET', '/admin/');
      expect(page.status, running.describe()).toBe(200);
      expect(values(page, 'content-type')[0]).toMatch(/^text\/html/);
      expect(page.body.toString('utf8')).toBe(await readFile(path.join(site.dist, 'admin/index.html'), 'utf8'));

      const bundle = await send(running.origin, 'GET', '/admin/decap-cms.js');
      expect(bundle.status).toBe(200);
      expect(values(bundle, 'content-type')[0]).toMatch(/^(text|application)\/javascript/);
      expect(bundle.body.length).toBe((await readFile(path.join(site.dist, 'admin/decap-cms.js'))).length);
      // The editor's own script, which starts the CMS (docs/web-editor.md).
      const script = await send(running.origin, 'GET', '/admin/editor.js');
      expect(script.status).toBe(200);
      expect(values(script, 'content-type')[0]).toMatch(/^(text|application)\/javascript/);

      const config = await send(running.origin, 'GET', '/admin/config.yml');
      expect(config.status).toBe(200);
      expect(config.body.toString('utf8')).toContain('repo: society/bulletin');
    });

    it('moves /admin to /admin/', async () => {
      const moved = await send(running.origin, 'GET', '/admin');
      expect([301, 308]).toContain(moved.status);
      expect(new URL(values(moved, 'location')[0]!, running.origin).pathname).toBe('/admin/');
    });

    it.skipIf(!haveChromium && !process.env['CI'])(
      "shows the CMS's sign-in in a browser, fetching nothing from another site",
      async () => {
        const page = await browser!.newPage();
        const external: string[] = [];
        await page.route('**/*', (route) => {
          const url = new URL(route.request().url());
          if (url.hostname === '127.0.0.1') return route.continue();
          external.push(url.href);
          return route.abort('blockedbyclient');
        });
        try {
          await page.goto(`${running.origin}/admin/`);
          // The 1.6 MB editor bundle through an emulated host on a busy two-core machine: a minute, not twenty seconds.
          await page.getByRole('button', { name: 'Login with GitHub' }).waitFor({ timeout: 50_000 });
          expect(external).toEqual([]);
        } finally {
          await page.close();
        }
      },
    );
  });
}
