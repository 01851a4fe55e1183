/**
 * Two outputs at one path (stages/public-files.ts, findOutputConflicts): every path written twice is
 * reported at the source that writes it second, twins of precompressed files included, and a build
 * without any clash gets no problem.
 */
import { describe, expect, it } from 'vitest';
import { findOutputConflicts } from '../scripts/generator/stages/public-files.ts';

const file = (path: string, precompress = false) => ({ path, body: '', ...(precompress ? { precompress } : {}) });

describe('outputs written at one path', () => {
  it('are none when every path has one source', () => {
    const groups = [
      {
        source: 'the API lists',
        outputs: [file('api/authors/index.json', true), file('api/volumes/index.json', true)],
      },
      { source: 'public/robots.txt', outputs: [file('robots.txt')] },
    ];
    expect(findOutputConflicts(groups)).toEqual([]);
  });

  it("are each reported at the second source, a precompressed file's twins included", () => {
    const problems = findOutputConflicts([
      { source: 'the API lists', outputs: [file('api/authors/index.json', true)] },
      { source: 'the HTML pages', outputs: [file('index.html'), file('manuscripts/1/index.html')] },
      { source: 'public/api/authors/index.json.br', outputs: [file('api/authors/index.json.br')] },
      { source: 'public/index.html', outputs: [file('index.html')] },
      { source: 'the citation files', outputs: [file('citations/1.bib'), file('citations/1.bib')] },
    ]);
    expect(problems.map((problem) => `${problem.file}: ${problem.message}`)).toEqual([
      'public/api/authors/index.json.br: writes api/authors/index.json.br, which the API lists writes too',
      'public/index.html: writes index.html, which the HTML pages writes too',
      'the citation files: writes citations/1.bib, which the citation files writes too',
    ]);
    expect(new Set(problems.map((problem) => problem.code))).toEqual(new Set(['output/conflict']));
  });

  it('are found among many paths, whichever two of them clash, twins included', () => {
    const many = Array.from({ length: 100_000 }, (_, i) => file(`api/manuscripts/${i}/index.json`, i % 2 === 0));
    expect(findOutputConflicts([{ source: 'the records', outputs: many }])).toEqual([]);
    for (const [path, source] of [
      ['api/manuscripts/77777/index.json', 'public/api/manuscripts/77777/index.json'],
      ['api/manuscripts/4/index.json.gz', 'public/api/manuscripts/4/index.json.gz'],
    ] as const) {
      const problems = findOutputConflicts([
        { source: 'the records', outputs: many },
        { source, outputs: [file(path)] },
      ]);
      expect(problems.map((problem) => `${problem.file}: ${problem.message}`)).toEqual([
        `${source}: writes ${path}, which the records writes too`,
      ]);
    }
  });

  it('are also two paths that differ only in upper/lower case, reported at both sources', () => {
    const problems = findOutputConflicts([
      { source: 'the HTML pages', outputs: [file('robots.txt'), file('index.html')] },
      { source: 'the API lists', outputs: [file('api/authors/zz-twin/index.json', true)] },
      { source: 'public/ROBOTS.TXT', outputs: [file('ROBOTS.TXT')] },
      { source: 'the records', outputs: [file('api/authors/ZZ-Twin/index.json', true)] },
    ]);
    expect(problems.map((problem) => `${problem.file}: ${problem.message}`)).toEqual([
      'public/ROBOTS.TXT: ROBOTS.TXT, which it writes, and robots.txt, which the HTML pages writes, differ only in ' +
        'upper/lower case: on Windows, macOS and some web hosts the two are one file (or one page), and one would ' +
        'silently replace the other',
      'the HTML pages: robots.txt, which it writes, and ROBOTS.TXT, which public/ROBOTS.TXT writes, differ only in ' +
        'upper/lower case: on Windows, macOS and some web hosts the two are one file (or one page), and one would ' +
        'silently replace the other',
      expect.stringMatching(
        /^the records: api\/authors\/ZZ-Twin\/index\.json, which it writes, and api\/authors\/zz-twin/,
      ),
      expect.stringMatching(
        /^the API lists: api\/authors\/zz-twin\/index\.json, which it writes, and api\/authors\/ZZ-Twin/,
      ),
    ]);
    expect(problems.every((problem) => problem.expected?.includes('rename one'))).toBe(true);
  });

  it('are two paths of one source that differ in case, or in how an accent is encoded, once each', () => {
    const composed = 'files/caf\u00e9.txt';
    const decomposed = 'files/cafe\u0301.txt';
    const problems = findOutputConflicts([
      { source: 'the records', outputs: [file('a/X.json'), file('a/x.json')] },
      { source: 'public/files', outputs: [file(composed), file('files/\u03c3.txt'), file('files/\u03a3.txt')] },
      { source: 'public/other', outputs: [file(decomposed.toUpperCase())] },
    ]);
    expect(problems.map((problem) => `${problem.file}: ${problem.message.split(':')[0]}`)).toEqual([
      'the records: a/X.json and a/x.json, both of which it writes, differ only in upper/lower case',
      'public/files: files/\u03c3.txt and files/\u03a3.txt, both of which it writes, differ only in upper/lower case',
      `public/other: ${decomposed.toUpperCase()}, which it writes, and ${composed}, which public/files writes, differ ` +
        'only in upper/lower case or in how an accented letter is encoded',
      `public/files: ${composed}, which it writes, and ${decomposed.toUpperCase()}, which public/other writes, differ ` +
        'only in upper/lower case or in how an accented letter is encoded',
    ]);
  });

  it('in case alone are found among many paths', () => {
    const many = Array.from({ length: 100_000 }, (_, i) => file(`api/manuscripts/${i}/index.json`, i % 2 === 0));
    const pages = Array.from({ length: 750_000 }, (_, i) => file(`manuscripts/${i}/index.html`));
    expect(
      findOutputConflicts([
        { source: 'the records', outputs: many },
        { source: 'the pages', outputs: pages },
      ]),
    ).toEqual([]);
    const problems = findOutputConflicts([
      { source: 'the records', outputs: many },
      { source: 'public/api/manuscripts/77777/INDEX.json', outputs: [file('api/manuscripts/77777/INDEX.json')] },
    ]);
    expect(problems.map((problem) => problem.file)).toEqual(['public/api/manuscripts/77777/INDEX.json', 'the records']);
  });
});
