/**
 * `check --format github` reports every problem as a GitHub Actions annotation on the file,
 * line and column it concerns, so a pull request shows each mistake where it is.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { formatGithubAnnotations, type Problem } from '../../scripts/generator/model/problems.ts';
import { createWorkspace, runCli, VALID_JOURNAL, type Workspace } from '../helpers/workspace.ts';

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

  it('writes a warning problem as ::warning, in file order with the errors, with its position when it has one', () => {
    const problems: Problem[] = [
      {
        code: 'schema/missing',
        file: 'content/volumes/b.yaml',
        line: 2,
        column: 1,
        field: 'udc',
        message: 'is missing',
      },
      {
        code: 'warning/issn-check-digit',
        severity: 'warning',
        file: 'content/journal.yaml',
        line: 4,
        column: 16,
        field: 'citation_issn',
        message: 'the check digit is 0',
      },
      {
        code: 'warn/example-domain',
        severity: 'warning',
        file: 'content/journal.yaml',
        line: 0,
        column: 0,
        field: 'base_url',
        message: 'is an example address',
      },
    ];
    expect(formatGithubAnnotations(problems).split('\n')).toEqual([
      '::warning file=content/journal.yaml,title=base_url::base_url: is an example address',
      '::warning file=content/journal.yaml,line=4,col=16,title=citation_issn::citation_issn: the check digit is 0',
      '::error file=content/volumes/b.yaml,line=2,col=1,title=udc::udc: is missing',
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

  it('annotates the warnings too, each on its file, and on its line and column when it has them', async () => {
    const fixture = (file: string) => readFile(path.join(VALID_JOURNAL, file), 'utf8');
    workspace = await createWorkspace({
      // The sample journal's example address, and an ISSN whose check digit is wrong (in both places).
      'journal.yaml': (await fixture('journal.yaml'))
        .replace('https://journal.example.org', 'https://bulletin.example.org')
        .replace('1857 - 9639', '1857 - 9870'),
      'volumes/volume-i.yaml': (await fixture('volumes/volume-i.yaml')).replace('1857 - 9639', '1857 - 9870'),
    });
    // As the published workflows run it: in GitHub Actions, with `--format github`.
    const result = await runCli(workspace.root, ['build', '--format', 'github'], { env: { GITHUB_ACTIONS: 'true' } });
    expect(result.code, result.stderr).toBe(0);
    const digit =
      'the check digit of "1857 - 9870" is 0, but its first seven digits give 6 ("1857 - 9876" if the first seven ' +
      'digits are right; an ISSN published with a wrong check digit may stay as it is)';
    expect(result.stdout.split('\n').filter((line) => line.startsWith('::'))).toEqual([
      "::warning file=content/journal.yaml,title=base_url::base_url: https://bulletin.example.org is an example address, the sample journal's (the journal's own address before it is deployed: see the checklist in docs/hosting/README.md)",
      `::warning file=content/journal.yaml,line=4,col=16,title=citation_issn::citation_issn: ${digit}`,
      `::warning file=content/volumes/volume-i.yaml,line=5,col=16,title=citation_issn::citation_issn: ${digit}`,
    ]);
    expect(result.stderr).not.toContain('Warning:');
  });

  it('annotates a warning beside the errors of a build that fails', async () => {
    const fixture = (file: string) => readFile(path.join(VALID_JOURNAL, file), 'utf8');
    workspace = await createWorkspace({
      'journal.yaml': (await fixture('journal.yaml')).replace(
        'https://journal.example.org',
        'https://bulletin.example.org',
      ),
      'volumes/volume-i.yaml': (await fixture('volumes/volume-i.yaml')).replace(/^udc: .*\n/m, ''),
    });
    const result = await runCli(workspace.root, ['check', '--format', 'github'], { env: { GITHUB_ACTIONS: 'true' } });
    expect(result.code).toBe(1);
    expect(result.stdout.split('\n').filter((line) => line.startsWith('::'))).toEqual([
      expect.stringMatching(/^::warning file=content\/journal\.yaml,title=base_url::base_url: /),
      expect.stringMatching(/^::error file=content\/volumes\/volume-i\.yaml(,line=\d+,col=\d+)?,title=udc::udc: /),
    ]);
  });

  it('refuses an unknown format', async () => {
    workspace = await createWorkspace();
    const result = await workspace.cli('check', '--format', 'xml');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--format is text or github');
  });
});
