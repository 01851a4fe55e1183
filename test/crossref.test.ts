/**
 * `npm run crossref -- <volume>` (docs/crossref.md): the deposit validates against Crossref's own
 * schema (5.3.1, vendored in test/fixtures/schemas/crossref/ with its origin), carries the titles'
 * and abstracts' markup, ORCID iDs and pages; what it needs and does not find is reported at its
 * line, all at once, and nothing is written.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timestampOf } from '../scripts/crossref/command.ts';
import { createWorkspace, REPO_ROOT, VALID_JOURNAL, type Workspace } from './helpers/workspace.ts';

const run = promisify(execFile);
const SCHEMAS = path.join(REPO_ROOT, 'test/fixtures/schemas/crossref');

/** xmllint comes from Debian's libxml2-utils; CI installs it (.ci/run). */
const installed = await run('xmllint', ['--version']).then(
  () => true,
  () => false,
);
// Skipped with the reason where xmllint is missing; under CI, which installs it, the checks run (and fail).
const xmllint = installed || Boolean(process.env['CI']);
if (!xmllint) console.warn('xmllint is not installed (Debian libxml2-utils): Crossref schema validation is skipped');

/** Validates every file in one run (the schema takes seconds to compile); resolves to xmllint's exit code and report. */
async function validate(...files: string[]): Promise<{ code: number; report: string }> {
  const args = ['--nonet', '--noout', '--schema', path.join(SCHEMAS, 'crossref5.3.1.xsd'), ...files];
  const env = { ...process.env, XML_CATALOG_FILES: path.join(SCHEMAS, 'catalog.xml') };
  try {
    const { stderr } = await run('xmllint', args, { env });
    return { code: 0, report: stderr };
  } catch (error) {
    const failed = error as { code?: number; stderr?: string };
    return { code: failed.code ?? -1, report: failed.stderr ?? '' };
  }
}

const JOURNAL = await readFile(path.join(VALID_JOURNAL, 'journal.yaml'), 'utf8');
const SETTINGS = `crossref:
  depositor_name: Test Society
  depositor_email: editor@journal.example.org
  registrant: Test Society, Skopje
  doi_prefix: "10.1234"
`;

const MARKED_UP = `id: 7
volume: Volume I
citation_title: Distribution of <i>Salamandra salamandra</i> at 10<sup>3</sup> m, with <b>H<sub>2</sub>O</b> & more
citation_date: 2021-03-04
abstract: >-
  A first line outside any paragraph, with <em>Salamandra</em>.
  <p>We report <strong>new</strong> localities<br>of the <i>fire salamander</i>
  (<a href="https://example.org/map?a=1&amp;b=2">map</a>) at 12 °C &amp; 5&nbsp;km.</p>
  <p></p>
keywords:
  - Salamandra salamandra
document: pdfs/salamanders.pdf
authors:
  - ana-petrovska
  - jane-doe
  - as_published: J. Smith
section: Zoology
doi: 10.1234/test.7
first_page: "3"
last_page: "12"
license: https://creativecommons.org/licenses/by/4.0/
`;

const TIMESTAMP = '20240131120000';

describe('the deposit of a volume', () => {
  let sample: Workspace;
  let marked: Workspace;
  let sampleRun: { code: number; stdout: string; stderr: string };
  let markedRun: { code: number; stdout: string; stderr: string };
  beforeAll(async () => {
    sample = await createWorkspace({}, path.join(REPO_ROOT, 'content'));
    marked = await createWorkspace({
      'journal.yaml': JOURNAL + SETTINGS,
      'manuscripts/salamanders.yaml': MARKED_UP,
      'authors/ana-petrovska.yaml':
        'name: Ана\nsurname: Петровска\ninstitution: Институт за биологија, Скопје\norcid: 0000-0002-1825-0097\n',
    });
    [sampleRun, markedRun] = await Promise.all([
      sample.cli('crossref', '5', '--timestamp', TIMESTAMP),
      marked.cli('crossref', 'volume-i', '--timestamp', TIMESTAMP),
    ]);
  }, 60_000);
  afterAll(async () => {
    await sample.dispose();
    await marked.dispose();
  });

  it('writes crossref/volume-<n>.xml outside dist/, and says so', () => {
    expect(sampleRun.code, sampleRun.stderr).toBe(0);
    expect(sampleRun.stdout).toMatch(/^Wrote crossref\/volume-5\.xml: 3 manuscripts of Volume V with a DOI/);
    expect(existsSync(path.join(sample.root, 'crossref/volume-5.xml'))).toBe(true);
    expect(existsSync(path.join(sample.root, 'dist'))).toBe(false);
    expect(markedRun.code, markedRun.stderr).toBe(0);
  });

  it.skipIf(!xmllint)(
    "validates against Crossref's schema 5.3.1: the sample journal's, and one with every kind of markup",
    async () => {
      const { code, report } = await validate(
        path.join(sample.root, 'crossref/volume-5.xml'),
        path.join(marked.root, 'crossref/volume-1.xml'),
      );
      expect(report).toMatch(/volume-5\.xml validates/);
      expect(report).toMatch(/volume-1\.xml validates/);
      expect(code, report).toBe(0);
    },
    60_000,
  );

  it.skipIf(!xmllint)(
    'the validation can fail: a deposit without its timestamp, and one with a bare ORCID iD, are refused',
    async () => {
      const xml = await readFile(path.join(marked.root, 'crossref/volume-1.xml'), 'utf8');
      await marked.write('../broken-1.xml', xml.replace(/<timestamp>\d+<\/timestamp>\n/, ''));
      await marked.write('../broken-2.xml', xml.replace('<ORCID>https://orcid.org/', '<ORCID>'));
      const { code, report } = await validate(
        path.join(marked.root, 'broken-1.xml'),
        path.join(marked.root, 'broken-2.xml'),
      );
      expect(code).toBe(3);
      expect(report).toMatch(/broken-1\.xml fails to validate/);
      expect(report).toMatch(/broken-2\.xml fails to validate/);
    },
    60_000,
  );

  it("gives a title's markup as Crossref's face markup, and the abstract as JATS", async () => {
    const xml = await readFile(path.join(marked.root, 'crossref/volume-1.xml'), 'utf8');
    expect(xml).toContain(
      '<titles><title>Distribution of <i>Salamandra salamandra</i> at 10<sup>3</sup> m, with <b>H</b><b><sub>2</sub></b><b>O</b> &amp; more</title></titles>',
    );
    expect(xml).toContain(
      '<jats:abstract><jats:p>A first line outside any paragraph, with <jats:italic>Salamandra</jats:italic>.</jats:p>' +
        '<jats:p>We report <jats:bold>new</jats:bold> localities of the <jats:italic>fire salamander</jats:italic> ' +
        '(<jats:ext-link ext-link-type="uri" xlink:href="https://example.org/map?a=1&amp;b=2">map</jats:ext-link>) at 12 °C &amp; 5\u00a0km.</jats:p></jats:abstract>',
    );
  });

  it('gives the ORCID iDs, affiliations, pages, dates, licence and landing page', async () => {
    const xml = await readFile(path.join(marked.root, 'crossref/volume-1.xml'), 'utf8');
    expect(xml).toContain(
      '<person_name sequence="first" contributor_role="author"><given_name>Ана</given_name><surname>Петровска</surname>' +
        '<affiliations><institution><institution_name>Институт за биологија, Скопје</institution_name></institution></affiliations>' +
        '<ORCID>https://orcid.org/0000-0002-1825-0097</ORCID></person_name>',
    );
    expect(xml).toContain(
      '<person_name sequence="additional" contributor_role="author"><surname>J. Smith</surname></person_name>',
    );
    expect(xml).toContain('<pages><first_page>3</first_page><last_page>12</last_page></pages>');
    expect(xml).toContain(
      '<publication_date media_type="online"><month>03</month><day>04</day><year>2021</year></publication_date>',
    );
    expect(xml).toContain(
      '<ai:license_ref applies_to="vor">https://creativecommons.org/licenses/by/4.0/</ai:license_ref>',
    );
    expect(xml).toContain(
      '<doi_data><doi>10.1234/test.7</doi><resource>https://journal.example.org/manuscripts/7</resource></doi_data>',
    );
    expect(xml).toContain(`<doi_batch_id>volume-1-${TIMESTAMP}</doi_batch_id>\n<timestamp>${TIMESTAMP}</timestamp>`);
    // Only the manuscripts with a DOI are deposited.
    expect(xml.match(/<journal_article /g)).toHaveLength(1);
  });

  it('never writes into dist/, which is published: --out elsewhere is taken, --out into dist/ is one sentence', async () => {
    const inside = await marked.cli('crossref', 'I', '--timestamp', TIMESTAMP, '--out', 'dist/deposit.xml');
    expect(inside).toMatchObject({ code: 1, stdout: '' });
    expect(inside.stderr.trim()).toBe(
      'The deposit file may not be written into dist/, which is published: give --out a path outside it.',
    );
    expect(existsSync(path.join(marked.root, 'dist'))).toBe(false);
    const elsewhere = await marked.cli('crossref', 'I', '--timestamp', TIMESTAMP, '--out', 'deposits/2024-01.xml');
    expect(elsewhere.code, elsewhere.stderr).toBe(0);
    expect(await readFile(path.join(marked.root, 'deposits/2024-01.xml'))).toEqual(
      await readFile(path.join(marked.root, 'crossref/volume-1.xml')),
    );
  }, 60_000);

  it('gives the same bytes for the same content and timestamp, from another checkout', async () => {
    const again = await createWorkspace({}, path.join(REPO_ROOT, 'content'));
    try {
      const second = await again.cli('crossref', 'Volume V', '--timestamp', TIMESTAMP);
      expect(second.code, second.stderr).toBe(0);
      expect(await readFile(path.join(again.root, 'crossref/volume-5.xml'))).toEqual(
        await readFile(path.join(sample.root, 'crossref/volume-5.xml')),
      );
    } finally {
      await again.dispose();
    }
  }, 60_000);
});

describe('what stops the deposit', () => {
  it('reports every missing value and DOI outside the prefix at its line, all at once, and writes nothing', async () => {
    const workspace = await createWorkspace({
      'journal.yaml': `${JOURNAL}crossref:\n  registrant: Test Society\n  doi_prefix: "10.1234"\n`,
      'manuscripts/salamanders.yaml': MARKED_UP.replace('doi: 10.1234/test.7', 'doi: 10.9999/test.7'),
      'manuscripts/beetles.json': (
        await readFile(path.join(VALID_JOURNAL, 'manuscripts/beetles.json'), 'utf8')
      ).replace('"section": "Zoology"', '"section": "Zoology",\n  "doi": "10.9999/test.7"'),
    });
    try {
      const journalLines = JOURNAL.split('\n').length;
      const { code, stdout, stderr } = await workspace.cli('crossref', '1', '--timestamp', TIMESTAMP);
      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toContain(
        `content/journal.yaml:${journalLines}:1 crossref.depositor_email: is missing (the e-mail address Crossref sends the result of each deposit to; a deposit needs it)`,
      );
      const lines = stderr.split('\n').filter((line) => /^content\//.test(line));
      expect(lines.map((line) => line.replace(/: .*/, ''))).toEqual([
        `content/journal.yaml:${journalLines}:1 crossref.depositor_email`,
        `content/journal.yaml:${journalLines}:1 crossref.depositor_name`,
        'content/manuscripts/beetles.json:12:10 doi',
        'content/manuscripts/beetles.json:12:10 doi',
        'content/manuscripts/salamanders.yaml:18:6 doi',
      ]);
      expect(stderr).toContain(
        "doi: 10.9999/test.7 is not under the journal's DOI prefix 10.1234 (a DOI that starts with 10.1234/, the crossref.doi_prefix of content/journal.yaml)",
      );
      expect(stderr).toContain('doi: 10.9999/test.7 is also the DOI of content/manuscripts/');
      expect(stderr).toMatch(/No deposit file was written\.\n$/);
      expect(existsSync(path.join(workspace.root, 'crossref'))).toBe(false);
      // The build's own folder is removed too.
      expect(await readdir(path.join(workspace.root, '.cache'))).not.toContainEqual(
        expect.stringMatching(/^crossref-/),
      );
    } finally {
      await workspace.dispose();
    }
  }, 60_000);

  it('an unknown volume, or a volume without DOIs, is one sentence and exit code 1', async () => {
    const workspace = await createWorkspace({ 'journal.yaml': JOURNAL + SETTINGS });
    try {
      const unknown = await workspace.cli('crossref', 'volume-ix');
      expect(unknown).toMatchObject({ code: 1, stdout: '' });
      expect(unknown.stderr.trim()).toBe(
        'No volume is named "volume-ix": give a volume\'s file name, label or numeral (the volumes: Volume II, Volume I).',
      );
      const none = await workspace.cli('crossref', 'II');
      expect(none).toMatchObject({ code: 1, stdout: '' });
      expect(none.stderr.trim()).toBe(
        "Volume II has no manuscript with a doi: fill in each manuscript's doi field first (docs/crossref.md).",
      );
      expect(existsSync(path.join(workspace.root, 'crossref'))).toBe(false);
    } finally {
      await workspace.dispose();
    }
  }, 60_000);

  it("takes the timestamp from the run's time in UTC, or from --timestamp, which is digits", async () => {
    expect(timestampOf(new Date('2024-01-31T12:34:56.789Z'))).toBe('20240131123456');
    const workspace = await createWorkspace({ 'journal.yaml': JOURNAL + SETTINGS });
    try {
      const wrong = await workspace.cli('crossref', 'I', '--timestamp', '2024-01-31');
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toMatch(/^--timestamp is digits, e\.g\. 20240131120000/);
      expect(existsSync(path.join(workspace.root, 'crossref'))).toBe(false);
    } finally {
      await workspace.dispose();
    }
  }, 60_000);

  it('a crossref setting Crossref would refuse is reported by the build at its line', async () => {
    const workspace = await createWorkspace({
      'journal.yaml': JOURNAL + SETTINGS.replace('editor@journal.example.org', 'editor at journal'),
    });
    try {
      const result = await workspace.build('check');
      expect(result.ok).toBe(false);
      expect(result.problems).toMatchObject([
        { file: 'content/journal.yaml', field: 'crossref.depositor_email', line: JOURNAL.split('\n').length + 2 },
      ]);
    } finally {
      await workspace.dispose();
    }
  });
});
