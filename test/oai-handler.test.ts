/**
 * The OAI-PMH handler (scripts/oai/handler.js) over a hand-made repository in memory, shaped as
 * the build writes it: each verb, each error the protocol names (sections 3 and 4), the echo of
 * the request, the pages and their tokens, and tokens kept across a rebuild. Every response is
 * checked against the protocol's schemas at the end, in one xmllint run.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { CHUNKING, indexFiles, type Chunking } from '../scripts/generator/render/oai/oai-index.ts';
import oai from '../scripts/oai/handler.js';
import {
  canValidate,
  datestampsIn,
  errorCodes,
  harvest,
  identifiersIn,
  requestElement,
  resumptionToken,
  validateResponses,
} from './helpers/oai.ts';

const HOST = 'journal.example.org';
const PREFIX = `oai:${HOST}:`;
const BASE = `https://${HOST}/oai`;
const NOW = new Date('2024-05-06T07:08:09.999Z');
const SETS = ['volume-1', 'volume-2', 'section-botany', 'section-zoology'];

type Item = [number, string, number[]];

/** 450 manuscripts over two years, several on each day: more than a page of each list. */
function sampleItems(count = 450): Item[] {
  const items: Item[] = [];
  for (let id = 1; id <= count; id++) {
    const day = new Date(Date.UTC(2022, 0, 1 + Math.floor(id / 3))).toISOString().slice(0, 10);
    items.push([id, day, [id <= count / 2 ? 0 : 1, ...(id % 5 === 0 ? [] : [id % 2 === 0 ? 2 : 3])]]);
  }
  return sortItems(items);
}

const sortItems = (items: Item[]) => items.sort((a, b) => (a[1] === b[1] ? a[0] - b[0] : a[1] < b[1] ? -1 : 1));

const headerOf = (item: Item) =>
  `<header><identifier>${PREFIX}${item[0]}</identifier><datestamp>${item[1]}</datestamp>` +
  item[2].map((set) => `<setSpec>${SETS[set]}</setSpec>`).join('') +
  '</header>';

/** Chunks of about 40 items: the 450 items are cut in a dozen, and a page reads several. */
const SMALL_CHUNKS: Chunking = { min: 20, spread: 20, max: 80 };

/** The files of a built repository, as the build writes them under oai/ (its index in SMALL_CHUNKS). */
function repositoryFiles(
  items: Item[],
  prefix = PREFIX,
  { records = true, chunking = SMALL_CHUNKS } = {},
): Map<string, string> {
  const files = new Map<string, string>();
  const earliest = items[0]?.[1] ?? '2022-01-01';
  const indexed = items.map(([id, datestamp, sets]) => ({ id, datestamp, sets }));
  const head = { identifierPrefix: prefix, earliestDatestamp: earliest, sets: SETS };
  for (const file of indexFiles(head, indexed, chunking)) files.set(file.path, file.text);
  files.set(
    'oai/identify.xml',
    `<Identify><repositoryName>Journal &amp; Bulletin</repositoryName><baseURL>${BASE}</baseURL>` +
      '<protocolVersion>2.0</protocolVersion><adminEmail>editor@journal.example.org</adminEmail>' +
      `<earliestDatestamp>${earliest}</earliestDatestamp><deletedRecord>no</deletedRecord>` +
      '<granularity>YYYY-MM-DD</granularity></Identify>',
  );
  files.set(
    'oai/formats.xml',
    '<ListMetadataFormats><metadataFormat><metadataPrefix>oai_dc</metadataPrefix>' +
      '<schema>http://www.openarchives.org/OAI/2.0/oai_dc.xsd</schema>' +
      '<metadataNamespace>http://www.openarchives.org/OAI/2.0/oai_dc/</metadataNamespace>' +
      '</metadataFormat></ListMetadataFormats>',
  );
  files.set(
    'oai/sets.xml',
    `<ListSets>${SETS.map((set) => `<set><setSpec>${set}</setSpec><setName>${set}</setName></set>`).join('')}</ListSets>`,
  );
  if (records)
    for (const item of items)
      files.set(
        `oai/records/${item[0]}.xml`,
        `<record>${headerOf(item)}<metadata><oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/"` +
          ' xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"' +
          ' xsi:schemaLocation="http://www.openarchives.org/OAI/2.0/oai_dc/ http://www.openarchives.org/OAI/2.0/oai_dc.xsd">' +
          `<dc:title>Manuscript ${item[0]}</dc:title></oai_dc:dc></metadata></record>`,
      );
  return files;
}

/** Every protocol answer, for the schema check at the end. */
const answered: string[] = [];

function askOf(files: Map<string, string>, method = 'GET') {
  const reads: string[] = [];
  const ask = async (query: string) => {
    const read = (file: string) => {
      reads.push(file);
      return Promise.resolve(files.get(file) ?? null);
    };
    const reply = await oai.answer(method, query, read, NOW);
    expect(reply.status).toBe(200);
    expect(reply.type).toBe('text/xml; charset=utf-8');
    answered.push(reply.body);
    return reply.body;
  };
  return { ask, reads };
}

const items = sampleItems();
const { ask, reads } = askOf(repositoryFiles(items));

afterAll(async () => {
  if (!canValidate) return;
  const { code, report } = await validateResponses(answered);
  expect(report.split('\n').filter((line) => !line.endsWith(' validates') && line !== '')).toEqual([]);
  expect(code).toBe(0);
});

describe('each verb', () => {
  it('Identify: the envelope, responseDate in UTC to the second, the request echoed, the file as written', async () => {
    const body = await ask('verb=Identify');
    expect(body).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
        '<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"' +
        ' xsi:schemaLocation="http://www.openarchives.org/OAI/2.0/ http://www.openarchives.org/OAI/2.0/OAI-PMH.xsd">\n' +
        '<responseDate>2024-05-06T07:08:09Z</responseDate>\n' +
        `<request verb="Identify">${BASE}</request>\n` +
        `${repositoryFiles(items).get('oai/identify.xml')}\n` +
        '</OAI-PMH>\n',
    );
  });

  it('ListMetadataFormats, for the repository and for one item', async () => {
    for (const query of ['verb=ListMetadataFormats', `verb=ListMetadataFormats&identifier=${PREFIX}7`]) {
      const body = await ask(query);
      expect(body).toContain('<ListMetadataFormats><metadataFormat><metadataPrefix>oai_dc</metadataPrefix>');
    }
  });

  it('ListSets', async () => {
    expect(await ask('verb=ListSets')).toContain('<ListSets><set><setSpec>volume-1</setSpec>');
  });

  it('GetRecord: the record file as written, read alone', async () => {
    reads.length = 0;
    const body = await ask(`verb=GetRecord&identifier=${encodeURIComponent(`${PREFIX}12`)}&metadataPrefix=oai_dc`);
    expect(body).toContain(`<GetRecord>${repositoryFiles(items).get('oai/records/12.xml')}</GetRecord>`);
    expect(requestElement(body)).toBe(
      `<request verb="GetRecord" identifier="${PREFIX}12" metadataPrefix="oai_dc">${BASE}</request>`,
    );
    // The head, and the block of ids that holds 12: no list is read.
    expect(reads.sort()).toEqual(['oai/identify.xml', 'oai/items.json', 'oai/items/ids-1.json', 'oai/records/12.xml']);
  });

  it('the same answer to a POST with the arguments in its body, and to a HEAD', async () => {
    const query = 'verb=ListRecords&metadataPrefix=oai_dc&set=volume-2&from=2022-06-01';
    const posted = await askOf(repositoryFiles(items), 'POST').ask(query);
    expect(posted).toBe(await ask(query));
    expect(await askOf(repositoryFiles(items), 'HEAD').ask(query)).toBe(posted);
  });
});

describe('lists in pages', () => {
  it('ListIdentifiers: 400 headers a page from the index alone, as the records have them', async () => {
    reads.length = 0;
    const { pages, identifiers } = await harvest(ask, 'verb=ListIdentifiers&metadataPrefix=oai_dc');
    expect(reads.filter((file) => file.startsWith('oai/records/'))).toEqual([]);
    expect(pages.map((page) => identifiersIn(page).length)).toEqual([400, 50]);
    expect(identifiers).toEqual(items.map((item) => `${PREFIX}${item[0]}`));
    expect(pages[0]).toContain(`${headerOf(items[0]!)}\n${headerOf(items[1]!)}`);
    expect(resumptionToken(pages[0]!)).toMatchObject({ completeListSize: 450, cursor: 0 });
    // The last page of a list given in pages has an empty token.
    expect(pages[1]).toMatch(
      /<resumptionToken completeListSize="450" cursor="400"\/>\n<\/ListIdentifiers>\n<\/OAI-PMH>\n$/,
    );
    expect(requestElement(pages[1]!)).toMatch(/^<request verb="ListIdentifiers" resumptionToken="[^"]+">/);
  });

  it('ListRecords: 40 records a page, one file read each', async () => {
    reads.length = 0;
    const { pages, identifiers } = await harvest(ask, 'verb=ListRecords&metadataPrefix=oai_dc');
    expect(pages).toHaveLength(12);
    expect(pages.slice(0, 11).every((page) => identifiersIn(page).length === 40)).toBe(true);
    expect(identifiers).toEqual(items.map((item) => `${PREFIX}${item[0]}`));
    // The head and identify.xml, the chunks a page falls in, and its records: within Cloudflare's
    // 50 subrequests, and each record once.
    const records = reads.filter((file) => file.startsWith('oai/records/'));
    expect(new Set(records).size).toBe(450);
    expect(records).toHaveLength(450);
    expect(reads.filter((file) => file === 'oai/items.json')).toHaveLength(12);
    expect(reads.filter((file) => file.startsWith('oai/items/')).length).toBeLessThanOrEqual(12 * 3);
  });

  it('a set, and a window of days (both ends included)', async () => {
    const inSet = items.filter((item) => item[2].includes(SETS.indexOf('section-botany')));
    const set = await harvest(ask, 'verb=ListRecords&metadataPrefix=oai_dc&set=section-botany');
    expect(set.identifiers).toEqual(inSet.map((item) => `${PREFIX}${item[0]}`));

    const window = await harvest(ask, 'verb=ListIdentifiers&metadataPrefix=oai_dc&from=2022-02-01&until=2022-02-28');
    const days = window.pages.flatMap(datestampsIn);
    expect(days[0]).toBe('2022-02-01');
    expect(days.at(-1)).toBe('2022-02-28');
    expect(window.identifiers).toEqual(
      items.filter((item) => item[1] >= '2022-02-01' && item[1] <= '2022-02-28').map((item) => `${PREFIX}${item[0]}`),
    );
    // A list in one page has no token at all.
    expect(resumptionToken(window.pages[0]!)).toBeUndefined();
    const oneDay = await ask('verb=ListIdentifiers&metadataPrefix=oai_dc&from=2022-02-01&until=2022-02-01');
    expect(identifiersIn(oneDay)).toHaveLength(3);
  });

  it('a token goes on after its last item in the list a rebuild wrote since', async () => {
    const first = await ask('verb=ListRecords&metadataPrefix=oai_dc');
    const given = identifiersIn(first);
    const token = resumptionToken(first)!.token;
    // The rebuild: an item given is gone, one not yet given is modified (it moves to the end), and
    // two are new, one dated among the items given and one after them all.
    const rebuilt: Item[] = items
      .filter((item) => item[0] !== 5)
      .map((item): Item => (item[0] === 100 ? [100, '2024-01-01', item[2]] : item));
    rebuilt.push([1001, items[3]![1], [0]], [1002, '2024-02-02', [1]]);
    const later = askOf(repositoryFiles(sortItems(rebuilt))).ask;
    const rest = await harvest(later, `verb=ListRecords&resumptionToken=${encodeURIComponent(token)}`, 40);
    const all = [...given, ...rest.identifiers];
    expect(new Set(all).size).toBe(all.length);
    expect(rest.identifiers.slice(-2)).toEqual([`${PREFIX}100`, `${PREFIX}1002`]);
    expect(all).not.toContain(`${PREFIX}1001`); // dated before the token's place: the next harvest's
    expect(all).toHaveLength(450 + 1);
    expect(resumptionToken(rest.pages[0]!)).toMatchObject({ cursor: 40, completeListSize: 450 + 1 });
  });
});

describe('at 100,000 manuscripts', () => {
  // Every request used to parse the whole index (2.7 MB at this size): too slow for nginx's njs and
  // more than a Cloudflare worker's CPU time. A request reads the head and at most two chunks of it.
  const many = sampleItems(100_000);
  const files = repositoryFiles(many, PREFIX, { records: false, chunking: CHUNKING });
  const recordOf = (path: string) => {
    const id = /^oai\/records\/(\d+)\.xml$/.exec(path)?.[1];
    const item = id === undefined ? undefined : many.find((candidate) => String(candidate[0]) === id);
    return item ? `<record>${headerOf(item)}<metadata/></record>` : null;
  };
  const measured = () => {
    const read: { path: string; bytes: number }[] = [];
    const ask = async (query: string) => {
      const reply = await oai.answer(
        'GET',
        query,
        (path) => {
          const text = files.get(path) ?? recordOf(path);
          read.push({ path, bytes: text === null ? 0 : Buffer.byteLength(text) });
          return Promise.resolve(text);
        },
        NOW,
      );
      return reply.body;
    };
    const index = () => read.filter(({ path }) => !path.startsWith('oai/records/'));
    return { ask, read, index, bytes: () => index().reduce((sum, { bytes }) => sum + bytes, 0) };
  };
  const KB = 1024;

  it('Identify, ListSets and ListMetadataFormats read only small files', async () => {
    for (const query of ['verb=Identify', 'verb=ListSets', 'verb=ListMetadataFormats']) {
      const { ask, bytes } = measured();
      expect(errorCodes(await ask(query))).toEqual([]);
      expect(bytes(), query).toBeLessThan(32 * KB);
    }
  });

  it('GetRecord and ListMetadataFormats of one item find it without reading the list', async () => {
    for (const query of [
      `verb=GetRecord&identifier=${PREFIX}77777&metadataPrefix=oai_dc`,
      `verb=ListMetadataFormats&identifier=${PREFIX}77777`,
      `verb=GetRecord&identifier=${PREFIX}100001&metadataPrefix=oai_dc`,
    ]) {
      const { ask, bytes } = measured();
      const body = await ask(query);
      expect(errorCodes(body)).toEqual(query.includes('100001') ? ['idDoesNotExist'] : []);
      expect(bytes(), query).toBeLessThan(64 * KB);
    }
  });

  it('a page of ListRecords or ListIdentifiers reads the head and at most two chunks, in a set or not', async () => {
    const first = await measured().ask('verb=ListRecords&metadataPrefix=oai_dc');
    const queries = [
      'verb=ListRecords&metadataPrefix=oai_dc',
      `verb=ListRecords&resumptionToken=${encodeURIComponent(resumptionToken(first)!.token)}`,
      'verb=ListIdentifiers&metadataPrefix=oai_dc&set=section-zoology',
      'verb=ListRecords&metadataPrefix=oai_dc&set=volume-2',
    ];
    for (const query of queries) {
      const { ask, index, bytes } = measured();
      const body = await ask(query);
      expect(resumptionToken(body), query).toBeDefined();
      expect(index().length, query).toBeLessThanOrEqual(4);
      expect(bytes(), query).toBeLessThan(160 * KB);
    }
    const { ask } = measured();
    expect(resumptionToken(await ask(queries[1]!))).toMatchObject({ completeListSize: 100_000, cursor: 40 });
  });
});

describe('errors', () => {
  const cases: [string, string, string][] = [
    ['no verb', '', 'badVerb'],
    ['an unknown verb', 'verb=ListEverything', 'badVerb'],
    ['a repeated verb', 'verb=Identify&verb=Identify', 'badVerb'],
    ['an empty verb', 'verb=', 'badVerb'],
    ['an argument the verb does not take', 'verb=Identify&metadataPrefix=oai_dc', 'badArgument'],
    ['an argument no verb takes', 'verb=ListSets&page=2', 'badArgument'],
    ['a repeated argument', 'verb=ListRecords&metadataPrefix=oai_dc&set=volume-1&set=volume-2', 'badArgument'],
    ['GetRecord without an identifier', 'verb=GetRecord&metadataPrefix=oai_dc', 'badArgument'],
    ['GetRecord without a metadataPrefix', `verb=GetRecord&identifier=${PREFIX}1`, 'badArgument'],
    ['ListRecords without a metadataPrefix', 'verb=ListRecords', 'badArgument'],
    ['ListIdentifiers without a metadataPrefix', 'verb=ListIdentifiers&set=volume-1', 'badArgument'],
    [
      'a resumptionToken with other arguments',
      'verb=ListRecords&metadataPrefix=oai_dc&resumptionToken=x',
      'badArgument',
    ],
    ['a resumptionToken to a verb that takes none', 'verb=GetRecord&resumptionToken=x', 'badArgument'],
    [
      'a from with a time (finer than days)',
      'verb=ListRecords&metadataPrefix=oai_dc&from=2022-01-01T00:00:00Z',
      'badArgument',
    ],
    ['an until with a time', 'verb=ListIdentifiers&metadataPrefix=oai_dc&until=2022-01-01T00:00:00Z', 'badArgument'],
    ['a day that does not exist', 'verb=ListRecords&metadataPrefix=oai_dc&from=2023-02-29', 'badArgument'],
    ['a date in another form', 'verb=ListRecords&metadataPrefix=oai_dc&from=2023-2-1', 'badArgument'],
    ['an empty from', 'verb=ListRecords&metadataPrefix=oai_dc&from=', 'badArgument'],
    ['from after until', 'verb=ListRecords&metadataPrefix=oai_dc&from=2022-03-02&until=2022-03-01', 'badArgument'],
    ['an identifier that is not a URI', 'verb=GetRecord&metadataPrefix=oai_dc&identifier=no%20uri', 'badArgument'],
    ['a metadataPrefix of characters no prefix has', 'verb=ListRecords&metadataPrefix=oai%20dc', 'badArgument'],
    ['a set that is no setSpec', 'verb=ListRecords&metadataPrefix=oai_dc&set=a%20b', 'badArgument'],
    ['a character XML cannot carry', 'verb=ListSets&resumptionToken=%01', 'badArgument'],
    ['an encoding that is not UTF-8', 'verb=GetRecord&metadataPrefix=oai_dc&identifier=oai:x:%E0%A4', 'badArgument'],
    [
      'another format (GetRecord)',
      `verb=GetRecord&identifier=${PREFIX}1&metadataPrefix=marc21`,
      'cannotDisseminateFormat',
    ],
    ['another format (ListRecords)', 'verb=ListRecords&metadataPrefix=marc21', 'cannotDisseminateFormat'],
    ['another format (ListIdentifiers)', 'verb=ListIdentifiers&metadataPrefix=oai_ddc', 'cannotDisseminateFormat'],
    ['an unknown identifier', `verb=GetRecord&identifier=${PREFIX}9999&metadataPrefix=oai_dc`, 'idDoesNotExist'],
    [
      'an identifier of another repository',
      'verb=GetRecord&identifier=oai:other.org:1&metadataPrefix=oai_dc',
      'idDoesNotExist',
    ],
    ['an unknown identifier (ListMetadataFormats)', `verb=ListMetadataFormats&identifier=${PREFIX}0`, 'idDoesNotExist'],
    ['a set the repository does not have', 'verb=ListRecords&metadataPrefix=oai_dc&set=volume-9', 'noRecordsMatch'],
    ['days after every datestamp', 'verb=ListIdentifiers&metadataPrefix=oai_dc&from=2030-01-01', 'noRecordsMatch'],
    ['days before every datestamp', 'verb=ListRecords&metadataPrefix=oai_dc&until=2001-01-01', 'noRecordsMatch'],
    ['a token to ListSets, whose list is never split', 'verb=ListSets&resumptionToken=x', 'badResumptionToken'],
    ['a garbled token', 'verb=ListRecords&resumptionToken=not-a-token', 'badResumptionToken'],
  ];

  it.each(cases)('%s: %s', async (_, query, code) => {
    const body = await ask(query);
    expect(errorCodes(body)).toEqual([code]);
    // 3.6: after badVerb or badArgument, the request's base URL alone.
    if (code === 'badVerb' || code === 'badArgument') expect(requestElement(body)).toBe(`<request>${BASE}</request>`);
    else expect(requestElement(body)).toMatch(/^<request verb="\w+" /);
  });

  it('a token changed by hand, given for the other list, or by another repository is a badResumptionToken', async () => {
    const token = resumptionToken(await ask('verb=ListRecords&metadataPrefix=oai_dc&set=volume-1'))!.token;
    const fields = token.split(',');
    const changed = [...fields.slice(0, 6), String(Number(fields[6]) + 1), fields[7]].join(',');
    const elsewhere = askOf(repositoryFiles(items, 'oai:other.example.org:')).ask;
    for (const body of [
      await ask(`verb=ListRecords&resumptionToken=${encodeURIComponent(changed)}`),
      await ask(`verb=ListIdentifiers&resumptionToken=${encodeURIComponent(token)}`),
      await elsewhere(`verb=ListRecords&resumptionToken=${encodeURIComponent(token)}`),
    ]) {
      expect(errorCodes(body)).toEqual(['badResumptionToken']);
      expect(requestElement(body)).toMatch(/^<request verb="List(Records|Identifiers)" resumptionToken="/);
    }
    expect(errorCodes(await ask(`verb=ListRecords&resumptionToken=${encodeURIComponent(token)}`))).toEqual([]);
  });

  it('escapes what it echoes', async () => {
    const body = await ask(`verb=GetRecord&metadataPrefix=oai_dc&identifier=${encodeURIComponent(`${PREFIX}1&x='y'`)}`);
    expect(requestElement(body)).toContain(`identifier="${PREFIX}1&amp;x='y'"`);
  });
});

describe('outside the protocol', () => {
  it('another method is refused with 405 and Allow', async () => {
    const reply = await oai.answer('PUT', 'verb=Identify', () => Promise.resolve(null), NOW);
    expect(reply).toMatchObject({ status: 405, allow: 'GET, HEAD, POST' });
  });

  it('a record file missing from the output is said, not answered', async () => {
    const files = repositoryFiles(items);
    files.delete('oai/records/12.xml');
    const read = (file: string) => Promise.resolve(files.get(file) ?? null);
    const query = `verb=GetRecord&metadataPrefix=oai_dc&identifier=${PREFIX}12`;
    await expect(oai.answer('GET', query, read, NOW)).rejects.toThrow(/^oai\/records\/12\.xml is missing/);
  });

  it('a site built without the repository answers 404', async () => {
    const reply = await oai.answer('GET', 'verb=Identify', () => Promise.resolve(null), NOW);
    expect(reply.status).toBe(404);
  });
});
