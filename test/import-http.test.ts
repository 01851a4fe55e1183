/**
 * The import over HTTP: from a running deployment (a local server that answers as the
 * contract says), every way the network can fail, and `--download-media`.
 */
import { mkdtemp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { build } from '../scripts/generator/build.ts';
import { toJson } from '../scripts/generator/render/json-text.ts';
import { importJournal, type ImportOptions } from '../scripts/import/import.ts';
import { formatImportSummary } from '../scripts/import/summary.ts';
import { projectPaths, type ProjectPaths } from '../scripts/project.ts';
import { startDumpServer, type DumpServer } from './fixtures/import/dump-server.ts';
import { generateDump } from './fixtures/import/generate-dump.ts';
import { runCli } from './helpers/workspace.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function project(): Promise<ProjectPaths> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'journal-import-http-'));
  cleanups.push(() => rm(root, { recursive: true, force: true }));
  return projectPaths(root);
}

async function server(): Promise<DumpServer> {
  const s = await startDumpServer();
  cleanups.push(() => s.close());
  return s;
}

async function importFrom(s: DumpServer, options: Partial<ImportOptions> = {}) {
  const paths = await project();
  const result = await importJournal(paths, { source: s.origin, timeoutMs: 2_000, ...options });
  return { paths, result };
}

const pdf = (name: string) => Buffer.from(`%PDF-1.4\n% ${name}\n%%EOF\n`, 'latin1');

describe('import from a running deployment', () => {
  it('fetches the three lists with ?format=api, and the build reproduces them byte for byte', async () => {
    const s = await server();
    const dump = generateDump({ seed: 21, authors: 30, manuscripts: 60, collisions: 2 });
    s.serveDump(dump);
    const { paths, result } = await importFrom(s);
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(s.requests).toEqual([
      '/api/authors/?format=api',
      '/api/volumes/?format=api',
      '/api/manuscripts/?format=api',
    ]);
    expect(result.report.sourceBytesIdentical).toBe(true);
    expect(await readFile(path.join(paths.content, 'journal.yaml'), 'utf8')).toContain(
      `base_url: ${s.origin}\nmedia_url: https://media.example.org\n`,
    );

    expect((await build(paths, 'build')).problems).toEqual([]);
    for (const list of ['authors', 'volumes', 'manuscripts'] as const) {
      expect(await readFile(path.join(paths.out, 'api', list, 'index.json'), 'utf8')).toBe(toJson(dump[list]));
    }
  });

  it('a deployment whose ?format=api is the HTML browsable API is read with ?format=json, and the summary says so', async () => {
    const s = await server();
    const dump = generateDump({ seed: 28, authors: 4, manuscripts: 4 });
    s.serveDump(dump);
    const body = Buffer.from(toJson(dump.authors), 'utf8');
    s.override('/api/authors/', (request, response) => {
      if (request.url?.endsWith('format=json'))
        return response.writeHead(200, { 'Content-Type': 'application/json' }).end(body);
      response
        .writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
        .end('<!DOCTYPE html><html><head><title>Author List – Django REST framework</title></head></html>');
    });
    const { result } = await importFrom(s);
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(s.requests.slice(0, 2)).toEqual(['/api/authors/?format=api', '/api/authors/?format=json']);
    expect(formatImportSummary(result.report)).toContain(
      `(${s.origin}/api/authors/?format=api answered with an HTML page; authors were read from ${s.origin}/api/authors/?format=json)`,
    );
  });

  it('through the command line, with a trailing /api/ in the address', async () => {
    const s = await server();
    s.serveDump(generateDump({ seed: 22, authors: 5, manuscripts: 5 }));
    const paths = await project();
    const run = await runCli(paths.root, ['import', `${s.origin}/api/`, '--timeout', '5']);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain(`Imported ${s.origin}/api/ into content/:`);
    expect(run.stdout).toContain(`  base_url: ${s.origin}  (from the source URL)`);
  });
});

describe('network failures: a clear message naming the URL and what was expected; nothing written', () => {
  const expectFailure = async (s: DumpServer, message: RegExp, options: Partial<ImportOptions> = {}) => {
    const { paths, result } = await importFrom(s, options);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((p) => p.code)).toContain('import/fetch');
    const problem = result.problems.find((p) => p.code === 'import/fetch')!;
    expect(problem.file).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/(authors|volumes|manuscripts)\/\?format=api$/);
    expect(problem.message).toMatch(message);
    expect(problem.expected).toMatch(/a 200 response with the JSON array of (authors|volumes|manuscripts)/);
    expect(await readdir(paths.root)).toEqual([]);
  };

  it('an HTML error page (404)', async () => {
    const s = await server();
    await expectFailure(s, /^answered 404 Not Found \(an HTML error page\)$/);
  });

  it('an HTML page with status 200 (a login page, a fallback index.html)', async () => {
    const s = await server();
    s.serveDump(generateDump({ seed: 23, authors: 2, manuscripts: 2 }));
    s.override('/api/volumes/', (_q, r) =>
      r.writeHead(200, { 'Content-Type': 'text/html' }).end('<!DOCTYPE html><html><body>Welcome</body></html>'),
    );
    await expectFailure(
      s,
      /^is an HTML page \(Content-Type: text\/html\), not JSON; http:\/\/127\.0\.0\.1:\d+\/api\/volumes\/\?format=json is an HTML page \(Content-Type: text\/html\), not JSON$/,
    );
  });

  it('a body that is not JSON', async () => {
    const s = await server();
    s.serveDump(generateDump({ seed: 24, authors: 2, manuscripts: 2 }));
    s.override('/api/manuscripts/', (_q, r) =>
      r.writeHead(200, { 'Content-Type': 'application/json' }).end('Internal error, try later'),
    );
    await expectFailure(s, /^is not valid JSON \(/);
  });

  it('a paginated object instead of the bare array', async () => {
    const s = await server();
    s.serveDump(generateDump({ seed: 25, authors: 2, manuscripts: 2 }));
    s.override('/api/authors/', (_q, r) =>
      r.writeHead(200, { 'Content-Type': 'application/json' }).end('{"count":2,"next":null,"results":[]}'),
    );
    const { result } = await importFrom(s);
    expect(!result.ok && result.problems.map((p) => [p.code, p.field, p.message])).toEqual([
      ['import/dump-shape', 'authors', 'is an object with the keys count, next, results'],
    ]);
  });

  it('a truncated body: the connection closes before Content-Length bytes arrived', async () => {
    const s = await server();
    s.serveDump(generateDump({ seed: 26, authors: 2, manuscripts: 2 }));
    s.override('/api/authors/', (_q, r) => {
      r.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': 5000 });
      r.write('[{"name":"Ana","surn');
      setTimeout(() => r.socket?.destroy(), 50);
    });
    await expectFailure(s, /^closed the connection after 20 of the 5000 bytes \(a truncated body\)$/);
  });

  it('a truncated body without Content-Length: the JSON ends early', async () => {
    const s = await server();
    s.serveDump(generateDump({ seed: 27, authors: 2, manuscripts: 2 }));
    s.override('/api/authors/', (_q, r) =>
      r.writeHead(200, { 'Content-Type': 'application/json' }).end('[{"name":"Ana","surn'),
    );
    await expectFailure(s, /^ends before the JSON does after 20 bytes \(a truncated body\)$/);
  });

  it('a timeout: the server never answers', async () => {
    const s = await server();
    s.override('/api/authors/', () => undefined);
    await expectFailure(s, /^gave no complete answer within 0\.3 s \(a timeout\)$/, { timeoutMs: 300 });
  });

  it('a refused connection', async () => {
    // A port that was free a moment ago and has nobody listening now.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const paths = await project();
    const result = await importJournal(paths, { source: `http://127.0.0.1:${port}`, timeoutMs: 2_000 });
    expect(!result.ok && result.problems.map((p) => [p.code, p.file, p.message])).toEqual(
      ['authors', 'volumes', 'manuscripts'].map((list) => [
        'import/fetch',
        `http://127.0.0.1:${port}/api/${list}/?format=api`,
        'refused the connection (ECONNREFUSED): is the server running?',
      ]),
    );
  });
});

describe('--download-media', () => {
  async function serveWithPdfs(seed: number) {
    const s = await server();
    const dump = generateDump({ seed, authors: 6, manuscripts: 8, mediaOrigin: s.origin });
    s.serveDump(dump);
    const urls = [...new Set([...dump.volumes.map((v) => v.pdf), ...dump.manuscripts.map((m) => m.document)])];
    for (const url of urls) s.servePdf(new URL(url).pathname, pdf(url));
    return { s, dump, urls };
  }

  it('fetches every PDF into content/media/, switches the records to local files, and the build publishes the same URLs', async () => {
    const { s, dump, urls } = await serveWithPdfs(31);
    const { paths, result } = await importFrom(s, { downloadMedia: '' });
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(result.report.counts.pdfs).toBe(urls.length);
    for (const url of urls) {
      const local = new URL(url).pathname.replace(/^\/media\//, '');
      expect(await readFile(path.join(paths.content, 'media', local))).toEqual(pdf(url));
    }
    const volume = await readFile(path.join(paths.content, 'volumes', 'volume-v.yaml'), 'utf8');
    expect(volume).toMatch(/^pdf: volumes\/pdfs\/2023\/volume-v\.pdf$/m);
    expect(formatImportSummary(result.report)).toContain(`PDFs (`);

    const built = await build(paths, 'build');
    expect(built.problems).toEqual([]);
    expect(built.counts.pdfs).toBe(urls.length);
    expect(await readFile(path.join(paths.out, 'api/manuscripts/index.json'), 'utf8')).toBe(toJson(dump.manuscripts));
    expect(await readFile(path.join(paths.out, 'api/volumes/index.json'), 'utf8')).toBe(toJson(dump.volumes));
  });

  it('all or nothing: a PDF that is missing or not a PDF is listed, and nothing is written', async () => {
    const { s, dump } = await serveWithPdfs(32);
    const broken = new URL(dump.manuscripts[0]!.document).pathname;
    const missing = new URL(dump.volumes[1]!.pdf).pathname;
    s.override(broken, (_q, r) => r.writeHead(200, { 'Content-Type': 'text/html' }).end('<html>Moved</html>'));
    s.override(missing, (_q, r) => r.writeHead(404).end());
    const { paths, result } = await importFrom(s, { downloadMedia: '' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((p) => [p.code, p.file]).sort()).toEqual(
      [
        ['import/media', `${s.origin}${broken}`],
        ['import/media', `${s.origin}${missing}`],
      ].sort(),
    );
    expect(result.problems.find((p) => p.file.endsWith(broken))!.message).toMatch(
      /^is not a PDF \(it starts with "<html>Moved<\/htm"\) \(named by manuscripts\[0\]\.document/,
    );
    expect(result.problems.find((p) => p.file.endsWith(missing))!.message).toMatch(
      /^answered 404 Not Found \(named by volumes\[1\]\.pdf\)$/,
    );
    expect(await readdir(paths.root)).toEqual([]);
  });

  it('--media-from copies the PDFs from a copy of the old media folder instead', async () => {
    const { s, urls } = await serveWithPdfs(33);
    const paths = await project();
    const mediaCopy = path.join(paths.root, 'old-media');
    for (const url of urls) {
      const target = path.join(mediaCopy, new URL(url).pathname.replace(/^\/media\//, ''));
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, pdf(`copy of ${url}`));
    }
    const result = await importJournal(paths, { source: s.origin, downloadMedia: 'old-media', timeoutMs: 2_000 });
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    const first = new URL(urls[0]!).pathname.replace(/^\/media\//, '');
    expect(await readFile(path.join(paths.content, 'media', first))).toEqual(pdf(`copy of ${urls[0]}`));
    expect(s.requests.filter((r) => r.startsWith('/media/'))).toEqual([]);
  });

  it('refuses PDFs on another origin than the others: their URLs could not be reproduced from local files', async () => {
    const { s, dump } = await serveWithPdfs(34);
    dump.manuscripts[2]!.document = 'https://elsewhere.example.org/media/pdfs/x.pdf';
    s.serveDump(dump);
    const { paths, result } = await importFrom(s, { downloadMedia: '' });
    expect(!result.ok && result.problems.map((p) => [p.code, p.field])).toEqual([
      ['import/media', 'manuscripts[2].document'],
    ]);
    expect(await readdir(paths.root)).toEqual([]);
  });
});
