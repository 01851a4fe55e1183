/**
 * Huge values in one record: a list of keywords or authors longer than any journal prints, an
 * abstract of megabytes. Each is either written (the renderers take any length without running out
 * of stack) or refused at its field's line with the limit stated, in one run with every other
 * problem: never a stack trace, and never a build that holds a copy of the text per output.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Problem } from '../scripts/generator/model/problems.ts';
import { FIELD_LIMITS, RECORD_FILE_LIMIT } from '../scripts/generator/model/field-limits.ts';
import { RENDERERS } from '../scripts/generator/render/renderers.ts';
import { parseFile } from '../scripts/generator/stages/parse.ts';
import { createWorkspace, type Workspace } from './helpers/workspace.ts';
import { manuscript, site, volume } from './helpers/synthetic-site.ts';

let workspace: Workspace | undefined;
afterEach(async () => {
  await workspace?.dispose();
  workspace = undefined;
});

const where = (p: Problem) => `${p.code} ${p.file}:${p.line}:${p.column} ${p.field}`;

/** The fixture's salamanders.yaml with some fields replaced (each given as its YAML lines). */
function salamanders(fields: { title?: string; abstract?: string; keywords?: string; authors?: string }): string {
  return [
    'id: 7',
    'volume: Volume I',
    `citation_title: ${fields.title ?? 'Distribution of the fire salamander in the Jakupica mountains'}`,
    'citation_date: 2021-03-04',
    `abstract: ${fields.abstract ?? '<p>New localities.</p>'}`,
    `keywords:${fields.keywords ?? '\n  - Salamandra salamandra\n  - distribution'}`,
    'document: pdfs/salamanders.pdf',
    `authors:${fields.authors ?? '\n  - ana-petrovska\n  - jane-doe'}`,
    'section: Zoology',
    '',
  ].join('\n');
}

const listOf = (count: number, item: (i: number) => string) =>
  '\n' + Array.from({ length: count }, (_, i) => `  - ${item(i)}`).join('\n');

/** Every file every renderer makes of the site, each made whole, as the write stage makes it. */
function renderEverything(manuscripts: ReturnType<typeof manuscript>[]): Map<string, string> {
  const whole = site({ volumes: [volume(1, 'Volume I', '2021-12-01')], manuscripts });
  const files = new Map<string, string>();
  for (const renderer of RENDERERS)
    for (const file of renderer.render(whole)) {
      const { body } = file;
      if (typeof body === 'string') files.set(file.path, body);
      else if (body instanceof Uint8Array) files.set(file.path, Buffer.from(body).toString('utf8'));
      else {
        let text = '';
        for (const part of body()) text += String(part);
        files.set(file.path, text);
      }
    }
  return files;
}

describe('the renderers write a record of any length', () => {
  it('200,000 keywords: every output, the landing page head included', () => {
    const keywords = Array.from({ length: 200_000 }, (_, i) => `kw${i}`).join(', ') + '.';
    const files = renderEverything([manuscript(1, { keywords })]);
    const page = files.get('manuscripts/1.html')!;
    expect(page.split('<meta name="citation_keywords"')).toHaveLength(200_001);
    expect(page).toContain('<meta property="article:tag" content="kw199999">');
  });

  it('200,000 authors kept as published', () => {
    const authors = Array.from({ length: 200_000 }, (_, i) => ({ as_published: `Person ${i}` }));
    const files = renderEverything([manuscript(1, { authors })]);
    expect(files.get('manuscripts/1.html')!.split('<meta name="citation_author"')).toHaveLength(200_001);
  });
});

describe('a value over its limit is a problem at its line, with the limit', () => {
  it('130,000 keywords: refused at the field, not a stack trace', async () => {
    workspace = await createWorkspace({
      'manuscripts/salamanders.yaml': salamanders({ keywords: listOf(130_000, (i) => `keyword ${i}`) }),
    });
    const result = await workspace.build();
    expect(result.problems.map(where)).toEqual(['schema/too-long content/manuscripts/salamanders.yaml:7:3 keywords']);
    expect(result.problems[0]!.message).toMatch(/^are 1,\d{3},\d{3} characters long/);
    expect(result.problems[0]!.expected).toContain('10,000 characters');
  });

  it('keywords written as one string over the limit', async () => {
    const keywords = ' ' + 'a, '.repeat(FIELD_LIMITS.keywords / 3) + 'b.';
    workspace = await createWorkspace({ 'manuscripts/salamanders.yaml': salamanders({ keywords }) });
    const result = await workspace.build('check');
    expect(result.problems.map(where)).toEqual(['schema/too-long content/manuscripts/salamanders.yaml:6:11 keywords']);
  });

  it('more authors than the largest collaborations sign: refused, 130,000 of them not a stack trace', async () => {
    for (const count of [FIELD_LIMITS.authors + 1, 130_000]) {
      workspace = await createWorkspace({
        'manuscripts/salamanders.yaml': salamanders({ authors: listOf(count, () => 'ana-petrovska') }),
      });
      const result = await workspace.build();
      expect(result.problems.map(where)).toEqual(['schema/too-long content/manuscripts/salamanders.yaml:11:3 authors']);
      expect(result.problems[0]!.expected).toContain('10,000 authors');
      await workspace.dispose();
      workspace = undefined;
    }
  });

  it('an abstract, a title and a plain field just over their limits; every one reported in one run', async () => {
    workspace = await createWorkspace({
      'manuscripts/salamanders.yaml': salamanders({
        title: 'T'.repeat(FIELD_LIMITS.title + 1),
        abstract: `"<p>${'a'.repeat(FIELD_LIMITS.abstract - 6)}</p>"`,
      }),
      'authors/ana-petrovska.yaml': `name: Ana\nsurname: Petrovska\ninstitution: ${'I'.repeat(FIELD_LIMITS.plainText + 1)}\n`,
    });
    const result = await workspace.build('check');
    expect(result.problems.map(where)).toEqual([
      'schema/too-long content/authors/ana-petrovska.yaml:3:14 institution',
      'schema/too-long content/manuscripts/salamanders.yaml:3:17 citation_title',
      'schema/too-long content/manuscripts/salamanders.yaml:5:11 abstract',
    ]);
    const [institution, title, abstract] = result.problems;
    expect(institution!.message).toBe('is 1,001 characters long, over the limit of 1,000');
    expect(title!.expected).toContain('2,000 characters');
    expect(abstract!.message).toBe('is 100,001 characters long, over the limit of 100,000');
    expect(abstract!.expected).toContain('100,000 characters');
  });

  it('values at their limits are published; characters are counted, not UTF-16 units', async () => {
    const abstract = `<p>${'𝔘'.repeat(FIELD_LIMITS.abstract - 7)}</p>`;
    workspace = await createWorkspace({
      'manuscripts/salamanders.yaml': salamanders({
        title: 'T'.repeat(FIELD_LIMITS.title),
        abstract: `"${abstract}"`,
        authors: listOf(FIELD_LIMITS.authors, () => 'ana-petrovska'),
      }),
    });
    const result = await workspace.build();
    expect(result.problems).toEqual([]);
    expect(result.ok).toBe(true);
  });
});

describe('a record file larger than any record', () => {
  it("is refused unparsed, at its longest line and that line's field; one just under the limit is parsed", async () => {
    const over = `"<p>${'a'.repeat(RECORD_FILE_LIMIT)}</p>"`;
    // A block scalar: the longest line is a continuation, the field is named on the line above.
    const block = `|-\n  <p>short</p>\n  <p>${'b'.repeat(RECORD_FILE_LIMIT)}</p>`;
    const json = JSON.stringify({ id: 9, abstract: 'c'.repeat(RECORD_FILE_LIMIT) });
    const under = `"<p>${'d'.repeat(RECORD_FILE_LIMIT - 1000)}</p>"`;
    workspace = await createWorkspace({
      'manuscripts/salamanders.yaml': salamanders({ abstract: over }),
      'manuscripts/orchids.yaml': salamanders({ abstract: block }).replace('id: 7', 'id: 8'),
      'manuscripts/beetles.json': json,
      'manuscripts/under.yaml': salamanders({ abstract: under }).replace('id: 7', 'id: 10'),
    });
    const result = await workspace.build('check');
    expect(result.problems.map(where)).toEqual([
      'io/too-large content/manuscripts/beetles.json:1:1 ',
      'io/too-large content/manuscripts/orchids.yaml:7:3 abstract',
      'io/too-large content/manuscripts/salamanders.yaml:5:11 abstract',
      'schema/too-long content/manuscripts/under.yaml:5:11 abstract',
    ]);
    expect(result.problems[2]!.message).toBe(
      'the file is 16.0 MB, more than a record file may be; line 5 alone is 16.0 MB',
    );
    expect(result.problems[2]!.expected).toContain('a record file of at most 16 MB');
  });
});

describe('a file of many mistakes', () => {
  // Each line's block was looked for through every line above it: 20,000 lines took over a minute.
  it('20,000 lines indented with a tab: one problem each, in seconds', { timeout: 20_000 }, () => {
    const text = Array.from({ length: 20_000 }, (_, i) => `\tk${i}: v`).join('\n') + '\n';
    const { problems } = parseFile('content/manuscripts/tabs.yaml', Buffer.from(text));
    expect(problems).toHaveLength(20_000);
    expect(problems.at(-1)!.message).toBe('starts with a tab');
  });

  // The yaml package looked for each key through every key before it.
  it('100,000 fields and one of them again: that one, in seconds', { timeout: 20_000 }, () => {
    const text = Array.from({ length: 100_000 }, (_, i) => `k${i}: v\n`).join('') + 'k7: again\n';
    const { problems } = parseFile('content/manuscripts/twice.yaml', Buffer.from(text));
    expect(problems).toEqual([expect.objectContaining({ code: 'parse/syntax', line: 100_001, column: 1 })]);
    expect(problems[0]!.message).toBe('has the field "k7" twice');
  });
});

describe('a journal with more problems than a call can take arguments', () => {
  it('140,000 unknown authors in 14 manuscripts: every one reported at its line', async () => {
    const files: Record<string, string> = {};
    for (let m = 0; m < 14; m++)
      files[`manuscripts/m${m}.yaml`] = salamanders({
        authors: listOf(FIELD_LIMITS.authors, (i) => `nobody-${m}-${i}`),
      }).replace('id: 7', `id: ${100 + m}`);
    workspace = await createWorkspace(files);
    const result = await workspace.build('check');
    expect(result.problems).toHaveLength(140_000);
    expect(new Set(result.problems.map((p) => p.code))).toEqual(new Set(['ref/unknown-author']));
    expect(where(result.problems.at(-1)!)).toBe('ref/unknown-author content/manuscripts/m9.yaml:10010:5 authors[9999]');
  });
});

describe('the command line', () => {
  it('reports every huge value with the others, exit code 1, no stack trace', async () => {
    workspace = await createWorkspace({
      'manuscripts/salamanders.yaml': salamanders({
        keywords: listOf(130_000, (i) => `k${i}`),
        authors: listOf(130_000, () => 'ana-petrovska'),
      }),
      'authors/ana-petrovska.yaml': 'name: Ana\nsurname: Petrovska\n',
    });
    const { code, stdout, stderr } = await workspace.cli('build');
    expect(code).toBe(1);
    const report = stdout + stderr;
    expect(report).not.toMatch(/\n\s+at /);
    expect(report).toContain('content/manuscripts/salamanders.yaml:7:3 keywords: are 1,0');
    expect(report).toContain(
      'content/manuscripts/salamanders.yaml:130009:3 authors: are 130,000 authors, over the limit of 10,000',
    );
    expect(report).toContain('content/authors/ana-petrovska.yaml:1:1 institution: is missing');
  });
});
