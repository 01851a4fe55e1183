/**
 * The Cloudflare Pages entry of the OAI-PMH handler (`fetch` in scripts/oai/handler.js), in Node:
 * the same answers as `answer`, byte for byte, from files read through `env.ASSETS` as Responses
 * (UTF-8 bodies, with text outside Latin-1), every page of both lists followed; HEAD, a POST form,
 * another method, and paths other than /oai handed to the assets. `wrangler pages dev` runs the
 * same file in test/servers/oai-servers.test.ts where it is installed.
 */
import { describe, expect, it } from 'vitest';
import { indexFiles } from '../scripts/generator/render/oai/oai-index.ts';
import oai from '../scripts/oai/handler.js';
import { resumptionToken } from './helpers/oai.ts';

const ORIGIN = 'https://journal.example.org';
const PREFIX = 'oai:journal.example.org:';
const SETS = ['volume-1', 'volume-2'];

type Item = [number, string, number[]];

/** 300 manuscripts, two a day, in two volumes; titles in Cyrillic, so a page is not Latin-1. */
function repository(): Map<string, string> {
  const items: Item[] = [];
  for (let id = 1; id <= 300; id++)
    items.push([id, new Date(Date.UTC(2023, 0, 1 + Math.floor(id / 2))).toISOString().slice(0, 10), [id % 2]]);
  const files = new Map<string, string>();
  const head = { identifierPrefix: PREFIX, earliestDatestamp: items[0]![1], sets: SETS };
  const indexed = items.map(([id, datestamp, sets]) => ({ id, datestamp, sets }));
  for (const file of indexFiles(head, indexed, { min: 20, spread: 20, max: 80 })) files.set(file.path, file.text);
  files.set(
    'oai/identify.xml',
    `<Identify><repositoryName>Журнал</repositoryName><baseURL>${ORIGIN}/oai</baseURL></Identify>`,
  );
  files.set('oai/formats.xml', '<ListMetadataFormats></ListMetadataFormats>');
  files.set(
    'oai/sets.xml',
    `<ListSets>${SETS.map((set) => `<set><setSpec>${set}</setSpec></set>`).join('')}</ListSets>`,
  );
  for (const [id, datestamp, sets] of items)
    files.set(
      `oai/records/${id}.xml`,
      `<record><header><identifier>${PREFIX}${id}</identifier><datestamp>${datestamp}</datestamp>` +
        `<setSpec>${SETS[sets[0]!]}</setSpec></header><metadata><dc:title>Рукопис ${id} &amp; «наслов»</dc:title></metadata></record>`,
    );
  return files;
}

const files = repository();
const bytes = new Map([...files].map(([file, text]) => [file, new TextEncoder().encode(text)]));
const assetsAsked: string[] = [];
const env = {
  ASSETS: {
    fetch(request: Request | string): Promise<Response> {
      const url = new URL(typeof request === 'string' ? request : request.url);
      assetsAsked.push(url.pathname);
      const body = bytes.get(url.pathname.slice(1));
      return Promise.resolve(body ? new Response(body) : new Response('not found', { status: 404 }));
    },
  },
};
const read = (file: string) => Promise.resolve(files.get(file) ?? null);
const withoutDate = (body: string) => body.replace(/<responseDate>[^<]*<\/responseDate>/, '');

/** The worker's answer and `answer`'s to the same GET, the responseDate aside. */
async function both(query: string): Promise<{ worker: string; expected: string; response: Response }> {
  const response = await oai.fetch(new Request(`${ORIGIN}/oai?${query}`), env);
  const worker = await response.text();
  const expected = (await oai.answer('GET', query, read, new Date())).body;
  return { worker: withoutDate(worker), expected: withoutDate(expected), response };
}

describe('the Cloudflare Pages entry', () => {
  it('answers each verb and each error as `answer` does, byte for byte', async () => {
    for (const query of [
      'verb=Identify',
      'verb=ListMetadataFormats',
      `verb=ListMetadataFormats&identifier=${PREFIX}7`,
      'verb=ListSets',
      `verb=GetRecord&metadataPrefix=oai_dc&identifier=${PREFIX}150`,
      `verb=GetRecord&metadataPrefix=oai_dc&identifier=${PREFIX}999`,
      'verb=ListRecords&metadataPrefix=oai_dc&from=2023-02-01&until=2023-03-01',
      'verb=ListRecords&metadataPrefix=oai_dc&set=volume-3',
      'verb=ListRecords&resumptionToken=ListRecords,oai_dc,,,,2023-01-01,1,x',
      'verb=Harvest',
      'verb=ListRecords',
    ]) {
      const { worker, expected, response } = await both(query);
      expect(response.status).toBe(200);
      expect(response.headers.get('Content-Type')).toBe('text/xml; charset=utf-8');
      expect(worker).toBe(expected);
    }
  });

  it('gives every page of both lists as `answer` does, in a set or not', async () => {
    for (const list of ['ListRecords', 'ListIdentifiers'])
      for (const set of ['', '&set=volume-2']) {
        let query = `verb=${list}&metadataPrefix=oai_dc${set}`;
        let pages = 0;
        for (;;) {
          const { worker, expected } = await both(query);
          expect(worker).toBe(expected);
          expect(worker).not.toContain('<error ');
          pages++;
          const token = resumptionToken(worker);
          if (!token?.token) break;
          query = `verb=${list}&resumptionToken=${encodeURIComponent(token.token)}`;
        }
        expect(pages).toBe(list === 'ListRecords' ? (set ? 4 : 8) : 1);
      }
  });

  it('answers HEAD without a body, a POST form as its GET, 405 to another method', async () => {
    const head = await oai.fetch(new Request(`${ORIGIN}/oai?verb=Identify`, { method: 'HEAD' }), env);
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const post = await oai.fetch(
      new Request(`${ORIGIN}/oai`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'verb=ListRecords&metadataPrefix=oai_dc&set=volume-1',
      }),
      env,
    );
    expect(withoutDate(await post.text())).toBe(
      (await both('verb=ListRecords&metadataPrefix=oai_dc&set=volume-1')).expected,
    );
    const put = await oai.fetch(new Request(`${ORIGIN}/oai`, { method: 'PUT' }), env);
    expect(put.status).toBe(405);
    expect(put.headers.get('Allow')).toBe('GET, HEAD, POST');
  });

  it('hands every other path to the site’s assets', async () => {
    assetsAsked.length = 0;
    const response = await oai.fetch(new Request(`${ORIGIN}/oai/sets.xml`), env);
    expect(await response.text()).toBe(files.get('oai/sets.xml'));
    expect(assetsAsked).toEqual(['/oai/sets.xml']);
  });
});
