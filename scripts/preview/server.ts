/**
 * The preview server: http-server over the output folder, answering with the `_headers` and
 * `_redirects` rules the build wrote, so what an editor sees locally is what the CDN will send.
 * A factory, not a process: tests create it, listen on a free port, and close it.
 */
import { readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, OutgoingHttpHeaders, RequestListener, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import httpServer from 'http-server';
import { headersFor, parseHeaders, parseRedirects, redirectFor } from '../hosts/cloudflare.ts';
import { CONTRACT_RULES } from '../hosts/path-rules.ts';
import { answerOaiRequest, isOaiRequest, OAI_INDEX } from '../oai/answer-request.ts';

export interface PreviewOptions {
  /** The built output folder. */
  root: string;
}

export interface PreviewServer {
  listen(port: number, host: string): Promise<AddressInfo>;
  close(): Promise<void>;
}

type UnionResponse = ServerResponse & { response?: ServerResponse };
type Middleware = (req: IncomingMessage, res: UnionResponse) => void;

export function createPreviewServer(options: PreviewOptions): PreviewServer {
  const root = path.resolve(options.root);

  const rules = pathRules(
    readFileSync(path.join(root, '_headers'), 'utf8'),
    readFileSync(path.join(root, '_redirects'), 'utf8'),
  );
  const isFile = isFileUnder(root);

  const applyRules: Middleware = (req, res) => {
    const answer = rules(req.method, req.url ?? '/', isFile);
    enforceHeaders(res.response ?? res, answer.headers);
    if (answer.status !== undefined) {
      res.statusCode = answer.status;
      for (const [name, value] of Object.entries(answer.set)) res.setHeader(name, value);
      res.end();
      return;
    }
    req.url = answer.url;
    res.emit('next');
  };

  const server = httpServer.createServer({
    root,
    cache: -1,
    showDir: 'false',
    // A folder's index.html answers its slash path (the home page, docs/indexing.md), as on every CDN.
    autoIndex: 'true',
    gzip: true,
    brotli: true,
    before: [applyRules as (req: IncomingMessage, res: ServerResponse) => void],
  });
  const node = server.server;
  // `/oai` is the OAI-PMH handler's, as on the hosts, and comes before http-server, which would
  // neither read a POST's body nor let the handler set the type; other requests go on to it.
  const served = node.listeners('request') as RequestListener[];
  node.removeAllListeners('request');
  node.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (isOaiRequest(req.url) && isFile(OAI_INDEX)) return void answerOaiRequest(req, res, readUnder(root));
    for (const listener of served) listener.call(node, req, res);
  });

  return {
    listen: (port, host) =>
      new Promise((resolvePromise, reject) => {
        node.once('error', reject);
        node.listen(port, host, () => resolvePromise(node.address() as AddressInfo));
      }),
    close: () =>
      new Promise((resolvePromise) => {
        node.close(() => resolvePromise());
        node.closeAllConnections();
      }),
  };
}

/** What the rules make of a request: an answer without a body, or the path to serve instead. */
export type RuleAnswer = { headers: Map<string, [string, string]> } & (
  { status: number; set: Record<string, string> } | { status?: undefined; url: string }
);

/**
 * The rules of the `_headers` and `_redirects` files the build wrote, and the CDN's handling of
 * HTML files, for one request: the preview server applies them to the output folder, and the dev
 * server (scripts/dev/) to the files it holds in memory. `isFile` answers for a decoded path
 * relative to the output folder.
 */
export function pathRules(
  headersText: string,
  redirectsText: string,
): (method: string | undefined, url: string, isFile: (relative: string) => boolean) => RuleAnswer {
  const headerRules = parseHeaders(headersText);
  const redirectRules = parseRedirects(redirectsText);
  const allowed = new Set<string>(CONTRACT_RULES.allowedMethods);
  return (method, requested, isFile): RuleAnswer => {
    const url = new URL(requested, 'http://preview.invalid');
    const headers = headersFor(headerRules, url.pathname);
    // As the CDN answers: 405, the path's headers, Allow, no body.
    if (!allowed.has(method ?? ''))
      return { headers, status: 405, set: { Allow: CONTRACT_RULES.apiHeaders['Allow']! } };
    const redirect = redirectFor(redirectRules, url.pathname);
    if (redirect && redirect.status !== 200)
      return { headers, status: redirect.status, set: { Location: redirect.to + url.search } };
    if (redirect) return { headers, url: redirect.to + url.search };
    const html = htmlHandlingOf(isFile, url.pathname);
    if (html?.status) return { headers, status: html.status, set: { Location: html.path + url.search } };
    return { headers, url: html ? html.path + url.search : requested };
  };
}

/**
 * Cloudflare Pages' own handling of HTML files (its default, which `_redirects` cannot express),
 * so the pages behave as they will there (docs/indexing.md):
 * - `/x` is answered by `x.html`; `/x.html` and `/x/` move to `/x` with 308;
 * - `/x/` is answered by `x/index.html`; `/x/index.html` and `/x` move to `/x/` with 308.
 * Returns the path to serve instead (no status) or to move to (a status), or nothing to change.
 */
export function htmlHandling(root: string, pathname: string): { path: string; status?: 308 } | undefined {
  return htmlHandlingOf(isFileUnder(root), pathname);
}

/** The text of a file under the output folder, or null. */
function readUnder(root: string): (relative: string) => Promise<string | null> {
  return (relative) => {
    const file = path.join(root, relative);
    if (!file.startsWith(root + path.sep)) return Promise.resolve(null);
    return readFile(file, 'utf8').catch(() => null);
  };
}

function isFileUnder(root: string): (relative: string) => boolean {
  return (relative) => {
    const file = path.join(root, relative);
    // Only files under the output folder (an encoded `..` must not probe outside it).
    if (!file.startsWith(root + path.sep)) return false;
    return statSync(file, { throwIfNoEntry: false })?.isFile() === true;
  };
}

function htmlHandlingOf(
  isFile: (relative: string) => boolean,
  pathname: string,
): { path: string; status?: 308 } | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  if (decoded.endsWith('/index.html'))
    return isFile(decoded) ? { path: pathname.slice(0, -'index.html'.length), status: 308 } : undefined;
  if (decoded.endsWith('.html'))
    return isFile(decoded) ? { path: pathname.slice(0, -'.html'.length), status: 308 } : undefined;
  if (decoded.endsWith('/')) {
    if (decoded === '/' || isFile(`${decoded}index.html`)) return undefined;
    return isFile(`${decoded.slice(0, -1)}.html`) ? { path: pathname.slice(0, -1), status: 308 } : undefined;
  }
  if (isFile(decoded)) return undefined;
  if (isFile(`${decoded}.html`)) return { path: `${pathname}.html` };
  return isFile(`${decoded}/index.html`) ? { path: `${pathname}/`, status: 308 } : undefined;
}

/**
 * http-server decides some headers itself (a charset on JSON, its own Cache-Control) right before
 * it answers, on every path including ranges and 304s. The rules must win, so the final writeHead
 * of the underlying response is wrapped: rule headers replace whatever was set, and a compressed
 * answer adds Accept-Encoding to Vary.
 */
function enforceHeaders(response: ServerResponse, headers: Map<string, [string, string]>): void {
  const writeHead = response.writeHead.bind(response) as (...args: unknown[]) => ServerResponse;
  response.writeHead = ((statusCode: number, ...rest: unknown[]) => {
    const reason = typeof rest[0] === 'string' ? rest.shift() : undefined;
    const passed = (rest[0] ?? {}) as OutgoingHttpHeaders;
    for (const [name, value] of Object.entries(passed)) if (value !== undefined) response.setHeader(name, value);
    // Cloudflare types a `.json` file as exactly `application/json`, where http-server adds a charset:
    // the records' details take their type from the file (scripts/hosts/cloudflare.ts).
    if (/^application\/json\s*;/i.test(String(response.getHeader('content-type') ?? '')))
      response.setHeader('Content-Type', 'application/json');
    for (const [, [name, value]] of headers) response.setHeader(name, value);
    // SPEC-NOTES 7: a compressed answer names Accept-Encoding in Vary (once: `_headers` may already).
    const vary = String(response.getHeader('vary') ?? '');
    const named = vary.split(',').some((token) => token.trim().toLowerCase() === 'accept-encoding');
    if (response.getHeader('content-encoding') && !named) {
      response.setHeader('Vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
    }
    return reason === undefined ? writeHead(statusCode) : writeHead(statusCode, reason);
  }) as ServerResponse['writeHead'];
}
