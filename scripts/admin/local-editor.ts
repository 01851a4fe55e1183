/**
 * `npm run admin`: the web editor on the editor's own machine, saving into this checkout. It starts
 * Decap CMS's local backend (decap-server, in its plain file mode: a save writes the record's file
 * and the uploaded PDF, and nothing else in the working tree changes) on a free loopback port, and
 * serves the admin page with a configuration whose backend is that server. A factory, not a
 * process: the command line starts it and waits, tests start it and close it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { JournalInput } from '../generator/model/schema.ts';
import { CMS_BUNDLE, CMS_BUNDLE_LICENSE, adminPage, configYaml } from './admin-page.ts';
import { cmsConfig } from './cms-config.ts';
import { listenOnPort, type PortChoice } from '../shared/listen-port.ts';
import { EDITOR_SCRIPT, editorScript } from './editor-script.ts';
import { vendoredCmsFile } from './vendored-cms.ts';

export interface LocalEditorOptions {
  /** The repository the editor saves into: the project root. */
  root: string;
  /** The content folder (absolute), inside `root`. */
  content: string;
  journal: JournalInput;
  host: string;
  /**
   * The admin page's port (0 for a free one): a number is that port; a PortChoice not asked for
   * moves to the next free port when busy (listen-port.ts).
   */
  port: number | PortChoice;
  /** The environment the local backend runs with (the command line's own). */
  env: NodeJS.ProcessEnv;
}

export interface LocalEditor {
  /** The one address to open: the admin page. */
  url: string;
  /** The local backend's API, which the page saves through. */
  backendUrl: string;
  /** What the local backend printed, for an error message. */
  backendOutput(): string;
  /** Where the admin page listens. */
  address: AddressInfo;
  /** The default port, when it was busy and another was taken. */
  busyPort?: number;
  close(): Promise<void>;
}

const require = createRequire(import.meta.url);

export async function startLocalEditor(options: LocalEditorOptions): Promise<LocalEditor> {
  const content = path.relative(options.root, options.content).split(path.sep).join('/');
  if (content.startsWith('..') || path.isAbsolute(content))
    throw new Error(`the content folder ${options.content} is not inside ${options.root}`);
  const script = (await editorScript()).text;
  const backend = await startBackend(options);
  try {
    const config = cmsConfig(options.journal, { name: 'proxy', proxy_url: backend.url }, { content });
    const page = adminPage(options.journal.title, config);
    const files: Record<string, { type: string; body: () => NodeJS.ReadableStream | string }> = {
      '/admin/': { type: 'text/html; charset=utf-8', body: () => page },
      '/admin/config.yml': { type: 'text/yaml; charset=utf-8', body: () => configYaml(config) },
      [`/admin/${CMS_BUNDLE}`]: { type: 'text/javascript; charset=utf-8', body: () => bundleFile(CMS_BUNDLE) },
      [`/admin/${CMS_BUNDLE_LICENSE}`]: {
        type: 'text/plain; charset=utf-8',
        body: () => bundleFile(CMS_BUNDLE_LICENSE),
      },
      [`/admin/${EDITOR_SCRIPT}`]: { type: 'text/javascript; charset=utf-8', body: () => script },
    };
    const server = http.createServer((req, res) => {
      const pathname = new URL(req.url ?? '/', 'http://local.invalid').pathname;
      if (pathname === '/' || pathname === '/admin') {
        res.writeHead(302, { Location: '/admin/' }).end();
        return;
      }
      const file = files[pathname];
      if (!file || (req.method !== 'GET' && req.method !== 'HEAD')) {
        res.writeHead(file ? 405 : 404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found\n');
        return;
      }
      res.writeHead(200, { 'Content-Type': file.type, 'Cache-Control': 'no-store' });
      if (req.method === 'HEAD') {
        res.end();
        return;
      }
      const body = file.body();
      if (typeof body === 'string') res.end(body);
      else body.pipe(res);
    });
    const listen = async (port: number) => {
      server.listen(port, options.host);
      await once(server, 'listening');
      return server.address() as AddressInfo;
    };
    const choice = typeof options.port === 'number' ? { port: options.port, asked: true } : options.port;
    const { address, busy } = await listenOnPort(listen, choice, options.host);
    return {
      url: `http://${urlHost(options.host)}:${address.port}/admin/`,
      backendUrl: backend.url,
      backendOutput: backend.output,
      address,
      ...(busy === undefined ? {} : { busyPort: busy }),
      close: async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        // A browser keeps its connections open: they would hold the server for their whole idle time.
        server.closeAllConnections();
        await closed;
        await backend.stop();
      },
    };
  } catch (error) {
    await backend.stop();
    throw error;
  }
}

function bundleFile(name: string): NodeJS.ReadableStream {
  return createReadStream(vendoredCmsFile(name));
}

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

interface Backend {
  url: string;
  output(): string;
  stop(): Promise<void>;
}

/** decap-server on a free port of `host`, answering before this returns. */
async function startBackend(options: LocalEditorOptions): Promise<Backend> {
  const port = await freePort(options.host);
  const child = spawn(process.execPath, [require.resolve('decap-server/dist/index.js')], {
    cwd: options.root,
    env: {
      ...options.env,
      PORT: String(port),
      BIND_HOST: options.host,
      // Plain files: a save writes the record and its PDF (the git mode commits everything staged or not).
      MODE: 'fs',
      GIT_REPO_DIRECTORY: options.root,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
  const exited = once(child, 'exit');
  const backend: Backend = {
    url: `http://${urlHost(options.host)}:${port}/api/v1`,
    output: () => chunks.join(''),
    stop: () => stop(child, exited),
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the local backend (decap-server) stopped:\n${backend.output()}`);
    if (await answers(backend.url)) return backend;
    if (Date.now() > deadline) {
      await backend.stop();
      throw new Error(`the local backend (decap-server) did not answer at ${backend.url}:\n${backend.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function stop(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ action: 'info' }),
    });
    return response.ok;
  } catch {
    return false;
  }
}

async function freePort(host: string): Promise<number> {
  const probe = http.createServer();
  probe.listen(0, host);
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
