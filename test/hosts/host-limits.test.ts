/**
 * The limits of the hosts named in `hosts` (content/journal.yaml) fail the build with the file or
 * count that breaks them, measured on the files as written and before the output is replaced, so
 * that the output stays as it was; GitHub and GitLab Pages warn.
 */
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { formatProblem } from '../../scripts/generator/model/problems.ts';
import {
  checkHostLimits,
  checkSite,
  HOST_LIMITS,
  limitsOf,
  measuredSite,
  type SiteFile,
} from '../../scripts/generator/stages/host-limits.ts';
import { renderHeaders, renderRedirects } from '../../scripts/hosts/cloudflare.ts';
import { hostRules } from '../../scripts/hosts/rules.ts';
import { snapshot } from '../helpers/snapshot.ts';
import { createWorkspace, VALID_JOURNAL, type Workspace } from '../helpers/workspace.ts';

const JOURNAL = 'content/journal.yaml';
const ruleFiles = { _headers: renderHeaders(hostRules), _redirects: renderRedirects(hostRules) };
const files = (n: number, bytes = 10) =>
  measuredSite(
    Array.from({ length: n }, (_, i): SiteFile => ({
      path: `media/pdfs/${i}.pdf`,
      bytes,
      source: `content/media/pdfs/${i}.pdf`,
    })),
  );

describe('checkSite', () => {
  it('passes the rule files the build writes on every host: their counts do not grow with content', () => {
    const check = checkSite(
      { hosts: ['cloudflare-pages', 'gitlab-pages', 'netlify', 's3-cloudfront'] },
      JOURNAL,
      files(10),
      ruleFiles,
    );
    expect(check.problems).toEqual([]);
  });

  it('fails past 20,000 files on Cloudflare Pages on the Free plan, at the hosts field, and says what to do', () => {
    for (const hosting of [{}, { cloudflare_pages_plan: 'free' as const }]) {
      expect(checkSite({ ...hosting, hosts: ['cloudflare-pages'] }, JOURNAL, files(20_000), ruleFiles)).toEqual({
        problems: [],
        warnings: [],
      });
      const [problem, ...rest] = checkSite(
        { ...hosting, hosts: ['cloudflare-pages'] },
        JOURNAL,
        files(20_001),
        ruleFiles,
      ).problems;
      expect(rest).toEqual([]);
      expect(problem).toMatchObject({ code: 'host/limit', file: JOURNAL, field: 'hosts' });
      expect(problem && formatProblem({ ...problem, line: 14, column: 1 })).toBe(
        'content/journal.yaml:14:1 hosts: the site has 20,001 files, more than Cloudflare Pages (hosts in content/journal.yaml) serves on the Free plan ' +
          '(at most 20,000 files on the Free plan; a paid Cloudflare plan serves up to 100,000: set cloudflare_pages_plan: paid beside hosts ' +
          "and the environment variable PAGES_WRANGLER_MAJOR_VERSION=4 in the Pages project's settings (docs/hosting/cloudflare-pages.md), " +
          'or publish to a host without a file limit, such as a server of your own (nginx, Apache, Caddy) or Amazon S3 + CloudFront (docs/hosting/README.md))',
      );
    }
  });

  it('passes a site just over 20,000 files on a paid plan, reminding that the Pages project needs its variable', () => {
    const check = checkSite(
      { hosts: ['cloudflare-pages'], cloudflare_pages_plan: 'paid' },
      JOURNAL,
      files(20_001),
      ruleFiles,
    );
    expect(check.problems).toEqual([]);
    expect(check.warnings).toEqual([
      "Cloudflare Pages: the site has 20,001 files, more than the Free plan's 20,000: the Pages project must set the environment variable " +
        'PAGES_WRANGLER_MAJOR_VERSION=4, or Cloudflare refuses the deployment (docs/hosting/cloudflare-pages.md).',
    ]);
    // Under the Free plan's limit there is nothing to remind.
    expect(
      checkSite({ hosts: ['cloudflare-pages'], cloudflare_pages_plan: 'paid' }, JOURNAL, files(20_000), ruleFiles)
        .warnings,
    ).toEqual([]);
  });

  it('fails past 100,000 files on a paid plan, pointing to the hosts without a file limit', () => {
    const paid = { hosts: ['cloudflare-pages'] as const, cloudflare_pages_plan: 'paid' as const };
    expect(checkSite(paid, JOURNAL, files(100_000), ruleFiles).problems).toEqual([]);
    const check = checkSite(paid, JOURNAL, files(100_001), ruleFiles);
    expect(check.warnings).toEqual([]);
    expect(check.problems.map((p) => [p.code, p.file, p.field, p.message, p.expected])).toEqual([
      [
        'host/limit',
        JOURNAL,
        'hosts',
        'the site has 100,001 files, more than Cloudflare Pages (hosts in content/journal.yaml) serves on a paid plan',
        'at most 100,000 files on a paid plan; the most Cloudflare Pages serves on any plan: publish to a host without a file limit, ' +
          'such as a server of your own (nginx, Apache, Caddy) or Amazon S3 + CloudFront (docs/hosting/README.md)',
      ],
    ]);
    // The plan changes Cloudflare's file count only: its 25 MiB a file stays.
    expect(limitsOf('cloudflare-pages', paid)).toEqual({
      ...HOST_LIMITS['cloudflare-pages'],
      plan: 'a paid plan',
      maxFiles: 100_000,
      tooManyFilesAdvice: expect.any(String),
    });
  });

  it('warns when a Cloudflare plan is named but Cloudflare Pages is not a host', () => {
    expect(checkSite({ hosts: ['netlify'], cloudflare_pages_plan: 'paid' }, JOURNAL, files(20_001), ruleFiles)).toEqual(
      {
        problems: [],
        warnings: [
          'content/journal.yaml: cloudflare_pages_plan is set, but hosts does not list cloudflare-pages: no Cloudflare Pages limit is checked.',
        ],
      },
    );
  });

  it('names the file that is over 25 MiB on Cloudflare Pages, and not on Firebase', () => {
    const big = measuredSite([
      {
        path: 'media/volumes/pdfs/2021/v.pdf',
        bytes: 25 * 1024 * 1024 + 1,
        source: 'content/media/volumes/pdfs/2021/v.pdf',
      },
    ]);
    expect(checkSite({ hosts: ['cloudflare-pages'] }, JOURNAL, big, ruleFiles).problems).toEqual([
      expect.objectContaining({
        code: 'host/limit',
        file: 'content/media/volumes/pdfs/2021/v.pdf',
        field: '',
        expected: 'at most 25 MiB per file',
      }),
    ]);
    expect(checkSite({ hosts: ['firebase'] }, JOURNAL, big, ruleFiles).problems).toEqual([]);
  });

  it('measures the files as written: a list and its twins at their own sizes, a PDF reported at its file under content/', () => {
    const MiB = 1024 * 1024;
    // The .br at the limit passes: before, each twin counted at its original's size.
    const sizes = [26 * MiB, 3 * MiB, 25 * MiB, 30 * MiB, 1000];
    const names = [
      'api/manuscripts/index.json',
      'api/manuscripts/index.json.gz',
      'api/manuscripts/index.json.br',
      'media/pdfs/big.pdf',
      'manuscripts/1/index.html',
    ];
    const files = { count: names.length, name: (file: number) => names[file]!, sizeOf: (file: number) => sizes[file]! };
    const copies = [{ from: '/x/content/media/pdfs/big.pdf', to: 'media/pdfs/big.pdf' }];
    const problems = checkHostLimits({ hosts: ['cloudflare-pages'] }, JOURNAL, files, ruleFiles, copies).problems;
    expect(problems.map((p) => [p.file, p.field, p.message])).toEqual([
      [
        JOURNAL,
        'hosts',
        'dist/api/manuscripts/index.json is 26 MiB, larger than Cloudflare Pages (hosts in content/journal.yaml) serves',
      ],
      [
        'content/media/pdfs/big.pdf',
        '',
        'is 30 MiB, larger than Cloudflare Pages (hosts in content/journal.yaml) serves',
      ],
    ]);
    expect(checkHostLimits({ hosts: ['firebase'] }, JOURNAL, files, ruleFiles, copies).problems).toEqual([]);
    expect(checkHostLimits({}, JOURNAL, files, ruleFiles, copies)).toEqual({ problems: [], warnings: [] });
  });

  it("counts header rules and static and dynamic redirects against Cloudflare's 100 / 2,000 / 100", () => {
    const headers = Array.from({ length: 101 }, (_, i) => `/p${i}\n  X-A: b`).join('\n');
    const dynamic = Array.from({ length: 101 }, (_, i) => `/d${i}/* /x/:splat 301`).join('\n');
    const statics = Array.from({ length: 2001 }, (_, i) => `/s${i} /x 301`).join('\n');
    const messages = (rules: Record<string, string>) =>
      checkSite({ hosts: ['cloudflare-pages'] }, JOURNAL, measuredSite([]), rules).problems.map((p) => p.message);
    expect(messages({ _headers: headers })).toEqual([
      '_headers has 101 rules, more than Cloudflare Pages (hosts in content/journal.yaml) reads',
    ]);
    expect(messages({ _redirects: dynamic })).toEqual([
      '_redirects has 101 rules with a splat or placeholder, more than Cloudflare Pages (hosts in content/journal.yaml) reads',
    ]);
    expect(messages({ _redirects: statics })).toEqual([
      '_redirects has 2001 static rules, more than Cloudflare Pages (hosts in content/journal.yaml) reads',
    ]);
    // GitLab Pages reads at most 1,000 rules in all.
    expect(
      checkSite({ hosts: ['gitlab-pages'] }, JOURNAL, measuredSite([]), { _redirects: statics }).problems.map(
        (p) => p.expected,
      ),
    ).toContain('at most 1,000');
  });

  it('fails a site over 1 GiB on GitHub Pages, and warns what its clients get', () => {
    const check = checkSite({ hosts: ['github-pages'] }, JOURNAL, files(2, 600 * 1024 * 1024), ruleFiles);
    expect(check.problems.map((p) => p.expected)).toEqual(['at most 1024 MiB in all']);
    expect(check.warnings).toHaveLength(1);
    expect(check.warnings[0]).toMatch(/^GitHub Pages: .*\/api\/<list>\/index\.json/);
  });

  it('knows every host the schema accepts', () => {
    expect(Object.keys(HOST_LIMITS).sort()).toEqual([
      'apache',
      'azure-static-web-apps',
      'caddy',
      'cloudflare-pages',
      'firebase',
      'github-pages',
      'gitlab-pages',
      'netlify',
      'nginx',
      's3-cloudfront',
      'vercel',
    ]);
  });
});

describe('the build with hosts in journal.yaml', () => {
  let workspace: Workspace | undefined;
  afterEach(async () => {
    await workspace?.dispose();
    workspace = undefined;
  });
  const journal = async (hosts: string) =>
    `${await readFile(path.join(VALID_JOURNAL, 'journal.yaml'), 'utf8')}\nhosts: ${hosts}\n`;
  const bigPdf = () => {
    const pdf = Buffer.alloc(25 * 1024 * 1024 + 1, 0x20);
    pdf.write('%PDF-1.4\n', 0, 'latin1');
    return pdf;
  };

  it('refuses a PDF over 25 MiB for Cloudflare Pages, names it, and writes nothing', async () => {
    workspace = await createWorkspace({
      'journal.yaml': await journal('[cloudflare-pages]'),
      'media/volumes/pdfs/2021/volume-i.pdf': bigPdf(),
    });
    const result = await workspace.build();
    expect(result.ok).toBe(false);
    expect(result.problems).toEqual([
      expect.objectContaining({
        code: 'host/limit',
        file: 'content/media/volumes/pdfs/2021/volume-i.pdf',
        message: 'is 25.0 MiB, larger than Cloudflare Pages (hosts in content/journal.yaml) serves',
      }),
    ]);
    await expect(stat(workspace.paths.out)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it("refuses a PDF grown over 25 MiB since the last build, and leaves that build's output as it was", async () => {
    // Everything else is unchanged, so the build takes it from the previous output into the new one
    // (write.ts): refused, every file taken goes back.
    workspace = await createWorkspace({ 'journal.yaml': await journal('[cloudflare-pages]') });
    expect((await workspace.build()).ok).toBe(true);
    const before = await snapshot(workspace.paths.out);
    await workspace.write('media/volumes/pdfs/2021/volume-i.pdf', bigPdf());
    const result = await workspace.build();
    expect(result.problems.map((p) => `${p.code} ${p.file}`)).toEqual([
      'host/limit content/media/volumes/pdfs/2021/volume-i.pdf',
    ]);
    expect(await snapshot(workspace.paths.out)).toEqual(before);
    expect((await readdir(workspace.root)).filter((name) => name.startsWith('.dist-'))).toEqual([]);
  });

  it('builds the same site for Firebase, whose limit is 2 GiB a file', async () => {
    workspace = await createWorkspace({
      'journal.yaml': await journal('[firebase]'),
      'media/volumes/pdfs/2021/volume-i.pdf': bigPdf(),
    });
    const result = await workspace.build();
    expect(result.problems).toEqual([]);
    expect(result.ok).toBe(true);
  });

  it('warns on the command line when GitHub Pages is a host', async () => {
    workspace = await createWorkspace({ 'journal.yaml': await journal('[github-pages, cloudflare-pages]') });
    const result = await workspace.cli('build');
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(
      /^Warning: GitHub Pages: it cannot set headers or map \/api\/<list>\/ to index\.json: clients must use \/api\/<list>\/index\.json/m,
    );
  });

  it('reports an unknown host at its line in journal.yaml', async () => {
    const text = await journal('\n  - netlify\n  - heroku');
    workspace = await createWorkspace({ 'journal.yaml': text });
    const result = await workspace.build('check');
    const line = text.split('\n').indexOf('  - heroku') + 1;
    expect(result.problems).toEqual([
      expect.objectContaining({ file: 'content/journal.yaml', line, field: 'hosts[1]', code: 'schema/format' }),
    ]);
  });
});
