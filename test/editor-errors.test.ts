/**
 * What an editor who is not a programmer sees when something is wrong: every mistake in the first
 * run, each at its own line and column, in plain words, with the fix when there is an obvious one.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { build } from '../scripts/generator/build.ts';
import type { Problem } from '../scripts/generator/model/problems.ts';
import { createWorkspace, REPO_ROOT, VALID_JOURNAL, type Workspace } from './helpers/workspace.ts';
import { NEW_MANUSCRIPT } from './helpers/records.ts';
import { parseFile } from '../scripts/generator/stages/parse.ts';

let workspace: Workspace | undefined;
afterEach(async () => {
  await workspace?.dispose();
  workspace = undefined;
});

const where = (p: Problem) => `${p.code} ${p.file}:${p.line}:${p.column} ${p.field}`;

async function problemsFor(files: Record<string, string | null>, mode: 'check' | 'build' = 'check') {
  workspace = await createWorkspace(files);
  const result = await workspace.build(mode);
  expect(result.ok).toBe(false);
  return result.problems;
}

describe('every problem of a record in the first run', () => {
  it.each(['check', 'build'] as const)(
    '%s: a bad date, a duplicate id and a missing PDF in one file are all reported',
    async (mode) => {
      const problems = await problemsFor(
        {
          'manuscripts/new.yaml': NEW_MANUSCRIPT.replace('id: 40', 'id: 7')
            .replace('citation_date: 2022-01-10', 'citation_date: 2022-02-30')
            .replace('pdfs/orchids.pdf', 'pdfs/missing.pdf'),
        },
        mode,
      );
      expect(problems.map(where).sort()).toEqual([
        'media/missing content/manuscripts/new.yaml:7:11 document',
        'ref/duplicate-id content/manuscripts/new.yaml:1:5 id',
        'ref/duplicate-id content/manuscripts/salamanders.yaml:1:5 id',
        'schema/format content/manuscripts/new.yaml:4:16 citation_date',
      ]);
    },
  );

  it('a duplicate id is reported at both files, each naming the other, with the next free id', async () => {
    const problems = await problemsFor({
      'manuscripts/zebra.yaml': NEW_MANUSCRIPT.replace('id: 40', 'id: 3'),
    });
    // With no build cache, nothing tells which file is new: both are told, and the next free id.
    expect(problems.map(where)).toEqual([
      'ref/duplicate-id content/manuscripts/orchids.yaml:1:5 id',
      'ref/duplicate-id content/manuscripts/zebra.yaml:1:5 id',
    ]);
    expect(problems.map((p) => p.message)).toEqual([
      '3 is also the id of content/manuscripts/zebra.yaml',
      '3 is also the id of content/manuscripts/orchids.yaml',
    ]);
    // The fixture's manuscripts have the ids 3, 7 and 12.
    expect(problems[1]!.expected).toBe(
      'an id no other manuscript has: give the manuscript you added the next free id, 13',
    );
  });

  it('a new file named as the web editor names it ("7-...") is the one told to change its id', async () => {
    workspace = await createWorkspace();
    expect((await workspace.build('check')).ok).toBe(true);
    await workspace.write('manuscripts/7-newts.yaml', NEW_MANUSCRIPT.replace('id: 40', 'id: 7'));
    for (const mode of ['check', 'build'] as const) {
      const result = await workspace.build(mode);
      const duplicates = result.problems.filter((p) => p.code === 'ref/duplicate-id');
      expect(duplicates.map(where)).toEqual([
        'ref/duplicate-id content/manuscripts/7-newts.yaml:1:5 id',
        'ref/duplicate-id content/manuscripts/salamanders.yaml:1:5 id',
      ]);
      const [added, published] = duplicates;
      expect(added!.message).toBe(
        '7 is also the id of content/manuscripts/salamanders.yaml, which had it before this file',
      );
      expect(added!.expected).toBe('an id no other manuscript has: the next free id is 13');
      expect(published!.message).toBe(
        '7 is also the id of content/manuscripts/7-newts.yaml, new or edited since the last check or build',
      );
      expect(published!.expected).toBe(
        'this file keeps its id: change the one in content/manuscripts/7-newts.yaml, to the next free id, 13',
      );
    }
    // A pull request's annotations are on both files.
    const { stdout, code } = await workspace.cli('check', '--format', 'github');
    expect(code).toBe(1);
    const annotations = stdout.split('\n').filter((line) => line.startsWith('::error'));
    expect(annotations).toEqual([
      expect.stringMatching(/^::error file=content\/manuscripts\/7-newts\.yaml,line=1,col=5,title=id::id: 7 is also/),
      expect.stringMatching(
        /^::error file=content\/manuscripts\/salamanders\.yaml,line=1,col=5,title=id::id: 7 is also/,
      ),
    ]);
  });

  it('an invalid record with a duplicate id is still reported as a duplicate', async () => {
    const problems = await problemsFor({
      'manuscripts/zebra.yaml': NEW_MANUSCRIPT.replace('id: 40', 'id: 12').replace(
        'citation_title: A new record\n',
        '',
      ),
    });
    expect(problems.map(where).sort()).toEqual([
      'ref/duplicate-id content/manuscripts/beetles.json:2:9 id',
      'ref/duplicate-id content/manuscripts/zebra.yaml:1:5 id',
      'schema/missing content/manuscripts/zebra.yaml:1:1 citation_title',
    ]);
    expect(problems.find((p) => p.file.endsWith('zebra.yaml') && p.code === 'ref/duplicate-id')!.message).toBe(
      '12 is also the id of content/manuscripts/beetles.json',
    );
  });

  it('an invalid volume with a duplicate id is still reported as a duplicate', async () => {
    const problems = await problemsFor({
      'volumes/volume-x.yaml':
        'id: 2\ncitation_journal_title: Volume X\nfirst_page: "1"\nlast_page: "9"\nfull_date: 2021-12-01\npdf: volumes/pdfs/2021/volume-i.pdf\n',
    });
    expect(problems.map(where)).toContain('schema/missing content/volumes/volume-x.yaml:1:1 udc');
    const duplicate = problems.filter((p) => p.code === 'ref/duplicate-id');
    expect(duplicate.map(where)).toEqual([
      'ref/duplicate-id content/volumes/volume-i.yaml:1:5 id',
      'ref/duplicate-id content/volumes/volume-x.yaml:1:5 id',
    ]);
    expect(duplicate[1]!.message).toBe('2 is also the id of content/volumes/volume-i.yaml');
  });
});

describe("a volume's field error and its missing PDF", () => {
  it.each(['check', 'build'] as const)('%s: both are reported in one run', async (mode) => {
    const problems = await problemsFor(
      {
        'volumes/volume-x.yaml':
          'id: 10\ncitation_journal_title: Volume X\nfirst_page: "1"\nlast_page: "9"\nfull_date: 2021-13-01\npdf: volumes/pdfs/2021/volume-x.pdf\n',
      },
      mode,
    );
    expect(problems.map(where).sort()).toEqual([
      'media/missing content/volumes/volume-x.yaml:6:6 pdf',
      'schema/format content/volumes/volume-x.yaml:5:12 full_date',
      'schema/missing content/volumes/volume-x.yaml:1:1 udc',
    ]);
  });
});

describe('unknown fields', () => {
  it('a misspelt field gets "did you mean", once, and no second report that the right one is missing', async () => {
    const problems = await problemsFor({
      'manuscripts/new.yaml': NEW_MANUSCRIPT.replace('citation_title:', 'citation_tittle:'),
    });
    expect(problems.map(where)).toEqual(['schema/unknown-field content/manuscripts/new.yaml:3:1 citation_tittle']);
    expect(problems[0]!.message).toBe('is not a known field; did you mean "citation_title"?');
  });

  it('a field nothing resembles lists the known fields, and a missing field is still reported', async () => {
    const problems = await problemsFor({
      'manuscripts/new.yaml': NEW_MANUSCRIPT.replace('citation_title: A new record\n', 'colour: blue\n'),
    });
    expect(problems.map(where)).toEqual([
      'schema/missing content/manuscripts/new.yaml:1:1 citation_title',
      'schema/unknown-field content/manuscripts/new.yaml:3:1 colour',
    ]);
    expect(problems[1]!.expected).toContain('citation_title');
  });
});

describe('markup problems in an abstract point at the tag itself', () => {
  it.each([
    ['on the same line', 'abstract: <p>Text <script>x</script>.</p>', 5, 19],
    ['in a folded block', 'abstract: >-\n  <p>First line,\n  second <b onclick="x()">line</b>.</p>', 7, 10],
    ['in a literal block', 'abstract: |\n  <p>First line,</p>\n  <p>second <iframe>.</p>', 7, 13],
    ['in a quoted text over two lines', 'abstract: "<p>First line,\n  and <blink>.</p>"', 6, 7],
    ['after an escape in a quoted text', 'abstract: "<p>\\u00e9t\\u00e9 <font>.</p>"', 5, 29],
  ])('%s', async (_name, abstract, line, column) => {
    const problems = await problemsFor({
      'manuscripts/new.yaml': NEW_MANUSCRIPT.replace('abstract: <p>Text.</p>', abstract),
    });
    expect(problems.map(where)).toEqual([`schema/markup content/manuscripts/new.yaml:${line}:${column} abstract`]);
    expect(problems[0]!.message).not.toContain('at character');
  });
});

describe('keywords and markup the pages would have to repair', () => {
  it('a keyword list item holding ";" is an error at the item', async () => {
    const problems = await problemsFor({
      'manuscripts/new.yaml': NEW_MANUSCRIPT.replace('keywords: [one, two]', 'keywords:\n  - one; two\n  - three'),
    });
    expect(problems.map(where)).toEqual(['schema/format content/manuscripts/new.yaml:7:5 keywords[0]']);
    expect(problems[0]!.message).toContain(';');
  });

  it.each([
    ['keywords separated by ";"', 'keywords: [one, two]', 'keywords: one; two; three.', 6, 11, 'keywords'],
    ['an <em> never closed', 'abstract: <p>Text.</p>', 'abstract: <p>A <em>Rana text.</p>', 5, 16, 'abstract'],
    ['a closing tag that closes nothing', 'abstract: <p>Text.</p>', 'abstract: <p>Text.</em></p>', 5, 19, 'abstract'],
    [
      'tags closed in the wrong order',
      'abstract: <p>Text.</p>',
      'abstract: <p><em>A <b>B</em></b></p>',
      5,
      24,
      'abstract',
    ],
  ])(
    '%s: a warning at its place, and the build still publishes (imported data must build)',
    async (_name, from, to, line, column, field) => {
      workspace = await createWorkspace({ 'manuscripts/new.yaml': NEW_MANUSCRIPT.replace(from, to) });
      const result = await workspace.build();
      expect(result.problems).toEqual([]);
      expect(result.ok).toBe(true);
      expect(result.warnings).toEqual([
        expect.stringMatching(new RegExp(`^content/manuscripts/new.yaml:${line}:${column} ${field}: `)),
      ]);
      const { stderr, code } = await workspace.cli('check');
      expect(code).toBe(0);
      expect(stderr).toContain(`Warning: content/manuscripts/new.yaml:${line}:${column} ${field}: `);
    },
  );
});

describe("the sample's example address", () => {
  it("warns while base_url or media_url is still the sample's address, unless asked not to", async () => {
    expect(await readFile(path.join(REPO_ROOT, 'content/journal.yaml'), 'utf8')).toContain(
      'base_url: https://bulletin.example.org\nmedia_url: https://bulletin.example.org\n',
    );
    const fixture = await readFile(path.join(VALID_JOURNAL, 'journal.yaml'), 'utf8');
    const sample = fixture
      .replace(/^base_url: .*$/m, 'base_url: https://bulletin.example.org')
      .replace(/^media_url: .*$/m, 'media_url: https://bulletin.example.org');
    workspace = await createWorkspace({ 'journal.yaml': sample });
    const result = await workspace.build('check');
    expect(result.ok).toBe(true);
    expect(result.warnings).toEqual([
      expect.stringMatching(/^content\/journal.yaml base_url: https:\/\/bulletin.example.org is an example address/),
      expect.stringMatching(/^content\/journal.yaml media_url: https:\/\/bulletin.example.org is an example address/),
    ]);
    const { stderr } = await workspace.cli('build');
    expect(stderr).toContain(
      'Warning: content/journal.yaml base_url: https://bulletin.example.org is an example address',
    );
    const quiet = await build(workspace.paths, 'check', { warnExampleDomains: false });
    expect(quiet.warnings ?? []).toEqual([]);
    await workspace.write('journal.yaml', sample.replaceAll('https://bulletin.example.org', 'https://bulletin.ips.mk'));
    expect((await workspace.build('check')).warnings ?? []).toEqual([]);
  });
});

describe('a " #" inside an unquoted value', () => {
  it('is a problem at the "#", with the quoted line to write, since the rest would be dropped', async () => {
    const problems = await problemsFor({
      'manuscripts/new.yaml': NEW_MANUSCRIPT.replace(
        'citation_title: A new record',
        'citation_title: Newts #1 of Ohrid',
      ),
    });
    expect(problems.map(where)).toEqual(['parse/comment-in-value content/manuscripts/new.yaml:3:23 citation_title']);
    expect(problems[0]!.message).toBe(
      'has " #1 of Ohrid" after "Newts", which YAML reads as a comment: only "Newts" would be published',
    );
    expect(problems[0]!.expected).toBe('the whole value in quotes: citation_title: "Newts #1 of Ohrid"');
    // Reported again when the file comes from the build cache, and by a build.
    expect((await workspace!.build('check')).problems.map(where)).toEqual(problems.map(where));
    expect((await workspace!.build('build')).problems.map(where)).toEqual(problems.map(where));
  });

  it('on the last line of a value written over several lines', async () => {
    const problems = await problemsFor({
      'manuscripts/new.yaml': NEW_MANUSCRIPT.replace(
        'citation_title: A new record',
        'citation_title: Newts of the lakes\n  Ohrid and Prespa #1 of 3',
      ),
    });
    expect(problems.map(where)).toEqual(['parse/comment-in-value content/manuscripts/new.yaml:4:20 citation_title']);
    expect(problems[0]!.expected).toBe(
      'the whole value in quotes: citation_title: "Newts of the lakes Ohrid and Prespa #1 of 3"',
    );
  });

  it('in a list item too; a comment written "# text" after a value stays a comment', async () => {
    const problems = await problemsFor({
      'manuscripts/new.yaml': NEW_MANUSCRIPT.replace('keywords: [one, two]', 'keywords:\n  - C# code\n  - two #2')
        .replace('section: Botany', 'section: Botany # the section since 2020')
        .replace('id: 40', 'id: 40 # checked'),
    });
    expect(problems.map(where)).toEqual(['parse/comment-in-value content/manuscripts/new.yaml:8:9 keywords[1]']);
    expect(problems[0]!.expected).toBe('the whole value in quotes: - "two #2"');
  });
});

describe('messages that say the fix', () => {
  const one = async (from: string, to: string, file = 'manuscripts/new.yaml', base = NEW_MANUSCRIPT) => {
    const problems = await problemsFor({ [file]: base.replace(from, to) });
    expect(problems).toHaveLength(1);
    return problems[0]!;
  };

  it.each([
    ['title:', 'citation_title:', 'title', 'citation_title'],
    ['date:', 'citation_date:', 'date', 'citation_date'],
  ])('"%s" gets "did you mean %s"', async (written, field, key, meant) => {
    const problem = await one(field, written);
    expect(where(problem)).toMatch(new RegExp(`^schema/unknown-field .* ${key}$`));
    expect(problem.message).toBe(`is not a known field; did you mean "${meant}"?`);
  });

  it('a tab starting a line of an abstract block says so, and what to use instead', async () => {
    const problem = await one('abstract: <p>Text.</p>', 'abstract: |\n  <p>Text.</p>\n\t<p>More.</p>');
    expect(where(problem)).toBe('parse/syntax content/manuscripts/new.yaml:7:1 ');
    expect(problem.message).toBe('starts with a tab, inside the text of abstract');
    expect(problem.expected).toBe(
      'spaces: indent every line of the text by the same number of spaces as its first (2)',
    );
  });

  it.each([
    ['volume-7', 'no volume has the key "volume-7": there is no Volume VII'],
    ['Volume VII', 'no volume has the key "Volume VII": there is no Volume VII'],
    ['VII', 'no volume has the key "VII": there is no Volume VII'],
    ['7', 'no volume has the key "7": there is no Volume VII'],
  ])('volume: %s says there is no such volume and lists the volumes', async (written, message) => {
    const problem = await one('volume: volume-ii', `volume: ${written}`);
    expect(where(problem)).toBe('ref/unknown-volume content/manuscripts/new.yaml:2:9 volume');
    expect(problem.message).toBe(message);
    expect(problem.expected).toContain('volume-i (Volume I), volume-ii (Volume II)');
  });

  it.each([
    ['content/media/pdfs/orchids.pdf', 'write document: pdfs/orchids.pdf (the path inside content/media/)'],
    ['orchids.pdf', "write document: pdfs/orchids.pdf (a manuscript's PDF is in content/media/pdfs/)"],
    [
      'pdfs/ORCHIDS.PDF',
      'write document: pdfs/ORCHIDS.pdf, and rename the file so (the name ends in .pdf, in small letters)',
    ],
    [
      'pdfs/my orchids.pdf',
      'write document: pdfs/my-orchids.pdf, and rename the file so (a file name without spaces: letters, digits, ".", "_" and "-")',
    ],
  ])('document: %s says exactly what to write', async (written, expected) => {
    const problem = await one('document: pdfs/orchids.pdf', `document: ${written}`);
    expect(where(problem)).toBe('schema/format content/manuscripts/new.yaml:7:11 document');
    expect(problem.expected).toBe(expected);
  });

  it.each([
    [
      'volume-x.pdf',
      "write pdf: volumes/pdfs/YYYY/volume-x.pdf (a volume's PDF is in content/media/volumes/pdfs/, in the folder of its year)",
    ],
    [
      'content/media/volumes/pdfs/2021/Volume X.PDF',
      'write pdf: volumes/pdfs/2021/Volume-X.pdf, and rename the file so (the path inside content/media/; the name ends in .pdf, in small letters; a file name without spaces: letters, digits, ".", "_" and "-")',
    ],
  ])("a volume's pdf: %s says exactly what to write", async (written, expected) => {
    const volume =
      'id: 10\ncitation_journal_title: Volume X\nudc: "57"\nfirst_page: "1"\nlast_page: "9"\nfull_date: 2021-12-01\npdf: volumes/pdfs/2021/volume-i.pdf\n';
    const problem = await one(
      'pdf: volumes/pdfs/2021/volume-i.pdf',
      `pdf: ${written}`,
      'volumes/volume-x.yaml',
      volume,
    );
    expect(where(problem)).toBe('schema/format content/volumes/volume-x.yaml:7:6 pdf');
    expect(problem.expected).toBe(expected);
  });

  it.each([
    ['28.02.2023', '"28.02.2023" is not written YYYY-MM-DD', 'write 2023-02-28'],
    ['30.02.2023', '"30.02.2023" is not a date: February 2023 has 28 days', 'a real date as YYYY-MM-DD'],
    ['2023-02-30', '"2023-02-30" is not a date: February 2023 has 28 days', 'a real date as YYYY-MM-DD'],
    ['2024-02-30', '"2024-02-30" is not a date: February 2024 has 29 days', 'a real date as YYYY-MM-DD'],
    ['2023-04-31', '"2023-04-31" is not a date: April has 30 days', 'a real date as YYYY-MM-DD'],
    ['2023-13-01', '"2023-13-01" is not a date: there is no month 13', 'a real date as YYYY-MM-DD'],
    ['2/28/2023', '"2/28/2023" is not written YYYY-MM-DD', 'write 2023-02-28'],
    ['02/03/2023', '"02/03/2023" is not written YYYY-MM-DD', 'a real date as YYYY-MM-DD'],
    ['March 2, 2023', '"March 2, 2023" is not written YYYY-MM-DD', 'a real date as YYYY-MM-DD'],
  ])('citation_date: %s', async (written, message, expected) => {
    const problem = await one('citation_date: 2022-01-10', `citation_date: ${written}`);
    expect(where(problem)).toBe('schema/format content/manuscripts/new.yaml:4:16 citation_date');
    expect(problem.message).toBe(message);
    expect(problem.expected).toBe(expected);
  });
});

describe('what the editor wrote, where', () => {
  it.each([
    ['1e400', 'is the number 1e400'],
    ['-0', 'is the number -0'],
    ['1.5', 'is the number 1.5'],
  ])('an id of %s in a JSON file is reported as written', async (written, message) => {
    const beetles = await readFile(path.join(VALID_JOURNAL, 'manuscripts/beetles.json'), 'utf8');
    const problems = await problemsFor({ 'manuscripts/beetles.json': beetles.replace('"id": 12', `"id": ${written}`) });
    expect(problems.map(where)).toEqual(['schema/format content/manuscripts/beetles.json:2:9 id']);
    expect(problems[0]!.message).toBe(message);
  });

  it('an as_published author that holds only a line break says so', async () => {
    const problems = await problemsFor({
      'manuscripts/new.yaml': NEW_MANUSCRIPT.replace('  - jane-doe', '  - as_published: "\\n"'),
    });
    expect(problems.map(where)).toEqual(['schema/format content/manuscripts/new.yaml:10:5 authors[1]']);
    expect(problems[0]!.message).toBe('as_published is "\\n": a line break, and no name');
    expect(problems[0]!.expected).toBe('the author exactly as published, on one line, e.g. "Ana Petrovska"');
  });

  it('an as_published author with another field names that field', async () => {
    const problems = await problemsFor({
      'manuscripts/new.yaml': NEW_MANUSCRIPT.replace('  - jane-doe', '  - as_published: Jane Doe\n    orcid: x'),
    });
    expect(problems.map(where)).toEqual(['schema/format content/manuscripts/new.yaml:10:5 authors[1]']);
    expect(problems[0]!.message).toBe('has the field "orcid" beside as_published');
  });

  it('an invalid UTF-8 sequence is located at its line and column', () => {
    // An encoded surrogate (ED A0 80): its bytes look like a three-byte character.
    const bytes = Buffer.concat([
      Buffer.from('name: Ana\nsurname: B'),
      Buffer.from([0xed, 0xa0, 0x80]),
      Buffer.from('x\ninstitution: C\n'),
    ]);
    const { problems } = parseFile('content/authors/a.yaml', bytes);
    expect(problems.map(where)).toEqual(['io/not-utf8 content/authors/a.yaml:2:11 ']);
    for (const bad of [[0xe0, 0x80, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xf0, 0x80, 0x80, 0x80], [0xc3]]) {
      const found = parseFile(
        'content/authors/a.yaml',
        Buffer.concat([Buffer.from('name: A'), Buffer.from(bad), Buffer.from('\nsurname: B\n')]),
      );
      expect(found.problems.map(where)).toEqual(['io/not-utf8 content/authors/a.yaml:1:8 ']);
    }
  });

  it('a section that differs from a listed one only in how its letters are encoded shows the difference', async () => {
    const journal = await readFile(path.join(VALID_JOURNAL, 'journal.yaml'), 'utf8');
    const problems = await problemsFor({
      'journal.yaml': journal.replace('  - Botany', '  - Botany\n  - \u00d6kologie'),
      'manuscripts/new.yaml': NEW_MANUSCRIPT.replace('section: Botany', 'section: O\u0308kologie'),
    });
    expect(problems.map(where)).toEqual(['ref/unknown-section content/manuscripts/new.yaml:11:10 section']);
    expect(problems[0]!.message).toBe(
      '"O\u0308kologie" is written "O\\u0308kologie": it looks like the section "\u00d6kologie" ("\\u00d6kologie") but its letters are encoded differently',
    );
    expect(problems[0]!.expected).toBe(
      'the section as content/journal.yaml lists it: type it again, or copy it from there',
    );
  });

  it('a folder named journal.yaml is said to be a folder', async () => {
    workspace = await createWorkspace({ 'journal.yaml': null });
    await workspace.write('journal.yaml/settings.yaml', 'title: x\n');
    const result = await workspace.build('check');
    expect(result.problems.map(where)).toEqual(['io/not-a-file content/journal.yaml:0:0 ']);
    expect(result.problems[0]!.message).toBe('is a folder, not a file');
  });
});
