/**
 * `check --format github` reports every problem as a GitHub Actions annotation on the file,
 * line and column it concerns, so a pull request shows each mistake where it is.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { formatGithubAnnotations, type Problem } from '../../scripts/generator/model/problems.ts';
import { createWorkspace, type Workspace } from '../helpers/workspace.ts';

describe('formatGithubAnnotations', () => {
  it("writes one ::error command per problem, sorted, with GitHub's escaping", () => {
    const problems: Problem[] = [
      {
        code: 'schema/format',
        file: 'content/volumes/b.yaml',
        line: 4,
        column: 12,
        field: 'full_date',
        message: '"2021-02-30" is not valid',
        expected: 'a real date as YYYY-MM-DD',
      },
      { code: 'media/missing', file: 'content/a, b.yaml', line: 0, column: 0, field: '', message: '100% gone\nreally' },
    ];
    expect(formatGithubAnnotations(problems, ['GitHub Pages: no headers.']).split('\n')).toEqual([
      '::error file=content/a%2C b.yaml::100%25 gone%0Areally',
      '::error file=content/volumes/b.yaml,line=4,col=12,title=full_date::full_date: "2021-02-30" is not valid (a real date as YYYY-MM-DD)',
      '::warning::GitHub Pages: no headers.',
    ]);
  });
});

describe('npm run check -- --format github', () => {
  let workspace: Workspace | undefined;
  afterEach(async () => {
    await workspace?.dispose();
    workspace = undefined;
  });

  it('annotates every mistake on its file and line, and exits 1', async () => {
    workspace = await createWorkspace({
      'manuscripts/orchids.yaml': [
        'id: 3',
        'citation_volume: 1',
        'citation_title: Orchids of Galičica',
        'citation_date: 2022-02-30',
        'abstract: <p>A checklist.</p>',
        'keywords: Orchidaceae, checklist.',
        'document: pdfs/orchids.pdf',
        'authors: [marko-nikolov, nobody-here]',
        'section: Botany',
        '',
      ].join('\n'),
    });
    const result = await workspace.cli('check', '--format', 'github');
    expect(result.code).toBe(1);
    const annotations = result.stdout.trim().split('\n');
    expect(annotations).toEqual([
      expect.stringMatching(
        /^::error file=content\/manuscripts\/orchids\.yaml,line=4,col=\d+,title=citation_date::citation_date: /,
      ),
      expect.stringMatching(
        /^::error file=content\/manuscripts\/orchids\.yaml,line=8,col=\d+,title=authors\[1\]::authors\[1\]: .*nobody-here/,
      ),
    ]);
  });

  it('prints nothing to annotate for valid content, and exits 0', async () => {
    workspace = await createWorkspace();
    const result = await workspace.cli('check', '--format', 'github');
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('::error');
  });

  it('refuses an unknown format', async () => {
    workspace = await createWorkspace();
    const result = await workspace.cli('check', '--format', 'xml');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--format is text or github');
  });
});
