/**
 * The OAI-PMH repository's files (render/oai/, docs/oai-pmh.md): the sample journal's records and
 * answers, each placed in a whole OAI-PMH response, validated with xmllint against the protocol's
 * schemas (one run for them all), and the static repository against its own; the index's order and
 * datestamps, a `modified` date moving the datestamps of what it touches; no files without `oai`;
 * the same bytes from two builds.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sectionSets } from '../scripts/generator/render/oai/oai-values.ts';
import { renderOai } from '../scripts/generator/render/oai/oai.ts';
import { oaiWarnings } from '../scripts/generator/model/oai-settings.ts';
import { formatProblem } from '../scripts/generator/model/problems.ts';
import { bodyText, manuscript, site, volume } from './helpers/synthetic-site.ts';
import { age, expectSameAsCold } from './helpers/incremental.ts';
import { readOaiIndex } from './helpers/oai.ts';
import { createWorkspace, REPO_ROOT, VALID_JOURNAL, type Workspace } from './helpers/workspace.ts';

const run = promisify(execFile);
const SCHEMAS = path.join(REPO_ROOT, 'test/fixtures/schemas/oai-pmh');

/** xmllint comes from Debian's libxml2-utils; CI installs it (.ci/run). */
const installed = await run('xmllint', ['--version']).then(
  () => true,
  () => false,
);
// Skipped with the reason where xmllint is missing; under CI, which installs it, the checks run (and fail).
const xmllint = installed || Boolean(process.env['CI']);
if (!xmllint) console.warn('xmllint is not installed (Debian libxml2-utils): OAI-PMH schema validation is skipped');

/** xmllint's verdict on each file, in one run: `validates` or `fails to validate`. */
async function validate(schema: string, files: readonly string[]): Promise<Map<string, string>> {
  const args = ['--nonet', '--noout', '--schema', path.join(SCHEMAS, schema), ...files];
  const env = { ...process.env, XML_CATALOG_FILES: path.join(SCHEMAS, 'catalog.xml') };
  const report = await run('xmllint', args, { env }).then(
    ({ stderr }) => stderr,
    (error: { stderr?: string }) => error.stderr ?? '',
  );
  const verdicts = new Map<string, string>();
  for (const line of report.split('\n')) {
    const verdict = / (validates|fails to validate)$/.exec(line);
    if (verdict) verdicts.set(line.slice(0, verdict.index), verdict[1]!);
  }
  if (verdicts.size !== files.length) throw new Error(`xmllint did not judge every file:\n${report}`);
  return verdicts;
}

/** A whole OAI-PMH response around `element` (one of the build's fragments), as the handler answers. */
function response(verb: string, element: string, extra = ''): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.openarchives.org/OAI/2.0/ http://www.openarchives.org/OAI/2.0/OAI-PMH.xsd">',
    '<responseDate>2026-01-01T00:00:00Z</responseDate>',
    `<request verb="${verb}"${extra}>https://bulletin.example.org/oai</request>`,
    element,
    '</OAI-PMH>',
    '',
  ].join('\n');
}

async function readTree(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const name of (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile())) {
    const file = path.join(name.parentPath, name.name);
    files.set(path.relative(dir, file), await readFile(file, 'utf8'));
  }
  return files;
}

const FIXTURE_JOURNAL = await readFile(path.join(VALID_JOURNAL, 'journal.yaml'), 'utf8');
const WITH_OAI = `${FIXTURE_JOURNAL}oai:\n  admin_email: editor@journal.example.org\n`;
/** The line `oai:` is on in WITH_OAI. */
const OAI_LINE = WITH_OAI.split('\n').indexOf('oai:') + 1;

describe('the OAI-PMH files of the sample journal', () => {
  let workspace: Workspace;
  let oai: string;
  let scratch: string;
  beforeAll(async () => {
    workspace = await createWorkspace({}, path.join(REPO_ROOT, 'content'));
    expect((await workspace.build()).problems).toEqual([]);
    oai = path.join(workspace.paths.out, 'oai');
    scratch = await mkdtemp(path.join(os.tmpdir(), 'oai-responses-'));
  });
  afterAll(async () => {
    await workspace.dispose();
    await rm(scratch, { recursive: true, force: true });
  });

  it('writes a record per manuscript, the index, Identify, ListSets, ListMetadataFormats and the static repository', async () => {
    const manuscripts = (await readdir(path.join(REPO_ROOT, 'content/manuscripts'))).length;
    expect((await readdir(path.join(oai, 'records'))).length).toBe(manuscripts);
    // handler.js beside them is the handler's copy (scripts/oai/handler.js), not made from the content.
    expect((await readdir(oai)).filter((name) => name !== 'handler.js').sort()).toEqual([
      'formats.xml',
      'identify.xml',
      'items',
      'items.json',
      'records',
      'sets.xml',
      'static-repository.xml',
    ]);
  });

  it.skipIf(!xmllint)(
    'every record, and Identify, ListSets and ListMetadataFormats, validates in a response; a broken one does not',
    async () => {
      const files: string[] = [];
      const write = async (name: string, text: string) => {
        const file = path.join(scratch, name);
        await writeFile(file, text);
        files.push(file);
        return file;
      };
      for (const name of await readdir(path.join(oai, 'records'))) {
        const record = await readFile(path.join(oai, 'records', name), 'utf8');
        expect(record.startsWith('<record><header><identifier>oai:bulletin.example.org:')).toBe(true);
        expect(record.endsWith('</record>')).toBe(true);
        const id = name.slice(0, -'.xml'.length);
        await write(
          `get-${name}`,
          response(
            'GetRecord',
            `<GetRecord>${record}</GetRecord>`,
            ` identifier="oai:bulletin.example.org:${id}" metadataPrefix="oai_dc"`,
          ),
        );
      }
      const answers = { identify: 'Identify', sets: 'ListSets', formats: 'ListMetadataFormats' };
      for (const [name, verb] of Object.entries(answers)) {
        await write(`${name}.xml`, response(verb, await readFile(path.join(oai, `${name}.xml`), 'utf8')));
      }
      // The check can fail: a record whose title sits in its header.
      const first = (await readdir(path.join(oai, 'records')))[0]!;
      const record = await readFile(path.join(oai, 'records', first), 'utf8');
      const broken = await write(
        'broken.xml',
        response(
          'GetRecord',
          `<GetRecord>${record.replace('</header>', '<dc:title>x</dc:title></header>')}</GetRecord>`,
        ),
      );
      const verdicts = await validate('driver-oai-pmh-response.xsd', files);
      for (const file of files)
        expect(verdicts.get(file), file).toBe(file === broken ? 'fails to validate' : 'validates');
    },
  );

  it.skipIf(!xmllint)(
    'the static repository validates against its schema; one with sets in a header does not',
    async () => {
      const file = path.join(oai, 'static-repository.xml');
      const text = await readFile(file, 'utf8');
      const broken = path.join(scratch, 'static-broken.xml');
      await writeFile(
        broken,
        text.replace('</datestamp></header>', '</datestamp><setSpec>volume-1</setSpec></header>'),
      );
      const verdicts = await validate('driver-static-repository.xsd', [file, broken]);
      expect(verdicts.get(file)).toBe('validates');
      expect(verdicts.get(broken)).toBe('fails to validate');
    },
  );

  it('lists every item by datestamp, then id, with its sets, as each record says', async () => {
    const index = await readOaiIndex(path.dirname(oai));
    expect(index).toMatchObject({ identifierPrefix: 'oai:bulletin.example.org:' });
    const keys = index.items.map(([id, datestamp]) => `${datestamp} ${String(id).padStart(10, '0')}`);
    expect(keys).toEqual([...keys].sort());
    expect(index.earliestDatestamp).toBe(index.items[0]![1]);
    expect(index.sets).toContain('section-short-communications');
    for (const [id, datestamp, sets] of index.items) {
      const record = await readFile(path.join(oai, 'records', `${id}.xml`), 'utf8');
      const header = /<header>(.*?)<\/header>/.exec(record)![1]!;
      const specs = sets.map((i) => `<setSpec>${index.sets[i]}</setSpec>`).join('');
      expect(header).toBe(
        `<identifier>oai:bulletin.example.org:${id}</identifier><datestamp>${datestamp}</datestamp>${specs}`,
      );
    }
    const identify = await readFile(path.join(oai, 'identify.xml'), 'utf8');
    expect(identify).toContain(`<earliestDatestamp>${index.earliestDatestamp}</earliestDatestamp>`);
    expect(identify).toContain('<adminEmail>bulletin@example.org</adminEmail>');
    expect(identify).toContain('<baseURL>https://bulletin.example.org/oai</baseURL>');
  });
});

describe('the OAI-PMH files of a small journal', () => {
  const built: Workspace[] = [];
  const make = async (files: Record<string, string | null>) => {
    const workspace = await createWorkspace(files);
    built.push(workspace);
    const result = await workspace.build();
    return { workspace, result, oai: path.join(workspace.paths.out, 'oai') };
  };
  const datestamps = async (oai: string) => {
    const index = await readOaiIndex(path.dirname(oai));
    return Object.fromEntries(index.items.map(([id, datestamp]) => [id, datestamp]));
  };
  afterAll(async () => {
    for (const workspace of built) await workspace.dispose();
  });

  it('writes no oai/ folder when journal.yaml has no oai', async () => {
    const { result, oai } = await make({});
    expect(result.problems).toEqual([]);
    await expect(readdir(oai)).rejects.toThrow(/ENOENT/);
  });

  it("moves a manuscript's datestamp to the latest modified of it, its volume and its authors", async () => {
    const plain = await make({ 'journal.yaml': WITH_OAI });
    expect(await datestamps(plain.oai)).toEqual({ 3: '2022-02-28', 7: '2021-03-04', 12: '2021-07-15' });
    const author = await readFile(path.join(VALID_JOURNAL, 'authors/marko-nikolov.yaml'), 'utf8');
    const manuscript = await readFile(path.join(VALID_JOURNAL, 'manuscripts/salamanders.yaml'), 'utf8');
    const edited = await make({
      'journal.yaml': WITH_OAI,
      // Marko Nikolov wrote 3 and 12.
      'authors/marko-nikolov.yaml': `${author}modified: 2023-05-01\n`,
      // A date before the manuscript's own is not the latest.
      'manuscripts/salamanders.yaml': `${manuscript}modified: 2020-01-01\n`,
    });
    expect(edited.result.problems).toEqual([]);
    expect(await datestamps(edited.oai)).toEqual({ 3: '2023-05-01', 7: '2021-03-04', 12: '2023-05-01' });
    const index = JSON.stringify((await readOaiIndex(path.dirname(edited.oai))).items);
    expect(index.indexOf('[7,')).toBeLessThan(index.indexOf('[3,'));
    expect(index.indexOf('[3,')).toBeLessThan(index.indexOf('[12,'));
    expect(await readFile(path.join(edited.oai, 'records/3.xml'), 'utf8')).toContain(
      '<datestamp>2023-05-01</datestamp>',
    );
    const volume = await readFile(path.join(VALID_JOURNAL, 'volumes/volume-ii.yaml'), 'utf8');
    const byVolume = await make({
      'journal.yaml': WITH_OAI,
      'volumes/volume-ii.yaml': `${volume}modified: 2024-01-10\n`,
    });
    expect(await datestamps(byVolume.oai)).toEqual({ 3: '2024-01-10', 7: '2021-03-04', 12: '2021-07-15' });
  });

  it('refuses a modified that is not a real date, and an admin_email that is not an address, at their lines', async () => {
    const author = await readFile(path.join(VALID_JOURNAL, 'authors/marko-nikolov.yaml'), 'utf8');
    const { result } = await make({
      'journal.yaml': `${FIXTURE_JOURNAL}oai:\n  admin_email: editor at example.org\n`,
      'authors/marko-nikolov.yaml': `${author}modified: 2023-02-30\n`,
    });
    expect(result.ok).toBe(false);
    const found = result.problems.map((p) => ({ file: p.file, line: p.line, field: p.field, code: p.code }));
    expect(found).toContainEqual({
      file: 'content/journal.yaml',
      line: OAI_LINE + 1,
      field: 'oai.admin_email',
      code: 'schema/format',
    });
    expect(found).toContainEqual({
      file: 'content/authors/marko-nikolov.yaml',
      line: author.split('\n').length,
      field: 'modified',
      code: 'schema/format',
    });
  });

  it("refuses oai on a base_url whose host is not a domain name, which the identifiers need, at oai's line", async () => {
    const { result } = await make({
      'journal.yaml': `${WITH_OAI.replace('https://journal.example.org', 'http://127.0.0.1:8080')}`,
    });
    expect(result.ok).toBe(false);
    expect(result.problems).toMatchObject([
      { file: 'content/journal.yaml', field: 'oai', line: OAI_LINE, code: 'schema/format' },
    ]);
  });

  it("an author's edit after a build gives a cold build's files, and makes only that author's records again", async () => {
    const { workspace, oai } = await make({ 'journal.yaml': WITH_OAI });
    const inode = async (file: string) => (await stat(path.join(oai, file))).ino;
    const before = { three: await inode('records/3.xml'), seven: await inode('records/7.xml') };
    const author = await readFile(path.join(VALID_JOURNAL, 'authors/marko-nikolov.yaml'), 'utf8');
    await workspace.write('authors/marko-nikolov.yaml', `${author.replace('Marko', 'Markó')}modified: 2023-05-01\n`);
    await age(workspace);
    await expectSameAsCold(workspace);
    const record = await readFile(path.join(oai, 'records/3.xml'), 'utf8');
    expect(record).toContain('<datestamp>2023-05-01</datestamp>');
    expect(record).toContain('<dc:creator>Nikolov, Markó</dc:creator>');
    expect(await inode('records/3.xml')).not.toBe(before.three);
    // Manuscript 7 has other authors: its record is the previous build's file.
    expect(await inode('records/7.xml')).toBe(before.seven);
  });

  it('writes the same bytes in two builds of the same content', async () => {
    const first = await make({ 'journal.yaml': WITH_OAI });
    const second = await make({ 'journal.yaml': WITH_OAI });
    const [a, b] = [await readTree(first.oai), await readTree(second.oai)];
    expect([...a.keys()]).toEqual(
      expect.arrayContaining(['records/3.xml', 'records/7.xml', 'records/12.xml', 'items.json', 'identify.xml']),
    );
    expect(b).toEqual(a);
  });

  it('escapes what XML must not hold as text, and gives the title and abstract as plain text', async () => {
    const manuscript = await readFile(path.join(VALID_JOURNAL, 'manuscripts/orchids.yaml'), 'utf8');
    const { result, oai } = await make({
      'journal.yaml': WITH_OAI,
      'manuscripts/orchids.yaml': manuscript
        .replace('citation_title: Orchids of Galičica', 'citation_title: "Orchids <em>&</em> bees of Galičica"')
        .replace('keywords: Orchidaceae, checklist, Galičica.', 'keywords: "Orchidaceae, A&B <x>, Galičica."'),
    });
    expect(result.problems).toEqual([]);
    const record = await readFile(path.join(oai, 'records/3.xml'), 'utf8');
    expect(record).toContain('<dc:title>Orchids &amp; bees of Galičica</dc:title>');
    expect(record).toContain('<dc:subject>A&amp;B &lt;x&gt;</dc:subject>');
    expect(record).toContain('<dc:description>A checklist of Orchis species.</dc:description>');
    expect(record).toContain('<dc:language>mk</dc:language>');
    expect(record).toContain('<dc:creator>Nikolov, Marko</dc:creator>');
  });
});

describe('section sets', () => {
  it("are the name's ASCII letters and digits, or the section's position where that leaves nothing or is shared", () => {
    expect([...sectionSets(['Zoology', 'Short  Communications!', 'Ботаника', 'Eco logy', 'eco-logy', '2024'])]).toEqual(
      [
        ['Zoology', 'section-zoology'],
        ['Short  Communications!', 'section-short-communications'],
        ['Ботаника', 'section-3'],
        ['Eco logy', 'section-4'],
        ['eco-logy', 'section-5'],
        ['2024', 'section-6'],
      ],
    );
  });
});

describe('the renderer on a journal in memory', () => {
  const journal = { oai: { admin_email: 'editor@journal.example.org' } };
  const many = (count: number, sections?: string[]) =>
    site({
      volumes: [volume(1, 'Volume I', '2021-12-01')],
      manuscripts: Array.from({ length: count }, (_, i) =>
        manuscript(i + 1, { section: i % 2 ? 'Botany' : 'Zoology' }),
      ),
      journal: sections ? { ...journal, sections } : journal,
    });

  it('writes the static repository up to 5,000 manuscripts, past that none, and says so in one warning', () => {
    const paths = (count: number) => renderOai(many(count)).map((output) => output.path);
    expect(paths(5000)).toContain('oai/static-repository.xml');
    expect(paths(5001)).not.toContain('oai/static-repository.xml');
    expect(paths(5001)).toContain('oai/records/5001.xml');
    expect(oaiWarnings(journal, 'content/journal.yaml', 5000)).toEqual([]);
    expect(oaiWarnings({}, 'content/journal.yaml', 9000)).toEqual([]);
    const warnings = oaiWarnings(journal, 'content/journal.yaml', 5001);
    expect(warnings).toMatchObject([{ code: 'warn/oai-static-repository', severity: 'warning', field: 'oai' }]);
    expect(formatProblem(warnings[0]!)).toMatch(
      /^content\/journal\.yaml oai: oai\/static-repository\.xml is not written: 5,001 manuscripts are more than the 5,000 records [^\n]+$/,
    );
  });

  it('takes the sections from the manuscripts, in the order they first appear, when journal.yaml lists none', () => {
    const sets = bodyText(renderOai(many(3, undefined)).find((output) => output.path === 'oai/sets.xml'));
    // The synthetic journal lists Zoology and Botany: drop the list.
    const unlisted = site({
      volumes: [volume(1, 'Volume I', '2021-12-01')],
      manuscripts: [manuscript(1, { section: 'Ecology' }), manuscript(2, { section: 'Botany' })],
      journal: { ...journal, sections: undefined },
    });
    const specs = (text: string) => [...text.matchAll(/<setSpec>([^<]*)<\/setSpec>/g)].map((m) => m[1]);
    expect(specs(sets)).toEqual(['volume-1', 'section-zoology', 'section-botany']);
    const outputs = renderOai(unlisted);
    expect(specs(bodyText(outputs.find((output) => output.path === 'oai/sets.xml')))).toEqual([
      'volume-1',
      'section-ecology',
      'section-botany',
    ]);
    expect(bodyText(outputs.find((output) => output.path === 'oai/records/2.xml'))).toContain(
      '<setSpec>volume-1</setSpec><setSpec>section-botany</setSpec></header>',
    );
    // The journal's title holds quotes, an ampersand and angle brackets.
    expect(bodyText(outputs.find((output) => output.path === 'oai/identify.xml'))).toContain(
      '<repositoryName>Bulletin of the &quot;Test&quot; Society &amp; &lt;Friends&gt;</repositoryName>',
    );
  });
});
