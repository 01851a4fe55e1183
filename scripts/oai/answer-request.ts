/**
 * The OAI-PMH repository in the preview and `npm run dev`: a request for `/oai` (any query, GET,
 * HEAD or POST) answered by handler.js, the same code nginx and Cloudflare run, over the files of
 * the output folder (docs/oai-pmh.md).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import oai, { type ReadOutputFile } from './handler.js';

/** The file that says a site has a repository: the handler answers only where the build wrote it. */
export const OAI_INDEX = 'oai/items.json';

/** A form body is a few short arguments; anything longer is not an OAI-PMH request. */
const MAX_BODY = 64 * 1024;

/** Whether `url` (a request's path and query) asks for the repository. */
export function isOaiRequest(url: string | undefined): boolean {
  const pathname = (url ?? '').split('?')[0];
  return pathname === '/oai';
}

export async function answerOaiRequest(req: IncomingMessage, res: ServerResponse, read: ReadOutputFile): Promise<void> {
  try {
    const url = req.url ?? '';
    const query =
      req.method === 'POST' ? await formBody(req) : url.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
    if (query === undefined) return send(req, res, { status: 413, type: 'text/plain; charset=utf-8', body: '' });
    send(req, res, await oai.answer(req.method ?? 'GET', query, read, new Date()));
  } catch (error) {
    // A broken output (a record file missing): the server goes on, and says why in one line.
    console.error(error instanceof Error ? error.message : String(error));
    if (!res.headersSent) send(req, res, { status: 500, type: 'text/plain; charset=utf-8', body: '' });
  }
}

function send(req: IncomingMessage, res: ServerResponse, reply: Awaited<ReturnType<typeof oai.answer>>): void {
  const body = Buffer.from(reply.body);
  res.writeHead(reply.status, {
    'Content-Type': reply.type,
    'Content-Length': String(body.length),
    ...(reply.allow ? { Allow: reply.allow } : {}),
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** A POST's form-encoded arguments (OAI-PMH 3.1.1.2); '' for another type; undefined when too long. */
async function formBody(req: IncomingMessage): Promise<string | undefined> {
  const form = /^application\/x-www-form-urlencoded\b/i.test(req.headers['content-type'] ?? '');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    // Read to its end all the same: the answer goes out on the same connection.
    size += chunk.length;
    if (size <= MAX_BODY) chunks.push(chunk);
  }
  if (size > MAX_BODY) return undefined;
  return form ? Buffer.concat(chunks).toString('utf8') : '';
}
