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
});
