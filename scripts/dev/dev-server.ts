/**
 * The dev server: the site a build would write, served from memory (generator/live-build.ts) with
 * the preview's rules (preview/server.ts, pathRules: the `_headers` and `_redirects` the site has
 * now, and the CDN's handling of HTML files), the PDFs from content/media/, and an event stream that
 * tells open pages to reload. While the content has problems, every page is the list of them.
 * A factory, not a process: tests create it, listen on a free port, and close it.
 */
import { createReadStream } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { LiveBuild, LiveSite } from '../generator/live-build.ts';
import { answerOaiRequest, isOaiRequest, OAI_INDEX } from '../oai/answer-request.ts';
import { pathRules } from '../preview/server.ts';
import { devPage, EVENTS_PATH, problemsPage } from './browser-page.ts';

export interface DevServer {
  listen(port: number, host: string): Promise<AddressInfo>;
  /** Tells every open page to reload. */
  reload(): void;
  close(): Promise<void>;
}

/** As http-server (the preview) answers: no caching while files change. */
const NO_CACHE = 'no-cache, no-store, must-revalidate';
/** The types the preview's http-server gives these extensions (text ones with their charset). */
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=UTF-8',
  '.json': 'application/json; charset=UTF-8',
  '.txt': 'text/plain; charset=UTF-8',
  '.xml': 'application/xml',
  '.css': 'text/css; charset=UTF-8',
  '.js': 'application/javascript; charset=UTF-8',
  '.pdf': 'application/pdf',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};
const typeOf = (name: string) => TYPES[path.extname(name).toLowerCase()] ?? 'application/octet-stream';

export function createDevServer(live: Pick<LiveBuild, 'site'>): DevServer {
  const listeners = new Set<ServerResponse>();
  // The rules of the site being served, made again only when the site changed.
  let rules: { site: LiveSite; apply: ReturnType<typeof pathRules> } | undefined;
  const rulesOf = (site: Extract<LiveSite, { ok: true }>) => {
    if (rules?.site !== site) {
      const text = (name: string) => new TextDecoder().decode(site.files.bytes(name) ?? new Uint8Array());
      rules = { site, apply: pathRules(text('_headers'), text('_redirects')) };
    }
    return rules.apply;
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://dev.invalid');
    if (url.pathname === EVENTS_PATH) return openEvents(res, listeners);
    const site = live.site;
    if (!site.ok)
      return send(
        req,
        res,
        500,
        { 'Content-Type': TYPES['.html']!, 'Cache-Control': NO_CACHE },
        problemsPage(site.problems, site.warnings),
      );
    // The OAI-PMH repository, answered by its handler over the files as they are now (preview/server.ts).
    if (isOaiRequest(req.url) && site.files.has(OAI_INDEX)) return void answerOaiRequest(req, res, readLive(site));
    const answer = rulesOf(site)(req.method, req.url ?? '/', (relative) => site.files.has(relative.replace(/^\//, '')));
    const ruleHeaders = Object.fromEntries([...answer.headers.values()]);
    if (answer.status !== undefined) return send(req, res, answer.status, { ...ruleHeaders, ...answer.set }, '');

    let name: string;
    try {
      name = decodeURIComponent(new URL(answer.url, 'http://dev.invalid').pathname).slice(1);
    } catch {
      return notFound(req, res, site, ruleHeaders);
    }
    if (name === '' || name.endsWith('/')) name += 'index.html';
    const media = site.files.mediaSource(name);
    if (media)
      return sendFile(req, res, media, { 'Content-Type': typeOf(name), 'Cache-Control': NO_CACHE, ...ruleHeaders });
    const bytes = site.files.bytes(name);
    if (!bytes) return notFound(req, res, site, ruleHeaders);
    const headers = { 'Content-Type': typeOf(name), 'Cache-Control': NO_CACHE, ...ruleHeaders };
    send(
      req,
      res,
      200,
      headers,
      isHtml(headers) ? devPage(new TextDecoder().decode(bytes), site.mediaUrl, site.warnings) : bytes,
    );
  });

  return {
    listen: (port, host) =>
      new Promise((resolvePromise, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => resolvePromise(server.address() as AddressInfo));
      }),
    reload() {
      for (const listener of listeners) listener.write(`event: reload\ndata: \n\n`);
    },
    close: () =>
      new Promise((resolvePromise) => {
        for (const listener of listeners) listener.end();
        server.close(() => resolvePromise());
        server.closeAllConnections();
      }),
  };
}

function readLive(site: Extract<LiveSite, { ok: true }>): (relative: string) => Promise<string | null> {
  return (relative) => {
    const bytes = site.files.bytes(relative);
    return Promise.resolve(bytes ? new TextDecoder().decode(bytes) : null);
  };
}

function openEvents(res: ServerResponse, listeners: Set<ServerResponse>): void {
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
  // A comment line opens the stream at once, so the page knows it is connected.
  res.write(': connected\n\n');
  listeners.add(res);
  res.on('close', () => listeners.delete(res));
}

const isHtml = (headers: Record<string, string>) =>
  Object.entries(headers).some(
    ([name, value]) => name.toLowerCase() === 'content-type' && value.startsWith('text/html'),
  );

/** As the preview answers an unknown path: the 404 page from public/, with the path's rule headers. */
function notFound(
  req: IncomingMessage,
  res: ServerResponse,
  site: Extract<LiveSite, { ok: true }>,
  ruleHeaders: Record<string, string>,
): void {
  const page = site.files.bytes('404.html');
  const headers = { 'Content-Type': TYPES['.html']!, 'Cache-Control': NO_CACHE, ...ruleHeaders };
  send(req, res, 404, headers, page ? devPage(new TextDecoder().decode(page), site.mediaUrl) : 'Not found');
}

function send(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: string | Uint8Array,
): void {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  res.writeHead(status, { ...headers, 'Content-Length': String(bytes.length) });
  res.end(req.method === 'HEAD' ? undefined : bytes);
}

function sendFile(req: IncomingMessage, res: ServerResponse, file: string, headers: Record<string, string>): void {
  res.writeHead(200, headers);
  if (req.method === 'HEAD') return void res.end();
  createReadStream(file)
    .on('error', () => res.destroy())
    .pipe(res);
}
