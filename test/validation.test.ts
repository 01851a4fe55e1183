/**
 * Each kind of editor mistake, as a literal file on top of the valid fixture journal. Every case
 * asserts the stable code and the exact `file:line:column field` the report points at.
 */
import { lstat, mkdir, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scanContent } from '../scripts/generator/engine/scan/content-scan.ts';
import { discover, discoverJournal } from '../scripts/generator/stages/discover.ts';
import type { Problem } from '../scripts/generator/model/problems.ts';
import { COLLECTION_NAMES, type CollectionName } from '../scripts/generator/model/schema.ts';
import { createWorkspace, type Workspace } from './helpers/workspace.ts';
import { NEW_MANUSCRIPT } from './helpers/records.ts';

let workspace: Workspace | undefined;
afterEach(async () => {
  await workspace?.dispose();
  workspace = undefined;
});

const where = (p: Problem) => `${p.code} ${p.file}:${p.line}:${p.column} ${p.field}`;

async function problemsFor(files: Record<string, string | Uint8Array | null>): Promise<Problem[]> {
  workspace = await createWorkspace(files);
  const result = await workspace.build('check');
  expect(result.ok).toBe(false);
  return result.problems;
}

describe('schema problems point at the field', () => {
  it('a missing required field points at the record and names the field', async () => {
    const problems = await problemsFor({
      'volumes/volume-i.yaml':
        'id: 2\ncitation_journal_title: Volume I\nfirst_page: "1"\nlast_page: "9"\nfull_date: 2021-12-01\npdf: volumes/pdfs/2021/volume-i.pdf\n',
    });
    expect(problems.map(where)).toEqual(['schema/missing content/volumes/volume-i.yaml:1:1 udc']);
    expect(problems[0]!.expected).toContain('UDC numbers');
  });

  it('an unknown field (a typo) points at its key and names the field it resembles', async () => {
    const problems = await problemsFor({
      'manuscripts/new.yaml': NEW_MANUSCRIPT.replace('citation_title:', 'citation_titel:'),
    });
    expect(problems.map(where)).toEqual(['schema/unknown-field content/manuscripts/new.yaml:3:1 citation_titel']);
    expect(problems[0]!.message).toContain('did you mean "citation_title"?');
  });

  it.each([
    ['a date that does not exist', 'citation_date: 2022-01-10', 'citation_date: 2021-02-30', 4, 16, 'citation_date'],
    ['a date in another shape', 'citation_date: 2022-01-10', 'citation_date: 10.01.2022', 4, 16, 'citation_date'],
    [
      'an ISSN without the spaces',
      'section: Botany',
      'section: Botany\ncitation_issn: 1857-9639',
      12,
      16,
      'citation_issn',
    ],
    ['an id that is not a positive integer', 'id: 40', 'id: 4.0', 1, 5, 'id'],
    [
      // A title may hold italics, bold, sub- and superscript (test/title-markup.test.ts); any other
      // element is refused at its tag.
      'markup in a title that a title may not hold',
      'citation_title: A new record',
      'citation_title: A <span>new</span> record',
      3,
      19,
      'citation_title',
    ],
    ['a script in an abstract', 'abstract: <p>Text.</p>', 'abstract: <p onclick="x()">Text.</p>', 5, 11, 'abstract'],
    [
      'a javascript: link in an abstract',
      'abstract: <p>Text.</p>',
      'abstract: \'<a href=" javascript:alert(1)">x</a>\'',
      5,
      12,
      'abstract',
    ],
    ['an author key that cannot be a file name', '  - jane-doe', '  - "../jane-doe"', 10, 5, 'authors[1]'],
    ['a keyword list item with a comma-space', 'keywords: [one, two]', 'keywords: ["one, two"]', 6, 12, 'keywords[0]'],
    ['a keyword string without its full stop', 'keywords: [one, two]', 'keywords: one, two', 6, 11, 'keywords'],
    [
      'a PDF path leaving the media folder',
      'document: pdfs/orchids.pdf',
      'document: pdfs/../../journal.yaml',
      7,
      11,
      'document',
    ],
    ['a PDF path of the wrong shape', 'document: pdfs/orchids.pdf', 'document: orchids.pdf', 7, 11, 'document'],
    [
      'a remote PDF at the wrong path',
      'document: pdfs/orchids.pdf',
      'document: https://old.example.org/files/orchids.pdf',
      7,
      11,
      'document',
    ],
  ])('%s', async (_name, from, to, line, column, field) => {
    expect(NEW_MANUSCRIPT).toContain(from);
    const problems = await problemsFor({ 'manuscripts/new.yaml': NEW_MANUSCRIPT.replace(from, to) });
    expect(problems.map((p) => `${p.file}:${p.line}:${p.column} ${p.field}`)).toEqual([
      `content/manuscripts/new.yaml:${line}:${column} ${field}`,
    ]);
  });

  it.each([
    [
      'a non-canonical Roman numeral',
      'citation_journal_title: Volume I',
      'citation_journal_title: Volume IIII',
      2,
      25,
      'citation_journal_title',
    ],
    [
      'a label without "Volume "',
      'citation_journal_title: Volume I',
      'citation_journal_title: Vol. I',
      2,
      25,
      'citation_journal_title',
    ],
    ['a page that is not digits', 'first_page: "1"', 'first_page: 12a', 6, 13, 'first_page'],
    ['a UDC code with a comma', 'udc: "57 59"', 'udc: 57, 59', 4, 6, 'udc'],
    [
      'a volume PDF outside volumes/pdfs/<year>/',
      'pdf: volumes/pdfs/2021/volume-i.pdf',
      'pdf: volumes/pdfs/volume-i.pdf',
      9,
      6,
      'pdf',
    ],
  ])('volume: %s', async (_name, from, to, line, column, field) => {
    workspace = await createWorkspace();
    const original = await import('node:fs/promises').then((fs) =>
      fs.readFile(path.join(workspace!.paths.content, 'volumes/volume-i.yaml'), 'utf8'),
    );
    expect(original).toContain(from);
    await workspace.write('volumes/volume-i.yaml', original.replace(from, to));
    const result = await workspace.build('check');
    expect(result.problems.map((p) => `${p.file}:${p.line}:${p.column} ${p.field}`)).toEqual([
      `content/volumes/volume-i.yaml:${line}:${column} ${field}`,
    ]);
  });

  it('keeps YAML scalars as typed: dates, 1.10-like codes and leading zeros are never converted', async () => {
    workspace = await createWorkspace({
      'manuscripts/new.yaml': NEW_MANUSCRIPT.replace(
        'section: Botany',
        'section: Botany\nudc: 1.10\ncitation_language: yes',
      ),
    });
    const result = await workspace.build();
    expect(result.problems).toEqual([]);
    const { readFile } = await import('node:fs/promises');
    const list = JSON.parse(
      await readFile(path.join(workspace.paths.out, 'api/manuscripts/index.json'), 'utf8'),
    ) as Record<string, unknown>[];
    expect(list.find((m) => m['id'] === 40)).toMatchObject({
      udc: '1.10',
      citation_language: 'yes',
      citation_date: '2022-01-10',
    });
  });
});

describe('file problems', () => {
  it('a YAML syntax error points at the line', async () => {
    const problems = await problemsFor({ 'authors/broken.yaml': 'name: Ana\nsurname: [Petrovska\ninstitution: X\n' });
    expect(problems.every((p) => p.code === 'parse/syntax' && p.file === 'content/authors/broken.yaml')).toBe(true);
    expect(problems[0]!.line).toBeGreaterThanOrEqual(2);
  });

  it('a JSON syntax error points at the line', async () => {
    const problems = await problemsFor({
      'authors/broken.json': '{\n  "name": "Ana",\n  "surname": "P",,\n  "institution": "X"\n}\n',
    });
    expect(problems[0]).toMatchObject({ code: 'parse/syntax', file: 'content/authors/broken.json', line: 3 });
  });

  it('JSON values keep JSON types: a number where text is expected is an error at its line', async () => {
    const problems = await problemsFor({
      'authors/numbers.json': '{\n  "name": "Ana",\n  "surname": 7,\n  "institution": "X"\n}\n',
    });
    expect(problems.map(where)).toEqual(['schema/type content/authors/numbers.json:3:14 surname']);
  });

  it('a duplicated key in one YAML file', async () => {
    const problems = await problemsFor({ 'authors/twice.yaml': 'name: Ana\nname: Ana\nsurname: P\ninstitution: X\n' });
    expect(problems.map(where)).toEqual(['parse/syntax content/authors/twice.yaml:2:1 ']);
  });

  it('a file that is not a mapping', async () => {
    const problems = await problemsFor({ 'authors/list.yaml': '- name: Ana\n' });
    expect(problems.map(where)).toEqual(['parse/not-a-mapping content/authors/list.yaml:1:1 ']);
  });

  it('invalid UTF-8 points at the first bad byte', async () => {
    const bytes = Buffer.concat([
      Buffer.from('name: Ana\nsurname: Pe'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('trov\ninstitution: X\n'),
    ]);
    const problems = await problemsFor({ 'authors/latin1.yaml': bytes });
    expect(problems.map(where)).toEqual(['io/not-utf8 content/authors/latin1.yaml:2:12 ']);
  });

  it('a YAML alias bomb is refused quickly instead of expanding', async () => {
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      ...'bcdefghi'.split('').map((n, i) => `${n}: &${n} [${Array(10).fill(`*${'abcdefghi'[i]}`).join(', ')}]`),
      'name: A',
      'surname: B',
      'institution: C',
    ].join('\n');
    const problems = await problemsFor({ 'authors/bomb.yaml': bomb });
    expect(problems.map((p) => p.code)).toEqual(['parse/syntax']);
    expect(problems[0]!.expected).toContain('alias');
  });

  it('a symbolic link among the records is refused, not followed', async () => {
    workspace = await createWorkspace();
    await symlink('/etc/hostname', path.join(workspace.paths.content, 'authors/linked.yaml'));
    const result = await workspace.build('check');
    expect(result.problems.map(where)).toEqual(['io/symlink content/authors/linked.yaml:0:0 ']);
  });

  it('the journal settings: one file of three names, a regular file, named when missing or repeated', async () => {
    workspace = await createWorkspace();
    const { content, root } = workspace.paths;
    const found = () =>
      discoverJournal(root, content).then((journal) => ({
        file: journal.journalFile?.file,
        problems: journal.problems.map(where),
      }));
    expect(await found()).toEqual({ file: 'content/journal.yaml', problems: [] });
    await writeFile(path.join(content, 'journal.json'), '{}');
    await writeFile(path.join(content, 'journal.yml'), 'title: x\n');
    // The first by code units is the one read; each other one is reported.
    expect(await found()).toEqual({
      file: 'content/journal.json',
      problems: ['ref/duplicate-key content/journal.yaml:0:0 ', 'ref/duplicate-key content/journal.yml:0:0 '],
    });
    await workspace.remove('journal.json');
    await workspace.remove('journal.yml');
    await workspace.remove('journal.yaml');
    // A link is not followed, a folder is not a file, and a name in another case is another name.
    await symlink('/etc/hostname', path.join(content, 'journal.yaml'));
    await mkdir(path.join(content, 'journal.json'));
    await writeFile(path.join(content, 'Journal.yml'), 'title: x\n');
    expect(await found()).toEqual({
      file: undefined,
      problems: ['io/not-a-file content/journal.json:0:0 ', 'io/symlink content/journal.yaml:0:0 '],
    });
  });

  it('two files with one key, and stray files, are reported', async () => {
    const problems = await problemsFor({
      'authors/jane-doe.yaml': 'name: J\nsurname: D\ninstitution: X\n',
      'authors/notes.txt': 'hello',
    });
    expect(problems.map(where).sort()).toEqual([
      'io/unexpected-file content/authors/notes.txt:0:0 ',
      'ref/duplicate-key content/authors/jane-doe.yaml:0:0 ',
    ]);
  });

  it('each file found keeps its own stamp when a file with a repeated key is left out', async () => {
    // The load stage trusts these stamps to decide that a file is unchanged (load-all.ts).
    workspace = await createWorkspace({
      'authors/jane-doe.yaml': 'name: J\nsurname: D\ninstitution: X\n',
      'authors/zoran-last.yaml': 'name: Z\nsurname: L\ninstitution: X\n',
    });
    const { root, content } = workspace.paths;
    const found = await discover(root, content, scanContent(content), await discoverJournal(root, content));
    expect(found.problems.map(where)).toEqual(['ref/duplicate-key content/authors/jane-doe.yaml:0:0 ']);
    const sources = Array.from({ length: found.files.length }, (_, i) => found.files.at(i));
    expect(sources.map((source) => source.file)).toContain('content/authors/zoran-last.yaml');
    for (const [i, source] of sources.entries()) {
      const { size, mtimeMs, ino } = await lstat(source.absolutePath);
      expect(found.stats.stamp(i), source.file).toEqual({ size, mtimeMs, ino });
    }
  });

  it('takes the files found last time as they are only while each is still a file, and looks at each name again otherwise', async () => {
    // `check` and builds pass the check index's names (discover.ts, `known`): a listing that is those
    // names is not looked at name by name again.
    // The authors all .yaml (taken at once), the manuscripts of two extensions (looked at name by name).
    workspace = await createWorkspace({
      'authors/jane-doe.json': null,
      'authors/zoran-last.yaml': 'name: Z\nsurname: L\ninstitution: X\n',
      'authors/ana-b.yaml': 'name: A\nsurname: B\ninstitution: X\n',
    });
    const { root, content } = workspace.paths;
    const journal = await discoverJournal(root, content);
    const describeFound = async (known?: (collection: CollectionName) => string | undefined) => {
      const found = await discover(root, content, scanContent(content), journal, known);
      const files = Array.from({ length: found.files.length }, (_, i) => [found.files.at(i), found.stats.stamp(i)]);
      const keys = COLLECTION_NAMES.flatMap((collection) =>
        ['zoran-last', 'marko-nikolov', 'beetles', 'orchids', 'nobody'].map((key) =>
          found.files.indexOfKey(collection, key),
        ),
      );
      return { files, keys, problems: found.problems.map(where), listed: found.listed };
    };
    const first = await describeFound();
    expect(first.problems).toEqual([]);
    // A folder of two extensions is never taken at once: discovery gives no names for it, and names given are looked at.
    expect(Object.keys(first.listed).sort()).toEqual(['authors', 'volumes']);
    const manuscripts = (await readdir(path.join(content, 'manuscripts'))).sort().join('\0');
    const last = (collection: CollectionName) =>
      first.listed[collection] ?? (collection === 'manuscripts' ? manuscripts : undefined);
    expect(await describeFound(last)).toEqual(first);

    // The same names, one of them now a folder, another a link: each is reported, as without the names known.
    await rm(path.join(content, 'authors/ana-b.yaml'));
    await mkdir(path.join(content, 'authors/ana-b.yaml'));
    await rm(path.join(content, 'authors/marko-nikolov.yaml'));
    await symlink(path.join(content, 'authors/zoran-last.yaml'), path.join(content, 'authors/marko-nikolov.yaml'));
    const changed = await describeFound(last);
    expect(changed.problems).toEqual([
      'io/unexpected-file content/authors/ana-b.yaml:0:0 ',
      'io/symlink content/authors/marko-nikolov.yaml:0:0 ',
    ]);
    expect(changed).toEqual(await describeFound());
    expect(changed.keys).not.toEqual(first.keys);
  });

  it('finds a key among the files found, in a folder of one extension (by its sorted names) as in one of several', async () => {
    // `check` looks up the authors an edited manuscript names this way (load-all.ts, checkedOf).
    const keys = ['a', 'a-b', 'a.b', 'a_b', 'A', 'a0', 'b.c.d', 'z9', 'Zeta', '0x'];
    const author = 'name: N\nsurname: S\ninstitution: X\n';
    for (const extensions of [['.yaml'], ['.yaml', '.json', '.yml']]) {
      const fixtureAuthors = {
        'authors/jane-doe.json': null,
        'authors/marko-nikolov.yaml': null,
        'authors/ana-petrovska.yaml': null,
      };
      const named = keys.map((key, i) => [
        `authors/${key}${extensions[i % extensions.length]}`,
        extensions[i % extensions.length] === '.json' ? '{"name": "N", "surname": "S", "institution": "X"}' : author,
      ]);
      workspace = await createWorkspace({ ...fixtureAuthors, ...Object.fromEntries(named) });
      const { root, content } = workspace.paths;
      const found = await discover(root, content, scanContent(content), await discoverJournal(root, content));
      const files = found.files;
      for (const collection of COLLECTION_NAMES) {
        const { start, end } = files.range(collection);
        for (let i = start; i < end; i++)
          expect(files.indexOfKey(collection, files.key(i)), `${extensions.join(' ')} ${files.file(i)}`).toBe(i);
      }
      const authors = files.range('authors');
      expect(authors.end - authors.start).toBe(keys.length);
      for (const missing of ['', 'a.', 'a-', 'b', 'a.yaml', 'zz', 'Z', 'jane'])
        expect(files.indexOfKey('authors', missing), `${extensions.join(' ')} ${missing}`).toBe(-1);
      await workspace.dispose();
      workspace = undefined;
    }
  });
});

describe('reference problems (checked after every file is loaded)', () => {
  it('an invalid volume does not make every manuscript that cites it an error too', async () => {
    const problems = await problemsFor({
      'volumes/volume-i.yaml':
        'id: 2\ncitation_journal_title: Volume I\nudc: "57"\nfirst_page: 1\nlast_page: 2\nfull_date: 2021-02-30\npdf: volumes/pdfs/2021/volume-i.pdf\n',
    });
    expect(problems.map(where)).toEqual(['schema/format content/volumes/volume-i.yaml:6:12 full_date']);
  });

  it('an invalid author file does not make every manuscript that names it an error too', async () => {
    const problems = await problemsFor({ 'authors/jane-doe.json': '{"name": "Jane"}' });
    expect(problems.map((p) => p.code)).toEqual(['schema/missing', 'schema/missing']);
  });

  // A build finds each manuscript's authors when it orders the journal, and looks keys up again only
  // for a manuscript with one not found (resolve.ts, withAuthorsFound): the same report as check.
  it.each(['check', 'build'] as const)(
    'an unknown author key points at the list item and suggests the nearest key (%s)',
    async (mode) => {
      workspace = await createWorkspace({
        'manuscripts/new.yaml': NEW_MANUSCRIPT.replace('  - jane-doe', '  - jane-do'),
      });
      const result = await workspace.build(mode);
      expect(result.ok).toBe(false);
      expect(result.problems.map(where)).toEqual(['ref/unknown-author content/manuscripts/new.yaml:10:5 authors[1]']);
      expect(result.problems[0]!.message).toContain('did you mean "jane-doe"?');
    },
  );

  it('an unknown volume id lists the ids that exist', async () => {
    const problems = await problemsFor({
      'manuscripts/new.yaml': NEW_MANUSCRIPT.replace('volume: volume-ii', 'citation_volume: 9'),
    });
    expect(problems.map(where)).toEqual(['ref/unknown-volume content/manuscripts/new.yaml:2:18 citation_volume']);
    expect(problems[0]!.expected).toBe('one of the volume ids: 1, 2');
  });

  it('a duplicate manuscript id names the other file', async () => {
    const problems = await problemsFor({ 'manuscripts/new.yaml': NEW_MANUSCRIPT.replace('id: 40', 'id: 7') });
    expect(problems.map(where)).toEqual([
      'ref/duplicate-id content/manuscripts/new.yaml:1:5 id',
      'ref/duplicate-id content/manuscripts/salamanders.yaml:1:5 id',
    ]);
    expect(problems[1]!.message).toContain('content/manuscripts/new.yaml');
    // Ids far above the count of manuscripts are compared all the same.
    const large = await problemsFor({
      'manuscripts/new.yaml': NEW_MANUSCRIPT.replace('id: 40', 'id: 2000000000'),
      'manuscripts/other.yaml': NEW_MANUSCRIPT.replace('id: 40', 'id: 2000000000'),
    });
    expect(large.map(where)).toEqual([
      'ref/duplicate-id content/manuscripts/new.yaml:1:5 id',
      'ref/duplicate-id content/manuscripts/other.yaml:1:5 id',
    ]);
    expect(large[1]!.message).toBe('2000000000 is also the id of content/manuscripts/new.yaml');
  });

  it('a section the journal does not list, with a suggestion', async () => {
    const problems = await problemsFor({
      'manuscripts/new.yaml': NEW_MANUSCRIPT.replace('section: Botany', 'section: Botanny'),
    });
    expect(problems.map(where)).toEqual(['ref/unknown-section content/manuscripts/new.yaml:11:10 section']);
    expect(problems[0]!.message).toContain('did you mean "Botany"?');
  });

  it("a volume ISSN that differs from the journal's, and a duplicated label", async () => {
    const problems = await problemsFor({
      'volumes/volume-iii.yaml':
        'id: 3\ncitation_journal_title: Volume I\nudc: "57"\ncitation_issn: 1857 - 9640\nfirst_page: 1\nlast_page: 2\nfull_date: 2023-01-01\npdf: volumes/pdfs/2021/volume-i.pdf\n',
    });
    expect(problems.map(where).sort()).toEqual([
      'ref/duplicate-label content/volumes/volume-iii.yaml:2:25 citation_journal_title',
      'ref/issn-mismatch content/volumes/volume-iii.yaml:4:16 citation_issn',
    ]);
  });
});

describe('PDF problems', () => {
  it('a missing PDF, a file that is not a PDF, and a linked PDF', async () => {
    workspace = await createWorkspace({
      'manuscripts/a.yaml': NEW_MANUSCRIPT.replace('id: 40', 'id: 41').replace('pdfs/orchids.pdf', 'pdfs/missing.pdf'),
      'manuscripts/b.yaml': NEW_MANUSCRIPT.replace('id: 40', 'id: 42').replace('pdfs/orchids.pdf', 'pdfs/fake.pdf'),
      'manuscripts/c.yaml': NEW_MANUSCRIPT.replace('id: 40', 'id: 43').replace('pdfs/orchids.pdf', 'pdfs/linked.pdf'),
      'media/pdfs/fake.pdf': '<html>not a pdf</html>',
    });
    await symlink(
      path.join(workspace.paths.content, 'media/pdfs/orchids.pdf'),
      path.join(workspace.paths.content, 'media/pdfs/linked.pdf'),
    );
    const result = await workspace.build('check');
    expect(result.problems.map(where).sort()).toEqual([
      'media/missing content/manuscripts/a.yaml:7:11 document',
      'media/not-pdf content/manuscripts/b.yaml:7:11 document',
      'media/symlink content/manuscripts/c.yaml:7:11 document',
    ]);
  });

  it('a media folder that is a link to somewhere else is refused', async () => {
    workspace = await createWorkspace();
    const outside = path.join(workspace.root, 'outside');
    await mkdir(outside);
    await writeFile(path.join(outside, 'secret.pdf'), '%PDF-1.4 secret');
    await symlink(outside, path.join(workspace.paths.content, 'media/pdfs/elsewhere'));
    await workspace.write(
      'manuscripts/new.yaml',
      NEW_MANUSCRIPT.replace('pdfs/orchids.pdf', 'pdfs/elsewhere/secret.pdf'),
    );
    const result = await workspace.build('check');
    // The shape check refuses subfolders before the file system is touched.
    expect(result.problems.map(where)).toEqual(['schema/format content/manuscripts/new.yaml:7:11 document']);
  });
});

describe('one run reports everything', () => {
  it('problems in several files are all reported, grouped by file, in one report', async () => {
    workspace = await createWorkspace({
      'authors/bad.yaml': 'name: Ana\n',
      'manuscripts/new.yaml': NEW_MANUSCRIPT.replace('citation_date: 2022-01-10', 'citation_date: 2022-13-01').replace(
        '  - jane-doe',
        '  - nobody',
      ),
    });
    const { code, stderr } = await workspace.cli('check');
    expect(code).toBe(1);
    expect(stderr).toContain('content/authors/bad.yaml:1:1 surname: is missing (the family name)');
    expect(stderr).toContain('content/authors/bad.yaml:1:1 institution: is missing');
    expect(stderr).toContain(
      'content/manuscripts/new.yaml:4:16 citation_date: "2022-13-01" is not a date: there is no month 13 (a real date as YYYY-MM-DD)',
    );
    // The manuscript is invalid, and its well-formed references are still checked in the same run.
    expect(stderr).toContain('content/manuscripts/new.yaml:10:5 authors[1]: no author has the key "nobody"');
    expect(stderr).toMatch(/4 problems in 2 files\.\s*$/);
    // Grouped: a blank line separates the files.
    expect(stderr).toMatch(/surname: is missing[^\n]*\n\ncontent\/manuscripts/);
  });
});
