/**
 * The citation files (render/citations/): every file of the built sample journal read back by
 * citation-js, the parser behind many reference tools, against the content it was built from; and
 * hostile values that must survive each format's escaping.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Cite } from '@citation-js/core';
import '@citation-js/plugin-bibtex';
import '@citation-js/plugin-ris';
import '@citation-js/plugin-csl';
import { parse, parseDocument } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderCitations } from '../scripts/generator/render/citations/citations.ts';
import { asciiLetters, citationKey } from '../scripts/generator/render/citations/citation-key.ts';
import { author, bodyText, manuscript, site, volume } from './helpers/synthetic-site.ts';
import { createWorkspace, REPO_ROOT, type Workspace } from './helpers/workspace.ts';

/** What citation-js reads of a reference: CSL-JSON's fields. */
interface CslName {
  family?: string;
  given?: string;
  literal?: string;
  'non-dropping-particle'?: string;
}
interface CslItem {
  id?: string;
  type?: string;
  title?: string;
  author?: CslName[];
  issued?: { 'date-parts'?: number[][] };
  'container-title'?: string;
  'container-title-short'?: string;
  volume?: string | number;
  page?: string;
  ISSN?: string | string[];
  DOI?: string;
  URL?: string;
  abstract?: string;
  language?: string;
  publisher?: string;
  keyword?: string;
}

const FORMATS = ['bib', 'ris', 'json'] as const;
type Format = (typeof FORMATS)[number];

/**
 * A name as a reader cites it: BibTeX reads `van der Berg, Pieter` as the particle `van der` and the
 * family name `Berg`, which CSL keeps apart; cited, they are one name again.
 */
const cited = ({ family, given, literal, 'non-dropping-particle': particle }: CslName) => ({
  family: particle && family ? `${particle} ${family}` : family,
  given,
  literal,
});

/** Classic BibTeX, when the machine has it (Debian's texlive-binaries, with plain.bst from texlive-base). */
const BIBTEX = (() => {
  try {
    execFileSync('kpsewhich', ['plain.bst'], { stdio: 'pipe' });
    return execFileSync('which', ['bibtex'], { stdio: 'pipe' }).toString().trim();
  } catch {
    return undefined;
  }
})();
if (!BIBTEX) console.warn('classic BibTeX or plain.bst is not installed: its test is skipped');

/** The references citation-js reads in a file's text. */
function readBack(format: Format, text: string): CslItem[] {
  return new Cite(format === 'json' ? JSON.parse(text) : text).data as CslItem[];
}

const ROMAN: Record<string, number> = { I: 1, II: 2, III: 3, IV: 4, V: 5, VI: 6, VII: 7, VIII: 8, IX: 9, X: 10 };

describe('the citation files of the sample journal, read back by citation-js', () => {
  let workspace: Workspace;
  const content = path.join(REPO_ROOT, 'content');
  const record = async (file: string) => parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  const recordsIn = async (folder: string) => {
    const files = (await readdir(path.join(content, folder))).filter((f) => /\.(ya?ml|json)$/.test(f)).sort();
    return new Map(
      await Promise.all(
        files.map(async (f) => [f.replace(/\.[^.]+$/, ''), await record(path.join(content, folder, f))] as const),
      ),
    );
  };
  let journal: Record<string, unknown>;
  let authors: Map<string, Record<string, unknown>>;
  let volumes: Map<string, Record<string, unknown>>;
  let manuscripts: Map<string, Record<string, unknown>>;

  /** The sample's settings with every optional field a citation reads: an abbreviation, an online ISSN, a licence. */
  const settings = async () => {
    const document = parseDocument(await readFile(path.join(content, 'journal.yaml'), 'utf8'));
    document.set('abbreviation', 'Bull. Biol. Stud. Res. Soc.');
    document.set('online_issn', '2545 - 4439');
    document.set('license', 'https://creativecommons.org/licenses/by/4.0/');
    return String(document);
  };

  beforeAll(async () => {
    const journalYaml = await settings();
    workspace = await createWorkspace({ 'journal.yaml': journalYaml }, content);
    expect((await workspace.build()).problems).toEqual([]);
    journal = parse(journalYaml) as Record<string, unknown>;
    [authors, volumes, manuscripts] = (await Promise.all(['authors', 'volumes', 'manuscripts'].map(recordsIn))) as [
      typeof authors,
      typeof volumes,
      typeof manuscripts,
    ];
  });
  afterAll(() => workspace.dispose());

  it('writes three files for every manuscript, and nothing else in citations/', async () => {
    const ids = [...manuscripts.values()].map((m) => Number(m['id']));
    expect(ids.length).toBeGreaterThan(30);
    const files = await readdir(path.join(workspace.paths.out, 'citations'));
    expect(files.sort()).toEqual(ids.flatMap((id) => FORMATS.map((f) => `${id}.${f}`)).sort());
  });

  it('reads back the title, the authors in order, the date, volume, pages, journal, ISSN, DOI and URL of every one', async () => {
    const standard = (issn: unknown) => String(issn).replace(' - ', '-');
    const online = standard(journal['online_issn']);
    let withDoi = 0;
    let checked = 0;
    for (const m of manuscripts.values()) {
      // The sample's manuscripts name their volume by its file name (volume: volume-v).
      const volumeRecord =
        volumes.get(String(m['volume'])) ??
        [...volumes.values()].find((v) => Number(v['id']) === Number(m['citation_volume']))!;
      const expected = {
        title: m['citation_title'],
        author: (m['authors'] as (string | { as_published: string })[]).map((ref) => {
          if (typeof ref !== 'string') return { literal: ref.as_published };
          const a = authors.get(ref)!;
          return { family: a['surname'], given: a['name'] };
        }),
        issued: { 'date-parts': [String(m['citation_date']).split('-').map(Number)] },
        'container-title': journal['title'],
        'container-title-short': journal['abbreviation'],
        volume: String(ROMAN[String(volumeRecord['citation_journal_title']).replace('Volume ', '')]),
        page: m['first_page'] === undefined ? undefined : `${String(m['first_page'])}-${String(m['last_page'])}`,
        // The manuscript's ISSN (the journal's when it has none), then the online one.
        ISSN: `${standard(m['citation_issn'] || journal['citation_issn'])}, ${online}`,
        keyword: String(m['keywords']).replace(/\.$/, '').split(', '),
        DOI: m['doi'],
        URL: `${String(journal['base_url'])}/manuscripts/${Number(m['id'])}`,
        type: 'article-journal',
      };
      for (const format of FORMATS) {
        const text = await readFile(
          path.join(workspace.paths.out, 'citations', `${Number(m['id'])}.${format}`),
          'utf8',
        );
        const items = readBack(format, text);
        expect(items, `${Number(m['id'])}.${format}`).toHaveLength(1);
        const item = items[0]!;
        expect(
          {
            title: item.title,
            author: item.author?.map(cited),
            issued: item.issued,
            'container-title': item['container-title'],
            'container-title-short': item['container-title-short'],
            volume: String(item.volume),
            page: item.page,
            // BibTeX's issn holds one ISSN, the print one: biber refuses two.
            ISSN: format === 'bib' ? `${String(item.ISSN)}, ${online}` : item.ISSN,
            // citation-js joins RIS's KW lines with a bare comma.
            keyword: item.keyword?.split(/, ?/),
            DOI: item.DOI,
            URL: item.URL,
            type: item.type,
          },
          `${Number(m['id'])}.${format}`,
        ).toEqual({
          ...expected,
          keyword: Array.isArray(m['keywords']) ? m['keywords'] : expected.keyword,
          author: expected.author.map((a) => ({ family: undefined, given: undefined, literal: undefined, ...a })),
        });
        checked++;
      }
      if (m['doi'] !== undefined) withDoi++;
    }
    expect(checked).toBe(manuscripts.size * 3);
    expect(withDoi).toBeGreaterThan(0);
  });

  it('reads Cyrillic names back as the same given and family names', async () => {
    const ana = [...manuscripts.values()].find((m) => (m['authors'] as unknown[]).includes('ana-petrovska'))!;
    for (const format of FORMATS) {
      const text = await readFile(
        path.join(workspace.paths.out, 'citations', `${Number(ana['id'])}.${format}`),
        'utf8',
      );
      expect(readBack(format, text)[0]!.author).toContainEqual(
        expect.objectContaining({ family: 'Петровска', given: 'Ана' }),
      );
    }
  });

  it('writes RIS lines as the specification says: tag, two spaces, hyphen, space; CR LF; one record', async () => {
    for (const m of manuscripts.values()) {
      const ris = await readFile(path.join(workspace.paths.out, 'citations', `${Number(m['id'])}.ris`), 'utf8');
      expect(ris.endsWith('ER  - \r\n')).toBe(true);
      const lines = ris.slice(0, -2).split('\r\n');
      expect(lines[0]).toBe('TY  - JOUR');
      expect(lines.filter((line) => line.startsWith('ER  - '))).toEqual(['ER  - ']);
      for (const line of lines) expect(line).toMatch(/^[A-Z][A-Z0-9] {2}- \S(?:.*\S)?$|^ER {2}- $/);
      expect(ris.replaceAll('\r\n', '')).not.toMatch(/[\r\n\u2028\u2029]/);
    }
  });
  it.skipIf(!BIBTEX)('classic BibTeX with plain.bst prints every title with its capitals', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'bibtex-'));
    try {
      const ids = [...manuscripts.values()].map((m) => Number(m['id']));
      const entries = await Promise.all(
        ids.map((id) => readFile(path.join(workspace.paths.out, 'citations', `${id}.bib`), 'utf8')),
      );
      await writeFile(path.join(folder, 'refs.bib'), entries.join('\n'));
      await writeFile(path.join(folder, 'doc.aux'), '\\citation{*}\n\\bibstyle{plain}\n\\bibdata{refs}\n');
      const { stdout } = await promisify(execFile)(BIBTEX!, ['doc'], { cwd: folder });
      expect(stdout).not.toMatch(/error|Warning/i);
      // plain.bst writes `\newblock <title>.`, lines wrapped at spaces; braces only protect case.
      const bbl = (await readFile(path.join(folder, 'doc.bbl'), 'utf8'))
        .replace(/\s+/g, ' ')
        .replace(/[{}]/g, '')
        .replace(/\\([&%_#$])/g, '$1');
      for (const m of manuscripts.values()) expect(bbl).toContain(`\\newblock ${String(m['citation_title'])}`);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('gives biber nothing it refuses: one ISSN in issn, no publisher in an @article', async () => {
    for (const m of manuscripts.values()) {
      const bib = await readFile(path.join(workspace.paths.out, 'citations', `${Number(m['id'])}.bib`), 'utf8');
      expect(bib).toMatch(/\n {2}issn = \{\d{4}-\d{3}[\dX]\},\n/);
      expect(bib).not.toMatch(/\n {2}publisher = /);
    }
  });

  it('gives Zotero every field: both ISSNs on one RIS line, the abbreviation as Zotero names it in CSL-JSON', async () => {
    const online = String(journal['online_issn']).replace(' - ', '-');
    for (const m of manuscripts.values()) {
      const id = Number(m['id']);
      const ris = await readFile(path.join(workspace.paths.out, 'citations', `${id}.ris`), 'utf8');
      // Zotero keeps the first of repeated SN lines and drops the others.
      expect(ris.match(/^SN {2}- .*$/gm)).toEqual([
        `SN  - ${String(m['citation_issn'] || journal['citation_issn']).replace(' - ', '-')}, ${online}`,
      ]);
      const [item] = JSON.parse(
        await readFile(path.join(workspace.paths.out, 'citations', `${id}.json`), 'utf8'),
      ) as Record<string, unknown>[];
      expect(item).toMatchObject({
        journalAbbreviation: journal['abbreviation'],
        'container-title-short': journal['abbreviation'],
      });
    }
  });
});

describe('hostile values, through each format', () => {
  const ana = author('ana', 'Ана Марија', 'Петровска', 'Skopje');
  const comma = author('comma', 'Jane', 'Doe, Jr.', 'Oxford');
  const and = author('and', 'Ivan', 'Ivanov and Petrov', 'Sofia');
  const title = 'A {curly} 50% of \\ a back\\slash } # $ & _ ~ ^ p < 0.01, a > b | c stays';
  const fileOf = (format: Format, fields: Parameters<typeof manuscript>[1]) => {
    const s = site({
      authors: [ana, comma, and],
      volumes: [volume(1, 'Volume V', '2023-01-01')],
      manuscripts: [manuscript(7, fields)],
    });
    return bodyText(renderCitations(s).find((o) => o.path === `citations/7.${format}`));
  };

  it.each(FORMATS)('%s: a title with LaTeX specials, braces and a backslash reads back exactly', (format) => {
    const text = fileOf(format, { citation_title: title, authors: ['ana'] });
    expect(readBack(format, text).map((item) => item.title)).toEqual([title]);
  });

  it('BibTeX: the specials are escaped, the braces balance, and no % can start a comment', () => {
    const bib = fileOf('bib', { citation_title: title, authors: ['ana'] });
    // `<`, `>` and `|` print as ¡, ¿ and — in LaTeX's default font encoding; BibTeX counts a brace
    // after a backslash too, so a lone brace is written as a command.
    expect(bib).toContain(
      'title = {A \\textbraceleft{}curly\\textbraceright{} 50\\% of \\textbackslash{} a back\\textbackslash{}slash \\textbraceright{} \\# \\$ \\& \\_ \\textasciitilde{} \\textasciicircum{} p \\textless{} 0.01, a \\textgreater{} b \\textbar{} c stays}',
    );
    let depth = 0;
    for (const c of bib) {
      depth += c === '{' ? 1 : c === '}' ? -1 : 0;
      expect(depth).toBeGreaterThanOrEqual(0);
    }
    expect(depth).toBe(0);
  });

  it('BibTeX: no field but a link holds a character TeX reads specially, or one OT1 prints as another', () => {
    const bib = fileOf('bib', {
      citation_title: title,
      abstract: '<p>p < 0.05 &amp; a > b | 100% of $5 #1 x_1 ~2^3</p>',
      keywords: 'a_b, 50%, <c>.',
      authors: ['ana', 'comma'],
    });
    const fields = [...bib.matchAll(/^ {2}(\w+) = (.*?),?$/gm)].filter(
      ([, name]) => !['doi', 'url', 'pdf'].includes(name!),
    );
    expect(fields.map(([, name]) => name)).toEqual(
      expect.arrayContaining(['title', 'journal', 'abstract', 'keywords']),
    );
    for (const [, name, value] of fields) {
      // Each escape is a backslash and a command (or a special after it); nothing else is left raw.
      const left = value!.replace(/\\[a-z]+\{\}|\\[#$%&_]/g, '');
      expect(left, name).not.toMatch(/[#$%&_~^<>|\\]/);
    }
  });

  it('RIS: a title with the end tag inside does not end the record', () => {
    const ris = fileOf('ris', { citation_title: 'Stop ER  - here', authors: ['ana', 'comma'] });
    const items = readBack('ris', ris);
    expect(items).toHaveLength(1);
    // Runs of white space are one space in RIS: the separator cannot appear inside a value.
    expect(items[0]!.title).toBe('Stop ER - here');
    expect(items[0]!.author?.map((a) => a.family)).toEqual(['Петровска', 'Doe Jr.']);
    expect(items[0]!.URL).toBe('https://journal.example.org/manuscripts/7');
  });

  it('RIS: an abstract of several paragraphs and line breaks is one line', () => {
    const ris = fileOf('ris', { abstract: '<p>One.</p>\n<p>Two<br>three\u2028four.</p>', authors: ['ana'] });
    expect(ris).toContain('\r\nAB  - One. Two three four.\r\n');
    expect(readBack('ris', ris)[0]!.abstract).toBe('One. Two three four.');
  });

  it.each(['bib', 'json'] as const)('%s: names with a comma or the word "and" keep their parts', (format) => {
    const text = fileOf(format, { authors: ['ana', 'comma', 'and', { as_published: 'M. Nikolov' }] });
    const names = readBack(format, text)[0]!.author!.map(({ family, given, literal }) => ({ family, given, literal }));
    expect(names).toEqual([
      { family: 'Петровска', given: 'Ана Марија', literal: undefined },
      { family: 'Doe, Jr.', given: 'Jane', literal: undefined },
      { family: 'Ivanov and Petrov', given: 'Ivan', literal: undefined },
      // BibTeX has no literal name: a braced one is read as one family name.
      format === 'bib'
        ? { family: 'M. Nikolov', given: undefined, literal: undefined }
        : { family: undefined, given: undefined, literal: 'M. Nikolov' },
    ]);
  });

  it('CSL-JSON: one item of type article-journal, with the PDF in custom', () => {
    const [item] = JSON.parse(fileOf('json', { authors: ['ana'] })) as Record<string, unknown>[];
    expect(item).toMatchObject({
      id: 'petrovska2021-7',
      type: 'article-journal',
      custom: { pdf: 'https://media.example.org/media/pdfs/m-7.pdf' },
    });
  });
});

describe('the citation key', () => {
  it('is the first family name in ASCII letters, the year and the id', () => {
    expect(citationKey({ family: 'Петровска' }, 2021, 7)).toBe('petrovska2021-7');
    expect(citationKey({ family: 'Παπαδοπούλου' }, 2020, 12)).toBe('papadopoulou2020-12');
    expect(citationKey({ family: 'Kovačić-Đurić' }, 2019, 3)).toBe('kovacicdjuric2019-3');
    expect(citationKey({ literal: 'M. van der Berg' }, 2022, 5)).toBe('berg2022-5');
    expect(citationKey(undefined, 2022, 5)).toBe('ms2022-5');
    expect(citationKey({ family: '山田' }, 2022, 6)).toBe('ms2022-6');
    expect(asciiLetters('Ѓорѓиева-Ќосе')).toMatch(/^[a-z]+$/);
  });
});
