/**
 * The optional scholarly fields (docs/content-model.md): a manuscript's DOI, pages and licence, an
 * author's ORCID iD, the journal's abbreviation, online ISSN and licence. Each mistake is reported
 * at its field; valid values reach the renderers, through the build cache too, and never the API lists.
 */
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { build } from '../scripts/generator/build.ts';
import type { Problem } from '../scripts/generator/model/problems.ts';
import type { Renderer } from '../scripts/generator/model/site.ts';
import { RENDERERS } from '../scripts/generator/render/renderers.ts';
import { API_LISTS, listFile } from '../scripts/shared/contract.ts';
import { age } from './helpers/incremental.ts';
import { createWorkspace, type Workspace } from './helpers/workspace.ts';
import { PUBLISHED_MANUSCRIPT_KEYS } from './helpers/records.ts';

let ws: Workspace | undefined;
afterEach(async () => {
  await ws?.dispose();
  ws = undefined;
});

const where = (p: Problem) => `${p.code} ${p.file}:${p.line}:${p.column} ${p.field}`;

const JOURNAL = `title: Bulletin of the Test Society
base_url: https://journal.example.org
media_url: https://media.example.org
citation_issn: 1857 - 9639
citation_language: English
abbreviation: Bull. Test Soc.
online_issn: 2545 - 4269
license: https://creativecommons.org/licenses/by/4.0/
sections:
  - Zoology
  - Botany
`;

const SALAMANDERS = `id: 7
citation_volume: 2
citation_title: Distribution of the fire salamander in the Jakupica mountains
citation_date: 2021-03-04
abstract: <p>Text.</p>
keywords: [Salamandra salamandra, distribution]
document: pdfs/salamanders.pdf
authors:
  - ana-petrovska
  - jane-doe
section: Zoology
doi: 10.1234/bts.2021.7
first_page: 9
last_page: "17"
license: https://creativecommons.org/licenses/by-sa/4.0/
`;

const MARKO = `name: Marko
surname: Nikolov
institution: Faculty of Natural Sciences and Mathematics, Skopje
orcid: 0000-0002-1825-0097
`;

const VALID = {
  'journal.yaml': JOURNAL,
  'manuscripts/salamanders.yaml': SALAMANDERS,
  'authors/marko-nikolov.yaml': MARKO,
};

async function problemsFor(files: Record<string, string>): Promise<Problem[]> {
  ws = await createWorkspace({ ...VALID, ...files });
  const result = await ws.build('check');
  expect(result.ok).toBe(false);
  return result.problems;
}

/** Every record's scholarly fields, as a renderer reads them, one output per record. */
const scholarly: Renderer = {
  name: 'the scholarly fields',
  render: (site) => [
    {
      path: 'scholarly/journal.json',
      body: () => [JSON.stringify([site.journal.abbreviation, site.journal.online_issn, site.journal.license])],
    },
    ...site.manuscripts.map((m) => ({
      path: `scholarly/manuscript-${m.id}.json`,
      body: () => [JSON.stringify([m.doi, m.first_page, m.last_page, m.license])],
    })),
    ...site.authors.map((a) => ({
      path: `scholarly/${a.origin.key}.json`,
      body: () => [JSON.stringify([a.orcid])],
    })),
  ],
};

const read = (file: string) => readFile(path.join(ws!.paths.out, file), 'utf8');

describe('the scholarly fields reach the renderers', () => {
  it('cold, from the build cache, and after an edit elsewhere, the same values', async () => {
    ws = await age(await createWorkspace(VALID));
    const renderers = [...RENDERERS, scholarly];
    const expected = {
      'scholarly/journal.json': '["Bull. Test Soc.","2545 - 4269","https://creativecommons.org/licenses/by/4.0/"]',
      'scholarly/manuscript-7.json':
        '["10.1234/bts.2021.7","9","17","https://creativecommons.org/licenses/by-sa/4.0/"]',
      'scholarly/manuscript-3.json': '[null,null,null,null]',
      'scholarly/marko-nikolov.json': '["0000-0002-1825-0097"]',
      'scholarly/jane-doe.json': '[null]',
    };
    const readAll = async () =>
      Object.fromEntries(await Promise.all(Object.keys(expected).map(async (f) => [f, await read(f)])));
    expect((await build(ws.paths, 'build', { renderers, cache: false })).problems).toEqual([]);
    expect(await readAll()).toEqual(expected);
    // The records restored from the check index carry them too: a build that parses nothing.
    await build(ws.paths, 'check', { renderers });
    await rm(ws.paths.out, { recursive: true, force: true });
    const cached = await build(ws.paths, 'build', { renderers });
    expect(cached.parsed).toBe(0);
    expect(await readAll()).toEqual(expected);
  });

  it('are never in the three API lists', async () => {
    ws = await createWorkspace(VALID);
    expect((await ws.build()).problems).toEqual([]);
    const lists = await Promise.all(API_LISTS.map((list) => read(listFile(list))));
    for (const value of ['10.1234/bts', '0000-0002-1825-0097', 'Bull. Test Soc.', '2545', 'creativecommons'])
      for (const text of lists) expect(text).not.toContain(value);
    const [authors, , manuscripts] = lists.map((text) => JSON.parse(text) as Record<string, unknown>[]);
    expect(new Set(authors!.map((a) => Object.keys(a).join()))).toEqual(new Set(['name,surname,institution']));
    expect(Object.keys(manuscripts!.find((m) => m['id'] === 7)!)).toEqual([...PUBLISHED_MANUSCRIPT_KEYS]);
  });
});

describe('mistakes in the scholarly fields point at the field', () => {
  it('a DOI written as a link is refused with the bare DOI as the expected value', async () => {
    const problems = await problemsFor({
      'manuscripts/salamanders.yaml': SALAMANDERS.replace('doi: 10.', 'doi: https://doi.org/10.'),
    });
    expect(problems.map(where)).toEqual(['schema/format content/manuscripts/salamanders.yaml:12:6 doi']);
    expect(problems[0]!.expected).toBe('the bare DOI: 10.1234/bts.2021.7');
  });

  it.each([
    ['a suffix with a space', '"10.1234/bts 7"'],
    ['a registrant code of 3 digits', '10.123/x'],
    ['no suffix', '10.1234/'],
    ['not a DOI at all', 'bts-2021-7'],
  ])('a DOI with %s is refused', async (_, doi) => {
    const problems = await problemsFor({
      'manuscripts/salamanders.yaml': SALAMANDERS.replace('doi: 10.1234/bts.2021.7', `doi: ${doi}`),
    });
    expect(problems.map(where)).toEqual(['schema/format content/manuscripts/salamanders.yaml:12:6 doi']);
  });

  it('an ORCID iD with a wrong check character is an error naming the right one', async () => {
    const problems = await problemsFor({ 'authors/marko-nikolov.yaml': MARKO.replace('0097', '0098') });
    expect(problems.map(where)).toEqual(['schema/format content/authors/marko-nikolov.yaml:4:8 orcid']);
    expect(problems[0]!.message).toContain('ends in 8');
    expect(problems[0]!.expected).toMatch(/^0000-0002-1825-0097: /);
  });

  it('an ORCID iD whose check character is X is accepted, and one written as a URL is refused', async () => {
    ws = await createWorkspace({
      ...VALID,
      'authors/marko-nikolov.yaml': MARKO.replace('0000-0002-1825-0097', '0000-0002-9079-593X'),
    });
    expect((await ws.build('check')).problems).toEqual([]);
    await ws.dispose();
    const problems = await problemsFor({
      'authors/marko-nikolov.yaml': MARKO.replace('orcid: ', 'orcid: https://orcid.org/'),
    });
    expect(problems.map(where)).toEqual(['schema/format content/authors/marko-nikolov.yaml:4:8 orcid']);
    expect(problems[0]!.expected).toBe('the bare iD: 0000-0002-1825-0097');
  });

  it('a last page before the first page, and pages that are not numbers', async () => {
    const problems = await problemsFor({
      'manuscripts/salamanders.yaml': SALAMANDERS.replace('last_page: "17"', 'last_page: "8"'),
    });
    expect(problems.map(where)).toEqual(['schema/format content/manuscripts/salamanders.yaml:14:12 last_page']);
    expect(problems[0]!.message).toBe('8 is before first_page 9');
    await ws!.dispose();
    const roman = await problemsFor({
      'manuscripts/salamanders.yaml': SALAMANDERS.replace('first_page: 9', 'first_page: ix'),
    });
    expect(roman.map(where)).toEqual(['schema/format content/manuscripts/salamanders.yaml:13:13 first_page']);
  });

  it('a licence that is not an absolute http(s) URL, in a manuscript and in the journal', async () => {
    const problems = await problemsFor({
      'manuscripts/salamanders.yaml': SALAMANDERS.replace('license: https://', 'license: '),
      'journal.yaml': JOURNAL.replace('license: https://', 'license: ftp://'),
    });
    expect(problems.map(where)).toEqual([
      'schema/format content/journal.yaml:8:10 license',
      'schema/format content/manuscripts/salamanders.yaml:15:10 license',
    ]);
  });

  // A line break in a plain-text field is published as written, with a warning (plain-text.ts).
  it('an online ISSN in the wrong shape; an abbreviation on two lines is no problem', async () => {
    const problems = await problemsFor({
      'journal.yaml': JOURNAL.replace('online_issn: 2545 - 4269', 'online_issn: 2545-4269').replace(
        'abbreviation: Bull. Test Soc.',
        'abbreviation: "Bull.\\nTest Soc."',
      ),
    });
    expect(problems.map(where)).toEqual(['schema/format content/journal.yaml:7:14 online_issn']);
  });
});
