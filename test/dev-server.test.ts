/**
 * `npm run dev` as an editor uses it: the command runs on a copy of the sample journal, a real
 * headless Chromium keeps a manuscript's page open, and the content file is edited, broken and
 * fixed on disk; the page follows each save by itself. The JSON lists it serves are a build's,
 * byte for byte, with the preview's headers.
 */
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { CHROMIUM, haveChromium, launchChromium } from './helpers/chromium.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPreviewServer } from '../scripts/preview/server.ts';
import { createWorkspace, REPO_ROOT, type Workspace } from './helpers/workspace.ts';
import { NEW_MANUSCRIPT } from './helpers/records.ts';
import { send, type RawResponse } from './servers/http-client.ts';
import { startProcess, type ServerProcess } from './servers/process.ts';

declare const document: {
  title: string;
  querySelector(selector: string): { textContent: string | null; innerHTML: string } | null;
  querySelectorAll(selector: string): { length: number };
};

const skip = !haveChromium && !process.env['CI'];
if (skip) console.warn(`${CHROMIUM} is not installed (Debian chromium): the dev server browser test is skipped`);

const MANUSCRIPT = 'manuscripts/petrovska-2023-salamandra.yaml';
const TITLE = 'New records of Salamandra salamandra (Linnaeus, 1758) from Galičica Mountain, North Macedonia';

describe.skipIf(skip)('npm run dev', () => {
  let workspace: Workspace;
  let dev: ServerProcess;
  let origin: string;
  let browser: Browser;
  let page: Page;
  let original: string;

  beforeAll(async () => {
    workspace = await createWorkspace({}, path.join(REPO_ROOT, 'content'));
    original = await readFile(path.join(workspace.paths.content, MANUSCRIPT), 'utf8');
    dev = startProcess(process.execPath, [path.join(REPO_ROOT, 'scripts/cli.cjs'), 'dev', '--port', '0'], {
      cwd: workspace.root,
    });
    origin = await printed(dev, /Serving the site at (http:\/\/127\.0\.0\.1:\d+)\//);
    browser = await launchChromium();
    page = await browser.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await dev?.stop('SIGKILL');
    await workspace?.dispose();
  });

  const save = (text: string) => writeFile(path.join(workspace.paths.content, MANUSCRIPT), text);
  const rebuilds = () =>
    dev
      .output()
      .split('\n')
      .filter((line) => line.startsWith('Rebuilt')).length;
  /** Waits until no rebuild has come for a while: what was saved has been taken in. */
  const settled = async () => {
    for (let count = -1; count !== rebuilds();) {
      count = rebuilds();
      await new Promise((resolve) => setTimeout(resolve, 700));
    }
  };

  it('shows a saved change in the open page, without navigating', async () => {
    const response = await page.goto(`${origin}/manuscripts/1`, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);
    expect(await page.textContent('h1')).toBe(TITLE);

    await save(original.replace(TITLE, 'Salamanders of Galičica, revised'));
    await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Salamanders of Galičica, revised');
    expect(page.url()).toBe(`${origin}/manuscripts/1`);
  });

  it('shows the problems in the page, as text, and prints them once', async () => {
    const broken = original.replace(/^id: 1$/m, 'id: "<b>one</b>"');
    await save(broken);
    await page.waitForFunction(() => document.querySelector('#problems') !== null);
    const text = await page.textContent('#problems');
    expect(text).toContain('content/manuscripts/petrovska-2023-salamandra.yaml:1:5 id: is the string "<b>one</b>"');
    // Escaped: the value is text in the page, never markup.
    expect(await page.evaluate(() => document.querySelectorAll('#problems b').length)).toBe(0);

    // The same broken file saved again: no rebuild, and the terminal says it once.
    await settled();
    const before = rebuilds();
    await save(broken);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(rebuilds()).toBe(before);
    const line = 'content/manuscripts/petrovska-2023-salamandra.yaml:1:5 id: is the string "<b>one</b>"';
    expect(dev.output().split(line).length - 1).toBe(1);
  });

  it('brings the page back when the file is fixed, without a restart', async () => {
    await save(original);
    await page.waitForFunction((title) => document.querySelector('h1')?.textContent === title, TITLE);
    expect(page.url()).toBe(`${origin}/manuscripts/1`);
  });

  it('does not rebuild for a save of the same bytes', async () => {
    await settled();
    const events = await eventStream(`${origin}/__dev/events`);
    const before = rebuilds();
    await save(original);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(rebuilds()).toBe(before);
    expect(events.reloads()).toBe(0);
    events.close();
  });

  it('serves the PDF a page links to, from content/media/', async () => {
    const href = await page.getAttribute('a.pdf', 'href');
    expect(href).toBe('/media/pdfs/petrovska-2023-salamandra.pdf');
    const response = await send(origin, 'GET', href!);
    expect(response.status).toBe(200);
    expect(header(response, 'content-type')).toBe('application/pdf');
    expect(response.body.equals(await readFile(path.join(workspace.paths.content, 'media', href!.slice(7))))).toBe(
      true,
    );
  });

  it("serves the JSON lists byte for byte as a build writes them, with the preview's headers", async () => {
    // dev wrote no dist/; the build below writes the one to compare with.
    expect(existsSync(workspace.paths.out)).toBe(false);
    expect((await workspace.build()).problems).toEqual([]);
    const preview = createPreviewServer({ root: workspace.paths.out });
    const address = await preview.listen(0, '127.0.0.1');
    try {
      for (const target of ['/api/authors/', '/api/volumes/', '/api/manuscripts/?format=api', '/api/volumes']) {
        const [fromDev, fromPreview] = await Promise.all([
          send(origin, 'GET', target),
          send(`http://127.0.0.1:${address.port}`, 'GET', target),
        ]);
        expect(fromDev.status, target).toBe(fromPreview.status);
        expect(fromDev.body.equals(fromPreview.body), target).toBe(true);
        expect(contractHeaders(fromDev), target).toEqual(contractHeaders(fromPreview));
      }
      const built = await readFile(path.join(workspace.paths.out, 'api/manuscripts/index.json'));
      expect((await send(origin, 'GET', '/api/manuscripts/')).body.equals(built)).toBe(true);
      const post = await send(origin, 'POST', '/api/authors/');
      expect(post.status).toBe(405);
      expect(header(post, 'allow')).toBe('GET');
    } finally {
      await preview.close();
    }
  });

  it('stops cleanly on SIGTERM', async () => {
    dev.child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => dev.child.once('exit', (exit) => resolve(exit)));
    expect(code).toBe(0);
  });
});

/** Waits for the process to print a line matching `pattern`; its first group. */
async function printed(server: ServerProcess, pattern: RegExp): Promise<string> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const found = pattern.exec(server.output());
    if (found) return found[1]!;
    if (server.child.exitCode !== null) throw new Error(`dev exited:\n${server.output()}`);
    if (Date.now() > deadline) throw new Error(`dev printed no address:\n${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function header(response: RawResponse, name: string): string | undefined {
  return response.headers.find(([key]) => key === name)?.[1];
}

/** The headers a client of the API relies on; the date and the connection's are each server's own. */
function contractHeaders(response: RawResponse): [string, string][] {
  const own = new Set([
    'date',
    'connection',
    'keep-alive',
    'etag',
    'last-modified',
    'server',
    'transfer-encoding',
    'accept-ranges',
  ]);
  return response.headers.filter(([name]) => !own.has(name)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Counts the reload events of the dev server's stream, as an open page receives them. */
async function eventStream(url: string): Promise<{ reloads(): number; close(): void }> {
  let reloads = 0;
  let request!: http.ClientRequest;
  await new Promise<void>((resolve, reject) => {
    request = http.get(url, (response) => {
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (reloads += chunk.match(/^event: reload$/gm)?.length ?? 0));
      resolve();
    });
    request.on('error', reject);
  });
  return { reloads: () => reloads, close: () => request.destroy() };
}

describe('a busy port', () => {
  let workspace: Workspace;
  let blocker: http.Server;
  let busy: number;

  beforeAll(async () => {
    workspace = await createWorkspace();
    expect((await workspace.build()).problems).toEqual([]);
    blocker = http.createServer((_req, res) => res.end('another server'));
    busy = await new Promise<number>((resolve) =>
      blocker.listen(0, '127.0.0.1', () => resolve((blocker.address() as { port: number }).port)),
    );
  });
  afterAll(async () => {
    await new Promise((resolve) => blocker?.close(resolve));
    await workspace?.dispose();
  });

  /** Runs the command to its end (or fails the test after 60 s: it must never hang). */
  async function exitOf(args: string[], env: NodeJS.ProcessEnv = {}) {
    const server = startProcess(process.execPath, [path.join(REPO_ROOT, 'scripts/cli.cjs'), ...args], {
      cwd: workspace.root,
      env: { ...withoutPort(), NO_COLOR: '1', ...env },
    });
    const timer = setTimeout(() => void server.stop('SIGKILL'), 60_000);
    const [code] = (await once(server.child, 'exit')) as [number | null];
    clearTimeout(timer);
    return { code, output: server.output() };
  }

  it.each([
    ['dev --port', ['dev', '--port'], {}],
    ['dev with PORT', ['dev'], { PORT: 'busy' }],
    ['preview --port', ['preview', '--port'], {}],
    ['preview with PORT', ['preview'], { PORT: 'busy' }],
    ['admin --port', ['admin', '--port'], {}],
  ])('%s: a port asked for and in use is one sentence and exit code 1', async (_name, args, env) => {
    const asked = Object.keys(env).length ? args : [...args, String(busy)];
    const { code, output } = await exitOf(asked, Object.keys(env).length ? { PORT: String(busy) } : {});
    expect(code).toBe(1);
    expect(output.trim().split('\n').at(-1)).toBe(
      `Port ${busy} on 127.0.0.1 is in use by another program (another npm start or npm run dev?): stop it, or choose another port with --port.`,
    );
    expect(output).not.toMatch(/^\s+at /m);
  });

  it.each([
    ['dev', 8080, /Serving the site at http:\/\/127\.0\.0\.1:(\d+)\//],
    ['preview', 8080, /at http:\/\/127\.0\.0\.1:(\d+)\/ with the production headers/],
    ['admin', 8090, /Open the web editor at http:\/\/127\.0\.0\.1:(\d+)\/admin\//],
  ])(
    '%s: with no port asked for, a busy default moves to the next free port and says so',
    async (command, port, address) => {
      // The default is made busy here, unless another program already holds it.
      const holder = http.createServer();
      await new Promise<void>((resolve) => {
        holder.once('error', () => resolve());
        holder.listen(port, '127.0.0.1', () => resolve());
      });
      const server = startProcess(process.execPath, [path.join(REPO_ROOT, 'scripts/cli.cjs'), command], {
        cwd: workspace.root,
        env: { ...withoutPort(), NO_COLOR: '1' },
      });
      try {
        const taken = Number(await printed(server, address));
        expect(taken).not.toBe(port);
        expect(server.output()).toContain(
          `Port ${port} is in use (another server, such as npm start or npm run dev, is running), so this one uses ${taken}.`,
        );
        expect(
          (await send(`http://127.0.0.1:${taken}`, 'GET', command === 'admin' ? '/admin/' : '/api/volumes/')).status,
        ).toBe(200);
      } finally {
        await server.stop('SIGKILL');
        await new Promise((resolve) => holder.close(resolve));
      }
    },
  );
});

function withoutPort(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env['PORT'];
  delete env['HOST'];
  return env;
}

describe('warnings in the pages dev serves', () => {
  it('are shown in every page, apart from the problems, and stay beside them while there are problems', async () => {
    const workspace = await createWorkspace({
      'manuscripts/new.yaml': NEW_MANUSCRIPT.replace('citation_date: 2022-01-10', 'citation_date: 2019-01-10'),
    });
    const dev = startProcess(process.execPath, [path.join(REPO_ROOT, 'scripts/cli.cjs'), 'dev', '--port', '0'], {
      cwd: workspace.root,
    });
    try {
      const origin = await printed(dev, /Serving the site at (http:\/\/127\.0\.0\.1:\d+)\//);
      const warning =
        'content/manuscripts/new.yaml:4:16 citation_date: 2019-01-10 is more than a year from the date of Volume II, 2022-06-30';
      const page = (await send(origin, 'GET', '/manuscripts/40')).body.toString('utf8');
      expect(page).toMatch(/<h1[^>]*>A new record<\/h1>/);
      const warnings = /<section id="dev-warnings"[^>]*>([\s\S]*?)<\/section>/.exec(page)?.[1];
      expect(warnings).toContain('1 warning');
      expect(warnings).toContain(warning);

      // A problem elsewhere: the page of problems keeps the warning, in a section of its own.
      await workspace.write('authors/broken.yaml', 'name: [\n');
      for (let tries = 0; tries < 100; tries++) {
        if ((await send(origin, 'GET', '/manuscripts/40')).status === 500) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const problems = (await send(origin, 'GET', '/manuscripts/40')).body.toString('utf8');
      expect(/<pre id="problems">([\s\S]*?)<\/pre>/.exec(problems)?.[1]).toContain('content/authors/broken.yaml');
      expect(/<pre id="problems">([\s\S]*?)<\/pre>/.exec(problems)?.[1]).not.toContain('new.yaml');
      expect(/<section id="dev-warnings"[^>]*>([\s\S]*?)<\/section>/.exec(problems)?.[1]).toContain(warning);
    } finally {
      await dev.stop('SIGKILL');
      await workspace.dispose();
    }
  });
});
