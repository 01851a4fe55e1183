/**
 * The OAI-PMH repository as a harvester meets it in the preview (`npm start`): the build copies the
 * handler (oai/handler.js, `_worker.js`, `_routes.json`) only where journal.yaml has `oai`; the
 * sample journal harvested verb by verb, every list followed through its tokens, by set and by
 * days, each manuscript fetched alone, and each error; a synthetic journal of several pages
 * harvested whole by the real harvester `oai_pmh` (Debian libhttp-oai-perl), and by a window of
 * days; and `npm run dev`, which answers from the site in memory and follows an edit. Every
 * response is checked against the protocol's schemas, in one xmllint run.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSyntheticJournal } from '../scripts/bench/synthetic-journal.ts';
import { createDevServer } from '../scripts/dev/dev-server.ts';
import { build } from '../scripts/generator/build.ts';
import { openLiveBuild } from '../scripts/generator/live-build.ts';
import { createPreviewServer, type PreviewServer } from '../scripts/preview/server.ts';
import { projectPaths } from '../scripts/project.ts';
import {
  canValidate,
  datestampsIn,
  errorCodes,
  harvest,
  identifiersIn,
  readOaiIndex,
  validateResponses,
  type OaiIndex,
} from './helpers/oai.ts';
import { createWorkspace, REPO_ROOT, type Workspace } from './helpers/workspace.ts';
import { send } from './servers/http-client.ts';

const run = promisify(execFile);
const OAI_SETTING = '\noai:\n  admin_email: editor@journal.example.org\n';

/** The real harvester; CI installs it (.ci/run). */
const harvesterInstalled = await run('oai_pmh', ['--help']).then(
  () => true,
  (error: { code?: unknown }) => error.code !== 'ENOENT',
);
const withHarvester = harvesterInstalled || Boolean(process.env['CI']);
if (!withHarvester) console.warn('oai_pmh is not installed (Debian libhttp-oai-perl): the real harvester is skipped');

type Index = OaiIndex;

/** Every protocol answer of the file, for the schema check at the end. */
const answered: string[] = [];

afterAll(async () => {
  if (!canValidate || answered.length === 0) return;
  const { code, report } = await validateResponses(answered);
  expect(report.split('\n').filter((line) => !line.endsWith(' validates') && line !== '')).toEqual([]);
  expect(code).toBe(0);
});

/** Serves a built output with the preview, and asks its `/oai` as a harvester does. */
async function startPreview(dist: string) {
  const server: PreviewServer = createPreviewServer({ root: dist });
  const { port } = await server.listen(0, '127.0.0.1');
  const origin = `http://127.0.0.1:${port}`;
  const ask = async (query: string, method = 'GET') => {
    const response =
      method === 'POST' ? await post(origin, query) : await send(origin, method, `/oai?${query}`.replace(/\?$/, ''));
    expect(response.status).toBe(200);
    expect(response.headers).toContainEqual(['content-type', 'text/xml; charset=utf-8']);
    const body = response.body.toString('utf8');
    if (method !== 'HEAD') answered.push(body);
    return body;
  };
  return { origin, ask, close: () => server.close() };
}

function post(origin: string, body: string) {
  return fetch(`${origin}/oai`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body,
  }).then(async (response) => ({
    status: response.status,
    headers: [...response.headers.entries()],
    body: Buffer.from(await response.arrayBuffer()),
  }));
}

describe('the build', () => {
  it('copies the handler, as nginx and Cloudflare Pages take it, only where journal.yaml has oai', async () => {
    const without = await createWorkspace();
    const withOai = await createWorkspace();
    try {
      expect(await readFile(path.join(without.paths.content, 'journal.yaml'), 'utf8')).not.toMatch(/^oai:/m);
      await appendFile(path.join(withOai.paths.content, 'journal.yaml'), OAI_SETTING);
      expect((await without.build()).ok).toBe(true);
      expect((await withOai.build()).ok).toBe(true);
      for (const file of ['oai', '_worker.js', '_routes.json'])
        expect(existsSync(path.join(without.paths.out, file)), file).toBe(false);

      const handler = await readFile(path.join(REPO_ROOT, 'scripts/oai/handler.js'));
      expect(await readFile(path.join(withOai.paths.out, 'oai/handler.js'))).toEqual(handler);
      expect(await readFile(path.join(withOai.paths.out, '_worker.js'))).toEqual(handler);
      expect(await readFile(path.join(withOai.paths.out, '_routes.json'), 'utf8')).toBe(
        '{"version":1,"include":["/oai"],"exclude":[]}\n',
      );
      // A build after it takes the copies as they are.
      const again = await withOai.build();
      expect(again.ok).toBe(true);
      expect(await readFile(path.join(withOai.paths.out, '_worker.js'))).toEqual(handler);
    } finally {
      await without.dispose();
      await withOai.dispose();
    }
  });
});

/** A copy of the sample journal, which publishes the repository. */
async function sampleWorkspace(): Promise<Workspace> {
  const workspace = await createWorkspace({}, path.join(REPO_ROOT, 'content'));
  const journal = await readFile(path.join(workspace.paths.content, 'journal.yaml'), 'utf8');
  if (!/^oai:/m.test(journal)) await appendFile(path.join(workspace.paths.content, 'journal.yaml'), OAI_SETTING);
  return workspace;
}

describe('the sample journal in the preview', () => {
  let workspace: Workspace;
  let index: Index;
  let preview: Awaited<ReturnType<typeof startPreview>>;
  let manuscripts: number[];

  beforeAll(async () => {
    workspace = await sampleWorkspace();
    const result = await workspace.build();
    expect(result.problems).toEqual([]);
    index = await readOaiIndex(workspace.paths.out);
    const list = JSON.parse(await readFile(path.join(workspace.paths.out, 'api/manuscripts/index.json'), 'utf8'));
    manuscripts = (list as { id: number }[]).map((manuscript) => manuscript.id);
    preview = await startPreview(workspace.paths.out);
  });

  afterAll(async () => {
    await preview?.close();
    await workspace?.dispose();
  });

  const identifierOf = (id: number) => `${index.identifierPrefix}${id}`;

  it('Identify, ListMetadataFormats (of the repository and of a record) and ListSets', async () => {
    expect(await preview.ask('verb=Identify')).toContain('<baseURL>https://bulletin.example.org/oai</baseURL>');
    for (const query of ['verb=ListMetadataFormats', `verb=ListMetadataFormats&identifier=${identifierOf(1)}`])
      expect(await preview.ask(query)).toContain('<metadataPrefix>oai_dc</metadataPrefix>');
    const sets = await preview.ask('verb=ListSets');
    expect([...sets.matchAll(/<setSpec>([^<]+)<\/setSpec>/g)].map((m) => m[1])).toEqual(index.sets);
  });

  it('ListIdentifiers and ListRecords give every manuscript once, as GetRecord gives it alone', async () => {
    const identifiers = await harvest(preview.ask, 'verb=ListIdentifiers&metadataPrefix=oai_dc');
    const records = await harvest(preview.ask, 'verb=ListRecords&metadataPrefix=oai_dc');
    const every = manuscripts.map(identifierOf).sort();
    expect([...identifiers.identifiers].sort()).toEqual(every);
    expect([...records.identifiers].sort()).toEqual(every);
    expect(records.identifiers).toEqual(identifiers.identifiers);
    for (const id of manuscripts) {
      const record = await readFile(path.join(workspace.paths.out, `oai/records/${id}.xml`), 'utf8');
      const body = await preview.ask(`verb=GetRecord&metadataPrefix=oai_dc&identifier=${identifierOf(id)}`);
      expect(body).toContain(`<GetRecord>${record}</GetRecord>`);
      expect(records.pages.join('\n')).toContain(record);
    }
  });

  it('by set, and by a window of days', async () => {
    const bySet = new Map<string, string[]>();
    for (const set of index.sets) {
      const { identifiers } = await harvest(preview.ask, `verb=ListIdentifiers&metadataPrefix=oai_dc&set=${set}`);
      expect(identifiers.length, set).toBeGreaterThan(0);
      bySet.set(set, identifiers);
    }
    const volumes = index.sets.filter((set) => set.startsWith('volume-')).flatMap((set) => bySet.get(set)!);
    expect(volumes.sort()).toEqual(manuscripts.map(identifierOf).sort());

    const days = index.items.map((item) => item[1]);
    const [from, until] = [days[5]!, days[days.length - 6]!];
    const window = await harvest(preview.ask, `verb=ListRecords&metadataPrefix=oai_dc&from=${from}&until=${until}`);
    expect(window.identifiers).toEqual(
      index.items.filter((item) => item[1] >= from && item[1] <= until).map((item) => identifierOf(item[0])),
    );
    expect(window.pages.flatMap(datestampsIn).every((day) => day >= from && day <= until)).toBe(true);
  });

  it('each error, with the answer to a POST and to a HEAD', async () => {
    const errors: [string, string][] = [
      ['verb=Harvest', 'badVerb'],
      ['verb=ListRecords&metadataPrefix=oai_dc&from=2020-01-01T00:00:00Z', 'badArgument'],
      ['verb=ListRecords&resumptionToken=ListRecords%2Coai_dc%2C%2C%2C%2C2020-01-01%2C1%2Cx', 'badResumptionToken'],
      ['verb=ListRecords&metadataPrefix=marc21', 'cannotDisseminateFormat'],
      [`verb=GetRecord&metadataPrefix=oai_dc&identifier=${identifierOf(9999)}`, 'idDoesNotExist'],
      ['verb=ListIdentifiers&metadataPrefix=oai_dc&from=2999-01-01', 'noRecordsMatch'],
    ];
    for (const [query, code] of errors) expect(errorCodes(await preview.ask(query)), query).toEqual([code]);

    const query = `verb=GetRecord&metadataPrefix=oai_dc&identifier=${encodeURIComponent(identifierOf(1))}`;
    const posted = await preview.ask(query, 'POST');
    expect(identifiersIn(posted)).toEqual([identifierOf(1)]);
    expect(posted.replace(/<responseDate>[^<]+/, '')).toBe(
      (await preview.ask(query)).replace(/<responseDate>[^<]+/, ''),
    );
    expect(await preview.ask(query, 'HEAD')).toBe('');
  });

  it('leaves every other path as it was', async () => {
    const put = await send(preview.origin, 'PUT', '/oai?verb=Identify');
    expect(put.status).toBe(405);
    expect(put.headers).toContainEqual(['allow', 'GET, HEAD, POST']);
    expect((await send(preview.origin, 'GET', '/oai/items.json')).status).toBe(200);
    expect((await send(preview.origin, 'GET', '/oai/')).status).toBe(404);
    expect((await send(preview.origin, 'GET', '/api/manuscripts/')).status).toBe(200);
  });
});

describe('a journal of several pages', () => {
  const MANUSCRIPTS = 450;
  let root: string;
  let dist: string;
  let index: Index;
  let preview: Awaited<ReturnType<typeof startPreview>>;

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'oai-harvest-'));
    const journal = await generateSyntheticJournal(root, { manuscripts: MANUSCRIPTS });
    await appendFile(path.join(journal.content, 'journal.yaml'), OAI_SETTING);
    const paths = projectPaths(root);
    const result = await build(paths, 'build');
    expect(result.problems).toEqual([]);
    dist = paths.out;
    index = await readOaiIndex(dist);
    preview = await startPreview(dist);
  }, 300_000);

  afterAll(async () => {
    await preview?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  const every = () => index.items.map((item) => `${index.identifierPrefix}${item[0]}`);

  it('ListRecords in pages of 40 and ListIdentifiers in pages of 400, each manuscript once', async () => {
    const records = await harvest(preview.ask, 'verb=ListRecords&metadataPrefix=oai_dc');
    expect(records.pages).toHaveLength(Math.ceil(MANUSCRIPTS / 40));
    expect(records.identifiers).toEqual(every());
    const identifiers = await harvest(preview.ask, 'verb=ListIdentifiers&metadataPrefix=oai_dc');
    expect(identifiers.pages).toHaveLength(2);
    expect(identifiers.identifiers).toEqual(every());
  });

  describe.skipIf(!withHarvester)('the harvester oai_pmh', () => {
    /** The identifiers of a harvest by oai_pmh, which prints each record's header lines. */
    async function harvestWith(...args: string[]): Promise<string[]> {
      const { stdout } = await run('oai_pmh', [...args, `${preview.origin}/oai`], {
        maxBuffer: 256 * 1024 * 1024,
        env: { ...process.env, PERL_UNICODE: 'S' },
      });
      return [...stdout.matchAll(/(?:^|\f)identifier: (.+)$/gm)].map((m) => m[1]!);
    }

    it('harvests the whole repository through its resumption tokens, each manuscript once', async () => {
      const harvested = await harvestWith('-X', 'ListRecords', '--metadataPrefix', 'oai_dc');
      expect(harvested).toEqual(every());
    });

    it('harvests a window of days', async () => {
      const days = index.items.map((item) => item[1]);
      const [from, until] = [days[50]!, days[400]!];
      const harvested = await harvestWith(
        '-X',
        'ListRecords',
        '--metadataPrefix',
        'oai_dc',
        '--from',
        from,
        '--until',
        until,
      );
      const expected = index.items.filter((item) => item[1] >= from && item[1] <= until);
      expect(expected.length).toBeGreaterThan(40);
      expect(harvested).toEqual(expected.map((item) => `${index.identifierPrefix}${item[0]}`));
    });

    it('harvests a set', async () => {
      const set = index.sets.indexOf('volume-1');
      const harvested = await harvestWith('-X', 'ListIdentifiers', '--metadataPrefix', 'oai_dc', '--set', 'volume-1');
      const expected = index.items.filter((item) => item[2].includes(set));
      expect(expected.length).toBeGreaterThan(40);
      expect(harvested).toEqual(expected.map((item) => `${index.identifierPrefix}${item[0]}`));
    });
  });
});

describe('npm run dev', () => {
  it('answers /oai from the site in memory, and follows an edit', async () => {
    const workspace = await sampleWorkspace();
    const live = await openLiveBuild(workspace.paths);
    const dev = createDevServer(live);
    try {
      const { port } = await dev.listen(0, '127.0.0.1');
      const ask = async (query: string) => {
        const response = await send(`http://127.0.0.1:${port}`, 'GET', `/oai?${query}`);
        expect(response.status).toBe(200);
        expect(response.headers).toContainEqual(['content-type', 'text/xml; charset=utf-8']);
        answered.push(response.body.toString('utf8'));
        return response.body.toString('utf8');
      };
      const getRecord = 'verb=GetRecord&metadataPrefix=oai_dc&identifier=oai:bulletin.example.org:1';
      expect(await ask(getRecord)).toContain('<dc:title>New records of Salamandra salamandra');

      const file = path.join(workspace.paths.content, 'manuscripts/petrovska-2023-salamandra.yaml');
      const text = await readFile(file, 'utf8');
      await workspace.write(
        'manuscripts/petrovska-2023-salamandra.yaml',
        `${text.replace(/^citation_title: .*$/m, 'citation_title: Salamanders of Galičica, revised')}modified: 2025-01-02\n`,
      );
      expect(await live.update([file])).toBe(true);
      const edited = await ask(getRecord);
      expect(edited).toContain('<dc:title>Salamanders of Galičica, revised</dc:title>');
      expect(edited).toContain('<datestamp>2025-01-02</datestamp>');
      const since = await ask('verb=ListIdentifiers&metadataPrefix=oai_dc&from=2025-01-01');
      expect(identifiersIn(since)).toEqual(['oai:bulletin.example.org:1']);
    } finally {
      await dev.close();
      await workspace.dispose();
    }
  });
});
