/**
 * `azure_static_web_apps_plan` in content/journal.yaml: Azure Static Web Apps publishes at most
 * 250 MiB of content on its Free plan and 500 MiB on the Standard plan. The build checks the plan the
 * journal names (the Free plan when it names none), and says what to do when the site is larger.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { formatProblem } from '../../scripts/generator/model/problems.ts';
import { checkSite, measuredSite, type SiteFile } from '../../scripts/generator/stages/host-limits.ts';
import { renderHeaders, renderRedirects } from '../../scripts/hosts/cloudflare.ts';
import { hostRules } from '../../scripts/hosts/rules.ts';
import { createWorkspace, VALID_JOURNAL, type Workspace } from '../helpers/workspace.ts';

const JOURNAL = 'content/journal.yaml';
const MiB = 1024 * 1024;
const ruleFiles = { _headers: renderHeaders(hostRules), _redirects: renderRedirects(hostRules) };
/** A site of `total` bytes in four PDFs. */
const site = (total: number) =>
  measuredSite(
    Array.from({ length: 4 }, (_, i): SiteFile => ({ path: `media/pdfs/${i}.pdf`, bytes: total / 4, source: '' })),
  );

describe('Azure Static Web Apps by plan', () => {
  it('refuses more than 250 MiB on the Free plan, named or not, and says what to do', () => {
    for (const hosting of [
      { hosts: ['azure-static-web-apps' as const] },
      { hosts: ['azure-static-web-apps' as const], azure_static_web_apps_plan: 'free' as const },
    ]) {
      expect(checkSite(hosting, JOURNAL, site(250 * MiB), ruleFiles).problems).toEqual([]);
      const [problem, ...rest] = checkSite(hosting, JOURNAL, site(252 * MiB), ruleFiles).problems;
      expect(rest).toEqual([]);
      expect(problem!.message).toBe(
        'the site is 252 MiB, more than Azure Static Web Apps (hosts in content/journal.yaml) publishes on the Free plan',
      );
      expect(problem!.expected).toMatch(
        /^at most 250 MiB in all on the Free plan; .*azure_static_web_apps_plan: standard/,
      );
    }
  });

  it('publishes up to 500 MiB on the Standard plan, and refuses more', () => {
    const standard = { hosts: ['azure-static-web-apps' as const], azure_static_web_apps_plan: 'standard' as const };
    expect(checkSite(standard, JOURNAL, site(500 * MiB), ruleFiles).problems).toEqual([]);
    const problems = checkSite(standard, JOURNAL, site(504 * MiB), ruleFiles).problems;
    expect(problems.map((p) => p.expected)).toEqual([
      'at most 500 MiB in all on the Standard plan; the most Azure Static Web Apps publishes: publish to a host without a size limit (docs/hosting/README.md)',
    ]);
  });

  it('warns that a plan set for a host the journal does not list is checked nowhere', () => {
    const check = checkSite(
      { hosts: ['netlify'], azure_static_web_apps_plan: 'standard' },
      JOURNAL,
      site(MiB),
      ruleFiles,
    );
    expect(check.problems).toEqual([]);
    expect(check.warnings).toEqual([
      'content/journal.yaml: azure_static_web_apps_plan is set, but hosts does not list azure-static-web-apps: no Azure Static Web Apps limit is checked.',
    ]);
  });
});

describe('azure_static_web_apps_plan in journal.yaml', () => {
  let workspace: Workspace | undefined;
  afterEach(async () => {
    await workspace?.dispose();
    workspace = undefined;
  });

  it('reports a plan it does not know at its line, with the plans it knows', async () => {
    const text = `${await readFile(path.join(VALID_JOURNAL, 'journal.yaml'), 'utf8')}hosts:\n  - azure-static-web-apps\nazure_static_web_apps_plan: premium\n`;
    workspace = await createWorkspace({ 'journal.yaml': text });
    const result = await workspace.build();
    expect(result.ok).toBe(false);
    expect(result.problems.map(formatProblem)).toEqual([
      `content/journal.yaml:${text.split('\n').indexOf('azure_static_web_apps_plan: premium') + 1}:29 azure_static_web_apps_plan: is the string "premium" (free or standard: the Azure Static Web Apps plan the app is on)`,
    ]);
  });

  it('builds the sample journal on either plan', async () => {
    const base = `${await readFile(path.join(VALID_JOURNAL, 'journal.yaml'), 'utf8')}hosts:\n  - azure-static-web-apps\n`;
    workspace = await createWorkspace({ 'journal.yaml': `${base}azure_static_web_apps_plan: standard\n` });
    expect((await workspace.build()).ok).toBe(true);
    await workspace.write('journal.yaml', `${base}azure_static_web_apps_plan: free\n`);
    expect((await workspace.build()).ok).toBe(true);
  });
});
