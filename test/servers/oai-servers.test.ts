/**
 * OAI-PMH on the real servers that run the build's handler (docs/oai-pmh.md, "Hosts"): nginx with
 * the block `npm run config -- nginx` prints and its JavaScript module (njs), and Cloudflare Pages'
 * emulator with the build's `_worker.js` and `_routes.json`. A real harvester, `oai_pmh` (Debian
 * libhttp-oai-perl), harvests a synthetic journal large enough for several resumption pages, whole
 * and by window; a sample of answers, each verb and each error, validates against the protocol's
 * schema. The journal's index is written again in small chunks (the renderer's own function, given
 * a chunk size by this test), so that its lists come in many chunks, as a large journal's do: every
 * page the servers answer, following the tokens, is the one the handler gives in Node. A server, the harvester or xmllint missing here is skipped with the reason; under CI,
 * which installs them all (`.ci/run`), it is a failure.
 */
import { execFile } from 'node:child_process';
import { appendFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSyntheticJournal } from '../../scripts/bench/synthetic-journal.ts';
import { indexFiles, type Chunking } from '../../scripts/generator/render/oai/oai-index.ts';
import oai from '../../scripts/oai/handler.js';
import { readOaiIndex, validateFiles, type OaiIndex } from '../helpers/oai.ts';
import { nginxServer, njsUnavailable } from './nginx.ts';
import { findExecutable } from './process.ts';
import type { RunningServer, ServerUnderTest } from './server.ts';
import { buildSample, makeReadable, type BuiltSite } from './site.ts';
import { wranglerServer } from './wrangler.ts';

const run = promisify(execFile);
/** ListRecords pages hold 40 records and ListIdentifiers pages 400: both lists need several pages. */
const MANUSCRIPTS = 450;
const XML_TYPE = 'text/xml; charset=utf-8';
/**
 * Chunks of 20 to 80 items, where the build cuts about 1,000: the 450 manuscripts' whole list in about
 * ten chunks and each set's in a few, so that pages, sets and windows cross chunks on every server.
 */
const SMALL_CHUNKS: Chunking = { min: 20, spread: 20, max: 80 };

const env = process.env;
const harvester = findExecutable('oai_pmh', env['PATH'], ['/usr/bin']);
const xmllint = findExecutable('xmllint', env['PATH'], ['/usr/bin']);
const HARVESTER_MISSING = 'the harvester oai_pmh is not installed (Debian: apt-get install libhttp-oai-perl)';
const XMLLINT_MISSING = 'xmllint is not installed (Debian: apt-get install libxml2-utils)';

const SERVERS: { server: ServerUnderTest; missing: string | undefined }[] = [
  (() => {
    const server = nginxServer(env);
    return { server, missing: server.unavailable() ?? njsUnavailable() };
  })(),
  (() => {
    const server = wranglerServer(env);
    return { server, missing: server.unavailable() };
  })(),
];

type Index = OaiIndex;

interface Harvested {
  identifier: string;
  datestamp: string;
}

/** One synthetic journal, built once for every server of the file. */
let journal: Promise<{ site: BuiltSite; index: Index; root: string }> | undefined;
function builtJournal() {
  journal ??= (async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'journal-oai-'));
    await generateSyntheticJournal(root, { manuscripts: MANUSCRIPTS });
    await appendFile(path.join(root, 'content', 'journal.yaml'), 'oai:\n  admin_email: editor@journal.example.org\n');
    const site = await buildSample(root);
    await writeIndexInSmallChunks(site.dist);
    const index = await readOaiIndex(site.dist);
    return { site, index, root };
  })();
  return journal;
}
afterAll(async () => {
  if (!journal) return;
  const { site, root } = await journal;
  await site.dispose();
  await rm(root, { recursive: true, force: true });
});

/** The built index (oai/items.json and oai/items/) written again as the renderer writes it in SMALL_CHUNKS. */
async function writeIndexInSmallChunks(dist: string): Promise<void> {
  const built = await readOaiIndex(dist);
  const items = built.items.map(([id, datestamp, sets]) => ({ id, datestamp, sets }));
  const files = indexFiles(built, items, SMALL_CHUNKS);
  await rm(path.join(dist, 'oai/items'), { recursive: true });
  await mkdir(path.join(dist, 'oai/items'));
  for (const file of files) await writeFile(path.join(dist, file.path), file.text);
  await makeReadable(path.join(dist, 'oai'));
}

/** A page with its responseDate, the one part two answers to one request may differ in, left out. */
const withoutDate = (xml: string) => xml.replace(/<responseDate>[^<]*<\/responseDate>/, '<responseDate/>');

/** What a harvest of `items` must give: every identifier once, with its datestamp, sorted. */
function expected(index: Index, items: Index['items']): Harvested[] {
  return items
    .map(([id, datestamp]) => ({ identifier: `${index.identifierPrefix}${id}`, datestamp }))
    .sort(byIdentifier);
}

function byIdentifier(a: Harvested, b: Harvested): number {
  return a.identifier < b.identifier ? -1 : a.identifier > b.identifier ? 1 : 0;
}

/** Runs `oai_pmh` (which follows every resumption token) and reads the headers it printed. */
async function harvest(origin: string, args: string[]): Promise<Harvested[]> {
  const { stdout } = await run(harvester!, [...args, `${origin}/oai`], {
    maxBuffer: 256 * 1024 * 1024,
    timeout: 120_000,
  });
  // Each record: `identifier: ...`, `datestamp: ...` lines, its metadata, then a form feed.
  const found = [...stdout.matchAll(/(?:^|\f)identifier: (\S+)\ndatestamp: (\S+)\n/g)];
  return found.map((match) => ({ identifier: match[1]!, datestamp: match[2]! })).sort(byIdentifier);
}

for (const { server, missing } of SERVERS) {
  if (missing && env['CI']) {
    describe(`OAI-PMH on ${server.title}`, () => {
      it('is installed (CI installs every server the suite runs against)', () => {
        throw new Error(missing);
      });
    });
    continue;
  }
  if (missing) console.warn(`[${server.host} OAI-PMH] skipped: ${missing}`);

  describe.skipIf(missing !== undefined)(
    missing ? `OAI-PMH on ${server.title} — skipped: ${missing}` : `OAI-PMH on ${server.title}`,
    () => {
      let index: Index;
      let running: RunningServer;
      let site: BuiltSite;
      beforeAll(async () => {
        ({ site, index } = await builtJournal());
        running = await server.start(site);
      }, 300_000);
      afterAll(async () => {
        await running?.stop();
      });
      const context = () => running.describe().slice(-4000);

      describe.skipIf(!harvester && !env['CI'])(harvester ? 'harvested with oai_pmh' : HARVESTER_MISSING, () => {
        it('is installed', () => {
          expect(harvester, HARVESTER_MISSING).toBeDefined();
          expect(index.items.length).toBe(MANUSCRIPTS);
        });

        it('ListRecords of the whole repository gives every manuscript exactly once, over every page', async () => {
          const records = await harvest(running.origin, ['--metadataPrefix', 'oai_dc']);
          expect(records, context()).toEqual(expected(index, index.items));
        });

        it('ListIdentifiers of the whole repository gives every identifier exactly once', async () => {
          const headers = await harvest(running.origin, ['-X', 'ListIdentifiers', '--metadataPrefix', 'oai_dc']);
          expect(headers, context()).toEqual(expected(index, index.items));
        });

        it('a from/until window gives exactly the manuscripts of those days, both days included', async () => {
          const from = index.items[100]![1];
          const until = index.items[330]![1];
          const inside = index.items.filter(([, day]) => day >= from && day <= until);
          // The window spans several pages, and its ends are days other manuscripts share.
          expect(inside.length).toBeGreaterThan(200);
          const records = await harvest(running.origin, [
            '--metadataPrefix',
            'oai_dc',
            '--from',
            from,
            '--until',
            until,
          ]);
          expect(records, context()).toEqual(expected(index, inside));
        });

        it('a set gives exactly its manuscripts', async () => {
          const set = 'volume-2';
          const at = index.sets.indexOf(set);
          const members = index.items.filter(([, , sets]) => sets.includes(at));
          expect(members.length).toBeGreaterThan(40);
          const records = await harvest(running.origin, ['--metadataPrefix', 'oai_dc', '--set', set]);
          expect(records, context()).toEqual(expected(index, members));
        });
      });

      describe.skipIf(!xmllint && !env['CI'])(
        xmllint ? 'a sample of answers' : `a sample of answers — skipped: ${XMLLINT_MISSING}`,
        () => {
          it('each verb and each error answers 200 as XML and validates against the OAI-PMH schema', async () => {
            expect(xmllint, XMLLINT_MISSING).toBeDefined();
            const first = `${index.identifierPrefix}${index.items[0]![0]}`;
            const answers: { query: string; error?: string; body?: string; method?: string }[] = [
              { query: 'verb=Identify' },
              { query: 'verb=ListMetadataFormats' },
              { query: `verb=ListMetadataFormats&identifier=${encodeURIComponent(first)}` },
              { query: 'verb=ListSets' },
              { query: `verb=GetRecord&metadataPrefix=oai_dc&identifier=${encodeURIComponent(first)}` },
              { query: 'verb=ListIdentifiers&metadataPrefix=oai_dc' },
              { query: 'verb=ListRecords&metadataPrefix=oai_dc' },
              { query: `verb=ListRecords&metadataPrefix=oai_dc&set=volume-1&from=${index.items[50]![1]}` },
              { query: '', error: 'badVerb' },
              { query: 'verb=Harvest', error: 'badVerb' },
              { query: 'verb=Identify&verb=Identify', error: 'badVerb' },
              { query: 'verb=ListRecords', error: 'badArgument' },
              { query: 'verb=ListRecords&metadataPrefix=oai_dc&metadataPrefix=oai_dc', error: 'badArgument' },
              { query: 'verb=ListRecords&metadataPrefix=oai_dc&from=2024-02-30', error: 'badArgument' },
              { query: 'verb=ListRecords&resumptionToken=not-a-token', error: 'badResumptionToken' },
              { query: 'verb=ListRecords&metadataPrefix=marc21', error: 'cannotDisseminateFormat' },
              {
                query: `verb=GetRecord&metadataPrefix=oai_dc&identifier=${encodeURIComponent(`${index.identifierPrefix}0`)}`,
                error: 'idDoesNotExist',
              },
              { query: 'verb=ListRecords&metadataPrefix=oai_dc&from=2999-01-01', error: 'noRecordsMatch' },
              // 3.1.1.2: the same arguments as a form in a POST body.
              { query: 'verb=ListIdentifiers&metadataPrefix=oai_dc', method: 'POST' },
            ];
            const folder = site.scratch(`oai-answers-${server.host}`);
            await mkdir(folder, { recursive: true });
            const files: string[] = [];
            for (const [n, request] of answers.entries()) {
              const response =
                request.method === 'POST'
                  ? await fetch(`${running.origin}/oai`, {
                      method: 'POST',
                      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
                      body: request.query,
                    })
                  : await fetch(`${running.origin}/oai${request.query ? `?${request.query}` : ''}`);
              const body = await response.text();
              const label = `${request.method ?? 'GET'} ?${request.query}`;
              expect(response.status, `${label}\n${body}\n${context()}`).toBe(200);
              expect(response.headers.get('content-type'), label).toBe(XML_TYPE);
              const code = /<error code="([^"]+)"/.exec(body)?.[1];
              expect(code, `${label}\n${body}`).toBe(request.error);
              const file = path.join(folder, `${String(n).padStart(2, '0')}.xml`);
              await writeFile(file, body);
              files.push(file);
              // A resumption token's next page: the middle page of a list, then its last (an empty token).
              const token = /<resumptionToken[^>]*>([^<]+)<\/resumptionToken>/.exec(body)?.[1];
              if (token && request.method !== 'POST') {
                const verb = /verb=(\w+)/.exec(request.query)![1];
                const next = await fetch(
                  `${running.origin}/oai?verb=${verb}&resumptionToken=${encodeURIComponent(unescapeXml(token))}`,
                );
                const page = await next.text();
                expect(page, `${label}, next page`).toMatch(/<resumptionToken completeListSize="\d+" cursor="\d+"/);
                const pageFile = path.join(folder, `${String(n).padStart(2, '0')}-next.xml`);
                await writeFile(pageFile, page);
                files.push(pageFile);
              }
            }
            const report = await validateFiles(files);
            expect(report.code, report.report).toBe(0);
          });
        },
      );

      it("answers every page as the handler does in Node, over an index in many chunks, following each list's tokens", async () => {
        const head = JSON.parse(await readFile(path.join(site.dist, 'oai/items.json'), 'utf8')) as {
          items: { chunks: unknown[] };
          setItems: { chunks: unknown[] }[];
          ids: unknown[];
        };
        expect(head.items.chunks.length).toBeGreaterThanOrEqual(6);
        expect(head.setItems.filter((set) => set.chunks.length > 1).length).toBeGreaterThan(2);
        expect(head.ids.length).toBeGreaterThan(1);
        const read = (file: string) => readFile(path.join(site.dist, file), 'utf8').catch(() => null);
        const [from, until] = [index.items[90]![1], index.items[380]![1]];
        const middle = index.items.map(([id]) => id).sort((a, b) => a - b)[300]!;
        const lists = [
          'verb=ListRecords&metadataPrefix=oai_dc',
          'verb=ListIdentifiers&metadataPrefix=oai_dc',
          'verb=ListRecords&metadataPrefix=oai_dc&set=volume-2',
          `verb=ListRecords&metadataPrefix=oai_dc&from=${from}&until=${until}`,
          `verb=ListIdentifiers&metadataPrefix=oai_dc&set=${index.sets.at(-1)!}&from=${from}`,
          `verb=GetRecord&metadataPrefix=oai_dc&identifier=${encodeURIComponent(index.identifierPrefix + middle)}`,
          `verb=ListMetadataFormats&identifier=${encodeURIComponent(index.identifierPrefix + middle)}`,
        ];
        let pages = 0;
        for (const list of lists) {
          const verb = /verb=(\w+)/.exec(list)![1]!;
          for (let query: string | undefined = list; query !== undefined; pages++) {
            const served: string = await (await fetch(`${running.origin}/oai?${query}`)).text();
            const node = await oai.answer('GET', query, read, new Date());
            expect(withoutDate(served), `?${query}\n${context()}`).toBe(withoutDate(node.body));
            expect(served).not.toContain('<error ');
            const token: string | undefined = /<resumptionToken[^>]*>([^<]+)<\/resumptionToken>/.exec(served)?.[1];
            query = token ? `verb=${verb}&resumptionToken=${encodeURIComponent(unescapeXml(token))}` : undefined;
          }
        }
        // 12 pages of ListRecords, 2 of ListIdentifiers, and those of the set and the windows.
        expect(pages).toBeGreaterThan(20);
      });

      it('HEAD answers the headers alone, and other methods 405 naming GET, HEAD and POST', async () => {
        const head = await fetch(`${running.origin}/oai?verb=Identify`, { method: 'HEAD' });
        expect(head.status, context()).toBe(200);
        expect(head.headers.get('content-type')).toBe(XML_TYPE);
        expect((await head.arrayBuffer()).byteLength).toBe(0);
        const put = await fetch(`${running.origin}/oai?verb=Identify`, { method: 'PUT' });
        expect(put.status, context()).toBe(405);
        expect(put.headers.get('allow')).toBe('GET, HEAD, POST');
      });

      it('the static files around /oai keep their rules: the lists, their redirect and the repository files', async () => {
        const list = await fetch(`${running.origin}/api/volumes/`);
        expect(list.status, context()).toBe(200);
        expect(list.headers.get('content-type')).toBe('application/json');
        expect(list.headers.get('allow')).toBe('GET');
        const moved = await fetch(`${running.origin}/api/volumes`, { redirect: 'manual' });
        expect(moved.status).toBe(301);
        const items = await fetch(`${running.origin}/oai/items.json`);
        expect(items.status).toBe(200);
        expect(await items.text()).toBe(await readFile(path.join(site.dist, 'oai', 'items.json'), 'utf8'));
      });
    },
  );
}

function unescapeXml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}
