/**
 * The files of the benchmark's peer sites (hugo-site.ts, eleventy-site.ts) that depend on no record:
 * the hosts' rule files and the API's OpenAPI description, made by the project's own renderers as
 * the build makes them, and the robots, 404 and 405 pages. Each peer copies them as static files,
 * as a site made with it would keep them, so that it writes the same paths as the build.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { renderHostFiles } from '../generator/render/host-files.ts';
import { hostRules } from '../hosts/rules.ts';
import { openApiDescription } from '../generator/render/openapi.ts';
import type { OutputFile } from '../shared/output-file.ts';

/** What the peers read of `journal.yaml`. */
export interface PeerJournal {
  title: string;
  base_url: string;
  publisher?: string;
}

/** Writes the files into `folder`; returns the journal's settings. */
export async function writePeerStatic(folder: string, content: string): Promise<PeerJournal> {
  const journal = parse(await readFile(path.join(content, 'journal.yaml'), 'utf8')) as PeerJournal;
  const files: { path: string; text: string }[] = [
    ...renderHostFiles(hostRules).map((file) => ({ path: file.path, text: bodyText(file) })),
    { path: 'api/openapi.json', text: `${JSON.stringify(openApiDescription(journal), null, 2)}\n` },
    { path: 'robots.txt', text: `User-agent: *\nAllow: /\n\nSitemap: ${journal.base_url}/sitemap.xml\n` },
    { path: '404.html', text: errorPage(journal, 'Not found', 'There is no page at this address.') },
    { path: '405.html', text: errorPage(journal, 'Method not allowed', 'This API is read-only: use GET.') },
  ];
  for (const file of files) {
    await mkdir(path.dirname(path.join(folder, file.path)), { recursive: true });
    await writeFile(path.join(folder, file.path), file.text);
  }
  return journal;
}

function bodyText(file: OutputFile): string {
  if (typeof file.body === 'string') return file.body;
  if (file.body instanceof Uint8Array) return Buffer.from(file.body).toString('utf8');
  return [...file.body()].map((part) => (typeof part === 'string' ? part : String(part))).join('');
}

function errorPage(journal: PeerJournal, title: string, text: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="robots" content="noindex"><title>${title} | ${journal.title}</title></head>
<body>
<main><h1>${title}</h1><p>${text} <a href="/">${journal.title}</a></p></main>
</body>
</html>
`;
}
