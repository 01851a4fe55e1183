/**
 * Stage 7: the hosts the journal publishes to (`hosts` in content/journal.yaml) each have
 * documented limits. A site that would break one fails the build here, with the file or the count
 * that breaks it: its files are measured as written into the staging folder, and the output stays
 * as it was. A host that cannot serve the contract as written gets a warning that says what its
 * clients will get instead (docs/hosting/<host>.md).
 *
 * The rule files are rendered from the host rules table with placeholders, so their counts do not
 * grow with the content; they are still counted here, so that a new rule cannot slip past a limit.
 */
import type { MediaCopy } from './media.ts';
import type { OutputFile, WrittenFiles } from '../../shared/output-file.ts';
import type { Problem } from '../model/problems.ts';
import { UNLOCATED } from '../model/records.ts';
import { countText as count } from '../../shared/count-text.ts';
import { parseHeaders } from '../../hosts/cloudflare.ts';
import { CLOUDFRONT_FUNCTION_MAX_BYTES, renderCloudfrontFunction } from '../../hosts/cloudfront-function.ts';
import { hostRules } from '../../hosts/rules.ts';
import type { AzureStaticWebAppsPlan, CloudflarePagesPlan, HostId } from '../model/host-ids.ts';

export { HOST_IDS, type HostId } from '../model/host-ids.ts';

/** What content/journal.yaml says about where the site is published (a `JournalInput` is one). */
export interface Hosting {
  hosts?: readonly HostId[] | undefined;
  cloudflare_pages_plan?: CloudflarePagesPlan | undefined;
  azure_static_web_apps_plan?: AzureStaticWebAppsPlan | undefined;
}

const MiB = 1024 * 1024;

export interface HostLimits {
  name: string;
  /** The plan the limits are for, where the host's limits depend on it: "the Free plan". */
  plan?: string;
  maxFiles?: number;
  /** What the journal can do about a site over `maxFiles`, in the report after the limit. */
  tooManyFilesAdvice?: string;
  /** What the journal can do about a site over `maxSiteBytes`, in the report after the limit. */
  tooLargeAdvice?: string;
  maxFileBytes?: number;
  maxSiteBytes?: number;
  /** `_headers`: path rules. */
  maxHeaderRules?: number;
  /** `_redirects`: rules without and with `*` or `:placeholder`, and all rules together. */
  maxStaticRedirects?: number;
  maxDynamicRedirects?: number;
  maxRedirects?: number;
  maxRedirectsFileBytes?: number;
  maxFunctionBytes?: number;
  /** Printed on every build for this host: what its clients get instead of the contract. */
  warning?: string;
}

/**
 * Cloudflare Pages' files per site on each plan (developers.cloudflare.com/pages/platform/limits/#files).
 * A paid plan's 100,000 holds only once the Pages project sets PAGES_WRANGLER_MAJOR_VERSION=4.
 */
const CLOUDFLARE_PAGES_MAX_FILES: Readonly<Record<CloudflarePagesPlan, number>> = {
  free: 20_000,
  paid: 100_000,
};

/** The variable a Pages project sets to get a paid plan's file limit (docs/hosting/cloudflare-pages.md). */
const CLOUDFLARE_PAGES_FILES_VARIABLE = 'PAGES_WRANGLER_MAJOR_VERSION=4';

const OTHER_HOSTS =
  'or publish to a host without a file limit, such as a server of your own (nginx, Apache, Caddy) or Amazon S3 + CloudFront (docs/hosting/README.md)';

/** Cloudflare Pages' limits that depend on the plan (`cloudflare_pages_plan`, free when omitted). */
const CLOUDFLARE_PAGES_PLAN_LIMITS: Record<CloudflarePagesPlan, Partial<HostLimits>> = {
  free: {
    plan: 'the Free plan',
    maxFiles: CLOUDFLARE_PAGES_MAX_FILES.free,
    tooManyFilesAdvice:
      `a paid Cloudflare plan serves up to ${count(CLOUDFLARE_PAGES_MAX_FILES.paid)}: set cloudflare_pages_plan: paid beside hosts ` +
      `and the environment variable ${CLOUDFLARE_PAGES_FILES_VARIABLE} in the Pages project's settings (docs/hosting/cloudflare-pages.md), ${OTHER_HOSTS}`,
  },
  paid: {
    plan: 'a paid plan',
    maxFiles: CLOUDFLARE_PAGES_MAX_FILES.paid,
    tooManyFilesAdvice: `the most Cloudflare Pages serves on any plan: ${OTHER_HOSTS.replace(/^or /, '')}`,
  },
};

/** Azure Static Web Apps' limits that depend on the plan (`azure_static_web_apps_plan`, free when omitted). */
const AZURE_STATIC_WEB_APPS_PLAN_LIMITS: Record<AzureStaticWebAppsPlan, Partial<HostLimits>> = {
  free: {
    plan: 'the Free plan',
    maxSiteBytes: 250 * MiB,
    tooLargeAdvice:
      'the Standard plan publishes up to 500 MiB: set azure_static_web_apps_plan: standard beside hosts once the app is on it ' +
      '(docs/hosting/azure-static-web-apps.md), or publish to a host without a size limit (docs/hosting/README.md)',
  },
  standard: {
    plan: 'the Standard plan',
    maxSiteBytes: 500 * MiB,
    tooLargeAdvice:
      'the most Azure Static Web Apps publishes: publish to a host without a size limit (docs/hosting/README.md)',
  },
};

/**
 * Each number is the host's documented limit on its free or only plan; docs/hosting/<host>.md cites
 * it. `limitsOf` gives the limits of the plan the journal names.
 */
export const HOST_LIMITS: Record<HostId, HostLimits> = {
  'cloudflare-pages': {
    name: 'Cloudflare Pages',
    ...CLOUDFLARE_PAGES_PLAN_LIMITS.free,
    maxFileBytes: 25 * MiB,
    maxHeaderRules: 100,
    maxStaticRedirects: 2_000,
    maxDynamicRedirects: 100,
  },
  netlify: { name: 'Netlify' },
  vercel: { name: 'Vercel' },
  firebase: { name: 'Firebase Hosting', maxFileBytes: 2 * 1024 * MiB },
  'azure-static-web-apps': { name: 'Azure Static Web Apps', ...AZURE_STATIC_WEB_APPS_PLAN_LIMITS.free },
  's3-cloudfront': { name: 'Amazon S3 + CloudFront', maxFunctionBytes: CLOUDFRONT_FUNCTION_MAX_BYTES },
  'github-pages': {
    name: 'GitHub Pages',
    maxSiteBytes: 1024 * MiB,
    warning:
      'it cannot set headers or map /api/<list>/ to index.json: clients must use /api/<list>/index.json, ' +
      'which comes as "application/json; charset=utf-8" without Allow or Vary: Accept, and other methods do not get 405 with Allow: GET (docs/hosting/github-pages.md)',
  },
  'gitlab-pages': {
    name: 'GitLab Pages',
    maxSiteBytes: 1024 * MiB,
    maxRedirects: 1_000,
    maxRedirectsFileBytes: 64 * 1024,
    warning:
      'it cannot set headers: /api/<list>/ is answered by its index.json through _redirects, ' +
      'but without Allow, Vary: Accept or Access-Control-Allow-Origin, and other methods do not get 405 with Allow: GET (docs/hosting/gitlab-pages.md)',
  },
  nginx: { name: 'nginx' },
  apache: { name: 'Apache httpd' },
  caddy: { name: 'Caddy' },
};

/** The limits of host `id` on the plan `hosting` names for it. */
export function limitsOf(id: HostId, hosting: Hosting): HostLimits {
  if (id === 'cloudflare-pages')
    return { ...HOST_LIMITS[id], ...CLOUDFLARE_PAGES_PLAN_LIMITS[hosting.cloudflare_pages_plan ?? 'free'] };
  if (id === 'azure-static-web-apps')
    return { ...HOST_LIMITS[id], ...AZURE_STATIC_WEB_APPS_PLAN_LIMITS[hosting.azure_static_web_apps_plan ?? 'free'] };
  return HOST_LIMITS[id];
}

export interface SiteFile {
  /** Path in `dist/`. */
  path: string;
  bytes: number;
  /** The file under content/ it is copied from, for the report; '' for a file the build renders. */
  source: string;
}

export interface HostCheck {
  problems: Problem[];
  warnings: string[];
}

/**
 * The orchestrator's entry: checks the files of the output as written into the staging folder
 * (`files`, each one's size in its stamp), before it is swapped in. They are not rendered again to
 * be measured: that would be every page and list a second time, and a build after an edit as slow
 * as a cold one. A PDF over a limit is reported at its file under content/ (`copies`).
 */
export function checkHostLimits(
  hosting: Hosting,
  journalFile: string,
  files: WrittenFiles,
  ruleFiles: Readonly<Record<string, string | undefined>>,
  copies: readonly MediaCopy[],
): HostCheck {
  const hosts = hosting.hosts ?? [];
  if (hosts.length === 0) return { problems: [], warnings: planWithoutHost(hosting, journalFile) };
  // `content/journal.yaml` -> `content`: the folder the PDFs are reported under.
  const contentPrefix = journalFile.split('/').slice(0, -1).join('/') || '.';
  // Only a file over a host's limit is reported at its source: the PDFs are looked up for those alone.
  const smallestLimit = Math.min(...hosts.map((id) => HOST_LIMITS[id].maxFileBytes ?? Infinity));
  let copied: Set<string> | undefined;
  const sourceOf = (name: string) =>
    (copied ??= new Set(copies.map((copy) => copy.to))).has(name) ? `${contentPrefix}/${name}` : '';
  // Only the files over a limit are named: at 100,000 manuscripts an object for each of 750,000
  // files was tens of MB at the top of a build's peak of memory.
  const site: MeasuredSite = { count: files.count, totalBytes: 0, large: [] };
  for (let file = 0; file < files.count; file++) {
    // A file whose stamp could not be taken (gone from the staging folder already) counts as empty.
    const bytes = files.sizeOf(file);
    if (Number.isNaN(bytes)) continue;
    site.totalBytes += bytes;
    if (bytes > smallestLimit) {
      const name = files.name(file);
      site.large.push({ path: name, bytes, source: sourceOf(name) });
    }
  }
  return checkSite(hosting, journalFile, site, ruleFiles);
}

/**
 * A site's files as checkSite measures them: how many, their bytes in all, and the files larger
 * than a host's limit per file (all of them will do).
 */
export interface MeasuredSite {
  count: number;
  totalBytes: number;
  large: SiteFile[];
}

/** A list of files as checkSite measures them. */
export function measuredSite(files: readonly SiteFile[]): MeasuredSite {
  return { count: files.length, totalBytes: files.reduce((sum, f) => sum + f.bytes, 0), large: [...files] };
}

/** The text of the rule files among the groups' outputs (`_headers`, `_redirects`), which the checks read. */
export function ruleFilesOf(groups: readonly { outputs: readonly OutputFile[] }[]): Record<string, string> {
  // Group by group: the 850,000 outputs at 100,000 manuscripts, joined in one array to find two
  // files, were 20 MB of garbage where a build after an edit peaked.
  return Object.fromEntries(
    groups.flatMap(({ outputs }) =>
      outputs.filter((o) => o.path === '_headers' || o.path === '_redirects').map((o) => [o.path, textOf(o)]),
    ),
  );
}

/**
 * Pure: the checks themselves, on measured files. A problem of the site as a whole is reported at
 * `hosts` in the journal file, left `UNLOCATED` for the orchestrator to find its line; a PDF's, at
 * the PDF.
 */
export function checkSite(
  hosting: Hosting,
  journalFile: string,
  site: MeasuredSite,
  ruleFiles: Readonly<Record<string, string | undefined>>,
): HostCheck {
  const hosts = hosting.hosts ?? [];
  const problems: Problem[] = [];
  const warnings = planWithoutHost(hosting, journalFile);
  const fail = (file: string, message: string, expected: string) =>
    problems.push({
      code: 'host/limit',
      file,
      ...(file === journalFile ? { ...UNLOCATED, field: 'hosts' } : { line: 0, column: 0, field: '' }),
      message,
      expected,
    });
  const { totalBytes } = site;
  const headers = ruleFiles['_headers'] === undefined ? [] : parseHeaders(ruleFiles['_headers']);
  const redirects = ruleFiles['_redirects'] === undefined ? [] : redirectLines(ruleFiles['_redirects']);
  const dynamic = redirects.filter((line) => /[*:]/.test(line.split(/\s+/)[0] ?? '')).length;

  for (const id of [...new Set(hosts)].sort()) {
    const limits = limitsOf(id, hosting);
    const on = `${limits.name} (hosts in ${journalFile})`;
    const onPlan = limits.plan ? ` on ${limits.plan}` : '';
    if (limits.maxFiles !== undefined && site.count > limits.maxFiles) {
      fail(
        journalFile,
        `the site has ${count(site.count)} files, more than ${on} serves${onPlan}`,
        `at most ${count(limits.maxFiles)} files${onPlan}` +
          (limits.tooManyFilesAdvice ? `; ${limits.tooManyFilesAdvice}` : ''),
      );
    } else if (
      id === 'cloudflare-pages' &&
      hosting.cloudflare_pages_plan === 'paid' &&
      site.count > CLOUDFLARE_PAGES_MAX_FILES.free
    ) {
      // Pages keeps the Free plan's limit until the project sets the variable: the build cannot see it.
      warnings.push(
        `${limits.name}: the site has ${count(site.count)} files, more than the Free plan's ` +
          `${count(CLOUDFLARE_PAGES_MAX_FILES.free)}: the Pages project must set the environment variable ` +
          `${CLOUDFLARE_PAGES_FILES_VARIABLE}, or Cloudflare refuses the deployment (docs/hosting/cloudflare-pages.md).`,
      );
    }
    if (limits.maxFileBytes !== undefined) {
      for (const file of site.large) {
        if (file.bytes > limits.maxFileBytes) {
          // A copied PDF is reported at its own file; a rendered one names its path in dist/.
          const what = file.source ? 'is' : `dist/${file.path} is`;
          fail(
            file.source || journalFile,
            `${what} ${size(file.bytes)}, larger than ${on} serves`,
            `at most ${size(limits.maxFileBytes)} per file`,
          );
        }
      }
    }
    if (limits.maxSiteBytes !== undefined && totalBytes > limits.maxSiteBytes) {
      fail(
        journalFile,
        `the site is ${size(totalBytes)}, more than ${on} publishes${onPlan}`,
        `at most ${size(limits.maxSiteBytes)} in all${onPlan}` +
          (limits.tooLargeAdvice ? `; ${limits.tooLargeAdvice}` : ''),
      );
    }
    if (limits.maxHeaderRules !== undefined && headers.length > limits.maxHeaderRules) {
      fail(
        journalFile,
        `_headers has ${headers.length} rules, more than ${on} reads`,
        `at most ${limits.maxHeaderRules}`,
      );
    }
    if (limits.maxStaticRedirects !== undefined && redirects.length - dynamic > limits.maxStaticRedirects) {
      fail(
        journalFile,
        `_redirects has ${redirects.length - dynamic} static rules, more than ${on} reads`,
        `at most ${count(limits.maxStaticRedirects)}`,
      );
    }
    if (limits.maxDynamicRedirects !== undefined && dynamic > limits.maxDynamicRedirects) {
      fail(
        journalFile,
        `_redirects has ${dynamic} rules with a splat or placeholder, more than ${on} reads`,
        `at most ${limits.maxDynamicRedirects}`,
      );
    }
    if (limits.maxRedirects !== undefined && redirects.length > limits.maxRedirects) {
      fail(
        journalFile,
        `_redirects has ${redirects.length} rules, more than ${on} reads`,
        `at most ${count(limits.maxRedirects)}`,
      );
    }
    const redirectsBytes = Buffer.byteLength(ruleFiles['_redirects'] ?? '');
    if (limits.maxRedirectsFileBytes !== undefined && redirectsBytes > limits.maxRedirectsFileBytes) {
      fail(
        journalFile,
        `_redirects is ${size(redirectsBytes)}, more than ${on} reads`,
        `at most ${size(limits.maxRedirectsFileBytes)}`,
      );
    }
    if (limits.maxFunctionBytes !== undefined) {
      const functionBytes = Buffer.byteLength(renderCloudfrontFunction(hostRules));
      if (functionBytes > limits.maxFunctionBytes) {
        fail(
          journalFile,
          `the CloudFront Function is ${size(functionBytes)}, more than ${on} accepts`,
          `at most ${size(limits.maxFunctionBytes)}`,
        );
      }
    }
    if (limits.warning) warnings.push(`${limits.name}: ${limits.warning}.`);
  }
  return { problems, warnings };
}

/** A plan named for a host the journal does not list is checked nowhere: say so, once. */
function planWithoutHost(hosting: Hosting, journalFile: string): string[] {
  const plans = [
    {
      field: 'cloudflare_pages_plan',
      set: hosting.cloudflare_pages_plan,
      host: 'cloudflare-pages',
      name: 'Cloudflare Pages',
    },
    {
      field: 'azure_static_web_apps_plan',
      set: hosting.azure_static_web_apps_plan,
      host: 'azure-static-web-apps',
      name: 'Azure Static Web Apps',
    },
  ] as const;
  return plans
    .filter((plan) => plan.set !== undefined && !hosting.hosts?.includes(plan.host))
    .map(
      (plan) =>
        `${journalFile}: ${plan.field} is set, but hosts does not list ${plan.host}: no ${plan.name} limit is checked.`,
    );
}

/** `_redirects` lines that are rules (not blank, not comments), as each host counts them. */
function redirectLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}

function textOf(output: OutputFile): string {
  if (typeof output.body === 'string') return output.body;
  if (typeof output.body === 'function') return [...output.body()].join('');
  return Buffer.from(output.body).toString('utf8');
}

function size(bytes: number): string {
  if (bytes >= MiB) return `${(bytes / MiB).toFixed(bytes % MiB === 0 ? 0 : 1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(bytes % 1024 === 0 ? 0 : 1)} KiB`;
  return `${bytes} bytes`;
}
