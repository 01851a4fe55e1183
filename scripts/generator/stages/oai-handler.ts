/**
 * The OAI-PMH handler (scripts/oai/handler.js) copied into the output where content/journal.yaml
 * has `oai` (docs/oai-pmh.md): `oai/handler.js` for nginx's `js_import`, and for Cloudflare Pages
 * the same file as `_worker.js` with a `_routes.json` that sends it `/oai` alone, so every other
 * path stays static, with `_headers` and `_redirects`. The renderers cannot read a file, so it is
 * read here, as the web editor's files are (admin-bundle.ts); its key, a hash of its bytes, lets a
 * build take the previous output's copies.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { OutputFile } from '../../shared/output-file.ts';
import type { JournalInput } from '../model/schema.ts';

const HANDLER = new URL('../../oai/handler.js', import.meta.url);

/** Cloudflare Pages' routes file: only `/oai` runs the worker (a request it runs is billed as one). */
const ROUTES = `${JSON.stringify({ version: 1, include: ['/oai'], exclude: [] })}\n`;

export async function readOaiHandler(journal: JournalInput): Promise<OutputFile[]> {
  if (!journal.oai) return [];
  const handler = await readFile(HANDLER);
  const key = `oai-handler/${sha256(handler)}`;
  return [
    { path: 'oai/handler.js', body: handler, key },
    { path: '_worker.js', body: handler, key },
    { path: '_routes.json', body: ROUTES, key: `oai-routes/${sha256(ROUTES)}` },
  ];
}

const sha256 = (bytes: string | Uint8Array) => createHash('sha256').update(bytes).digest('hex');
