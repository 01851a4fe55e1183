/**
 * The benchmark's `oai` step, its last part (oai-harvest.ts runs it): the CPU one request costs
 * the Cloudflare Pages worker, against the Free plan's 10 ms (docs/hosting/cloudflare-pages.md).
 * Cloudflare counts the CPU the isolate spends, not the time it waits for a subrequest, so the
 * worker's `fetch` (scripts/oai/handler.js) is called here with an `env.ASSETS.fetch` that answers
 * from Buffers held in memory, each in a `new Response`: no disk time, but the decoding of every
 * body the handler reads. For each request it prints, in milliseconds of this process's CPU:
 *
 *   - warm: the median and max of WARM_RUNS calls, after the same request once untimed (which reads
 *     its files from the disk into memory, and compiles the code it runs);
 *   - cold: the median and max of COLD_RUNS fresh processes, each timing its first call only, as a
 *     new isolate pays it (Node's own Response and URL are used once before, untimed: workerd has
 *     them built in);
 *   - alone, warm and cold: the same medians of `answer` with the files' texts in memory, without
 *     Response bodies, read or written: what the handler itself costs, since Node's Response is
 *     JavaScript (undici), much of the figures above and most of the cold ones, and workerd's is not.
 *
 * and the median and max over every page of ListIdentifiers and ListRecords, each page timed once,
 * warm. A table of figures, never an assertion: timings are reported, not tested.
 *
 *   tsx scripts/bench/oai-cpu.ts [--handler <a copy of handler.js>] <dist folder>
 */
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type Handler from '../oai/handler.js';

type OaiHandler = typeof Handler;

const TSX = fileURLToPath(import.meta.resolve('tsx'));
/** The handler measured, unless `--handler` names another copy (the code before a change). */
const HANDLER = fileURLToPath(new URL('../oai/handler.js', import.meta.url));
const ORIGIN = 'https://journal.example.org';
const WARM_RUNS = 20;
/** Decodes as a Response's `text()` does. */
const UTF8 = new TextDecoder();
const COLD_RUNS = 3;

/** One request the table measures: its row's name, its query, and whether its answer is an error. */
interface Ask {
  name: string;
  query: string;
  error?: boolean;
}

/** The parts of oai/items.json the requests are made from (docs/oai-pmh.md, "What the build writes"). */
interface IndexHead {
  identifierPrefix: string;
  sets: string[];
  items: { chunks: [string, number, string, number, number][] };
}

/** A chunk's item: `[id, datestamp, set positions]`. */
type Item = [number, string, number[]];

/**
 * The files a request reads, from the disk once, then from memory. A path read before is answered
 * from memory; one the disk does not have is a 404, as the site's assets answer it.
 */
class Files {
  readonly #root: string;
  readonly #bytes = new Map<string, Uint8Array<ArrayBuffer> | null>();
  constructor(root: string) {
    this.#root = root;
  }
  async load(file: string): Promise<Uint8Array<ArrayBuffer> | null> {
    if (!this.#bytes.has(file)) {
      const bytes = await readFile(path.join(this.#root, file)).catch(() => null);
      this.#bytes.set(file, bytes && new Uint8Array(bytes));
    }
    return this.#bytes.get(file)!;
  }
  /** Forgets the records (a whole harvest's would fill the memory), keeps the index. */
  forgetRecords(): void {
    for (const file of this.#bytes.keys()) if (file.startsWith('oai/records/')) this.#bytes.delete(file);
  }
  /** Cloudflare's `env`: the worker's files, each body a Response's, as workerd gives them. */
  env(): { ASSETS: { fetch(request: Request | string): Promise<Response> } } {
    return {
      ASSETS: {
        fetch: async (request) => {
          // The handler asks for `<origin>/<path>`, a path with nothing to decode: no URL parsed
          // here, since the table is of the handler's CPU, not of this stand-in's.
          const file = (typeof request === 'string' ? request : request.url).slice(ORIGIN.length + 1);
          const bytes = this.#bytes.get(file);
          if (bytes === undefined) throw new Error(`${file} was not read before the timed call`);
          return bytes === null ? new Response(null, { status: 404 }) : new Response(bytes);
        },
      },
    };
  }
  /** The handler's own `read`, over the texts: no Response, no decoding. */
  texts(): (file: string) => Promise<string | null> {
    const texts = new Map([...this.#bytes].map(([file, bytes]) => [file, bytes && UTF8.decode(bytes)]));
    return async (file) => {
      const text = texts.get(file);
      if (text === undefined) throw new Error(`${file} was not read before the timed call`);
      return text;
    };
  }
  /** The files read so far: what a fresh process needs in memory for the same request. */
  paths(): string[] {
    return [...this.#bytes.keys()];
  }
}

/** The disk read into memory first, untimed: the same request through `answer`, noting each path. */
async function readThrough(oai: OaiHandler, files: Files, query: string): Promise<string> {
  const reply = await oai.answer('GET', query, (file) => files.load(file).then((b) => b && UTF8.decode(b)), new Date());
  return reply.body;
}

/** Milliseconds of this process's CPU (user and system) that `call` took. */
async function cpuOf(call: () => Promise<unknown>): Promise<number> {
  const before = process.cpuUsage();
  await call();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

/** The worker's entry, as Cloudflare calls it; the Request is made before, as workerd makes it. */
function workerCall(oai: OaiHandler, query: string, env: ReturnType<Files['env']>): () => Promise<Response> {
  const request = new Request(`${ORIGIN}/oai?${query}`);
  return () => oai.fetch(request, env);
}

async function loadHandler(file: string): Promise<OaiHandler> {
  return ((await import(pathToFileURL(file).href)) as { default: OaiHandler }).default;
}

async function workerCpu(dist: string, handler = HANDLER): Promise<string> {
  const oai = await loadHandler(handler);
  const head = JSON.parse(await readFile(path.join(dist, 'oai', 'items.json'), 'utf8')) as IndexHead;
  const asks = await requestsOf(dist, head);
  const lines = [
    `worker CPU a request, ms (Cloudflare's fetch, files from memory; load ${loadAverage()}):`,
    `  ${'request'.padEnd(42)} ${'warm median/max'.padStart(15)}  ${'cold median/max'.padStart(15)}  alone warm, cold`,
  ];
  for (const ask of asks) {
    const files = new Files(dist);
    const expected = await readThrough(oai, files, ask.query);
    const env = files.env();
    await workerCall(oai, ask.query, env)();
    const warm: number[] = [];
    for (let run = 0; run < WARM_RUNS; run++) warm.push(await cpuOf(workerCall(oai, ask.query, env)));
    const body = await (await workerCall(oai, ask.query, env)()).text();
    // The same answer as `answer` gave from the disk, the responseDate aside: else the figures are of something else.
    if (withoutDate(body) !== withoutDate(expected)) throw new Error(`${ask.name}: the worker's answer differs`);
    if (body.includes('<error ') !== Boolean(ask.error)) throw new Error(`${ask.name}: ${body.slice(0, 400)}`);
    const read = files.texts();
    const alone: number[] = [];
    for (let run = 0; run < WARM_RUNS; run++)
      alone.push(await cpuOf(() => oai.answer('GET', ask.query, read, new Date())));
    const cold = coldRuns('--cold', handler, dist, ask.query, files.paths());
    const coldAlone = coldRuns('--cold-alone', handler, dist, ask.query, files.paths());
    lines.push(
      `  ${ask.name.padEnd(42)} ${pair(warm).padStart(15)}  ${pair(cold).padStart(15)}  ${ms(median(alone))}, ${ms(median(coldAlone))}`,
    );
  }
  for (const verb of ['ListIdentifiers', 'ListRecords']) lines.push(await everyPage(oai, dist, verb));
  return lines.join('\n');
}

/** Every page of a list, each timed once in a process that has answered the page before it. */
async function everyPage(oai: OaiHandler, dist: string, verb: string): Promise<string> {
  const files = new Files(dist);
  const times: number[] = [];
  let worst = { ms: -1, cursor: '' };
  let query = `verb=${verb}&metadataPrefix=oai_dc`;
  for (;;) {
    files.forgetRecords();
    const body = await readThrough(oai, files, query);
    if (body.includes('<error ')) throw new Error(`${verb}: ${body.slice(0, 300)}`);
    const time = await cpuOf(workerCall(oai, query, files.env()));
    times.push(time);
    const cursor = /<resumptionToken[^>]* cursor="(\d+)"/.exec(body)?.[1] ?? '0';
    if (time > worst.ms) worst = { ms: time, cursor };
    const token = /<resumptionToken[^>]*>([^<]*)<\/resumptionToken>/.exec(body)?.[1];
    if (!token) break;
    query = `verb=${verb}&resumptionToken=${encodeURIComponent(token.replace(/&amp;/g, '&'))}`;
  }
  return `  ${`${verb}, every page once (${times.length})`.padEnd(42)} ${pair(times).padStart(15)}  (the max at cursor ${worst.cursor})`;
}

/** The first call of fresh processes, each with the request's files in memory before it. */
function coldRuns(mode: string, handler: string, dist: string, query: string, paths: string[]): number[] {
  const times: number[] = [];
  for (let run = 0; run < COLD_RUNS; run++) {
    const output = execFileSync(
      process.execPath,
      ['--import', TSX, fileURLToPath(import.meta.url), mode, handler, dist, query, ...paths],
      {
        encoding: 'utf8',
      },
    );
    times.push(Number(output.trim()));
  }
  return times;
}

/** In a fresh process: the request's files into memory, Node's Response once, then the one call timed. */
async function coldChild(alone: boolean, handler: string, dist: string, query: string, paths: string[]): Promise<void> {
  const files = new Files(dist);
  for (const file of paths) await files.load(file);
  // Node's Response and URL are JavaScript (undici), compiled on first use; workerd's are built in.
  for (const body of [Buffer.from('<x/>'), null]) await new Response(body, { status: body ? 200 : 404 }).text();
  await new Response('<x/>', { status: 200, headers: { 'Content-Type': 'text/xml' } }).text();
  void new URL(`${ORIGIN}/oai?verb=Identify`).search;
  // Imported before the clock starts: workerd compiles a worker's script when the isolate starts, not in a request.
  const oai = await loadHandler(handler);
  const read = files.texts();
  const call = alone ? () => oai.answer('GET', query, read, new Date()) : workerCall(oai, query, files.env());
  console.log(String(await cpuOf(call)));
}

/**
 * The requests: each verb, a list's first page, a page from a token in the middle of the list
 * that spans two chunks of the index, a set's first page, a window of days that cuts two chunks,
 * and each error the handler gives.
 */
async function requestsOf(dist: string, head: IndexHead): Promise<Ask[]> {
  const chunks = head.items.chunks;
  const middle = Math.floor(chunks.length / 2);
  const chunk = async (k: number) =>
    JSON.parse(await readFile(path.join(dist, 'oai', 'items', `${chunks[k]![1]}.json`), 'utf8')) as Item[];
  const items = await chunk(middle);
  const next = middle + 1 < chunks.length ? await chunk(middle + 1) : items;
  const inside = items[Math.floor(items.length / 2)]!;
  const window = `from=${inside[1]}&until=${next[Math.floor(next.length / 2)]![1]}`;
  const identifier = `${head.identifierPrefix}${inside[0]}`;
  const set = head.sets[Math.floor(head.sets.length / 2)];
  const asks: Ask[] = [
    { name: 'Identify', query: 'verb=Identify' },
    { name: 'ListMetadataFormats', query: 'verb=ListMetadataFormats' },
    { name: 'ListMetadataFormats, an identifier', query: `verb=ListMetadataFormats&identifier=${identifier}` },
    { name: 'ListSets', query: 'verb=ListSets' },
    { name: 'GetRecord', query: `verb=GetRecord&metadataPrefix=oai_dc&identifier=${identifier}` },
  ];
  for (const [verb, size] of [
    ['ListIdentifiers', 400],
    ['ListRecords', 40],
  ] as const) {
    // After the item half a page before the middle chunk's end: the page reads that chunk and the next.
    const after = items[Math.max(0, items.length - size / 2)]!;
    asks.push(
      { name: `${verb}, first page`, query: `verb=${verb}&metadataPrefix=oai_dc` },
      {
        name: `${verb}, a middle page by token`,
        query: `verb=${verb}&resumptionToken=${tokenAfter(verb, after, head)}`,
      },
      ...(set ? [{ name: `${verb}, a set's first page`, query: `verb=${verb}&metadataPrefix=oai_dc&set=${set}` }] : []),
      { name: `${verb}, from and until`, query: `verb=${verb}&metadataPrefix=oai_dc&${window}` },
    );
  }
  asks.push(
    { name: 'badVerb', query: 'verb=Harvest' },
    { name: 'badArgument', query: 'verb=ListRecords' },
    { name: 'cannotDisseminateFormat', query: 'verb=ListRecords&metadataPrefix=mods' },
    { name: 'idDoesNotExist', query: `verb=GetRecord&metadataPrefix=oai_dc&identifier=${head.identifierPrefix}0` },
    { name: 'noRecordsMatch', query: 'verb=ListRecords&metadataPrefix=oai_dc&set=no-such-set' },
    { name: 'badResumptionToken', query: 'verb=ListRecords&resumptionToken=ListRecords,oai_dc,,,,2000-01-01,1,x' },
  );
  for (const ask of asks.slice(-6)) ask.error = true;
  return asks;
}

/** A token as the handler writes one (handler.js, `tokenOf`), for the page after `item`. */
function tokenAfter(verb: string, item: Item, head: IndexHead): string {
  const fields = [verb, 'oai_dc', '', '', '', item[1], String(item[0])].join(',');
  let hash = 0x811c9dc5;
  const text = head.identifierPrefix + fields;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return encodeURIComponent(`${fields},${(hash >>> 0).toString(36)}`);
}

const withoutDate = (body: string) => body.replace(/<responseDate>[^<]*<\/responseDate>/, '');
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (value: number) => value.toFixed(2);
const pair = (values: number[]) => `${ms(median(values))} / ${ms(Math.max(...values))}`;
const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

const [first, ...rest] = process.argv.slice(2);
if (first === '--cold' || first === '--cold-alone')
  await coldChild(first === '--cold-alone', rest[0]!, rest[1]!, rest[2]!, rest.slice(3));
else if (first === '--handler') console.log(await workerCpu(path.resolve(rest[1] ?? 'dist'), path.resolve(rest[0]!)));
else console.log(await workerCpu(path.resolve(first ?? 'dist')));
