/**
 * The orchestrator: it only wires the stages, in order. It returns a result and never prints or
 * exits; the command line decides how to show it.
 *
 *   discover → load (parse + validate, per file) → resolve → media → render → write
 */
import { discover } from './discover.ts';
import { loadJournal, loadRecord, type Records } from './load.ts';
import { checkMedia, forEachLimited } from './media.ts';
import type { OutputFile } from './output.ts';
import type { Problem } from './problems.ts';
import { findOutputConflicts, readPublicFiles } from './public-files.ts';
import { checkHostLimits } from './host-limits.ts';
import { renderApi } from './render-api.ts';
import { renderPages } from './render-pages.ts';
import { renderSitemap } from './render-sitemap.ts';
import { resolve, type ResolvedJournal } from './resolve.ts';
import { COLLECTION_NAMES } from './schema.ts';
import { writeSite, type WriteStats } from './write.ts';
import { renderApacheFiles } from '../hosts/apache.ts';
import { renderCloudflareFiles } from '../hosts/cloudflare.ts';
import { hostRules } from '../hosts/rules.ts';
import type { ProjectPaths } from '../project.ts';

export type BuildMode = 'build' | 'check';

export interface BuildResult {
  ok: boolean;
  problems: Problem[];
  counts: { authors: number; volumes: number; manuscripts: number; pdfs: number };
  written?: WriteStats;
  /** What the chosen hosts cannot do (issue 5); printed, never fatal. */
  warnings?: string[];
}

/** Files read at once: enough to keep the disk busy, few enough to keep memory flat. */
const READ_CONCURRENCY = 64;

export async function build(paths: ProjectPaths, mode: BuildMode): Promise<BuildResult> {
  const found = await discover(paths.root, paths.content);
  const problems: Problem[] = [...found.problems];

  const journal = found.journalFile ? await loadJournal(found.journalFile.file, found.journalFile.absolutePath) : { problems: [] };
  problems.push(...journal.problems);

  const records: Records = { authors: [], volumes: [], manuscripts: [], invalid: [] };
  for (const collection of COLLECTION_NAMES) {
    const loaded: (Records[typeof collection][number] | undefined)[] = new Array(found.files[collection].length);
    await forEachLimited([...found.files[collection].entries()], READ_CONCURRENCY, async ([i, source]) => {
      const result = await loadRecord(source);
      problems.push(...result.problems);
      if (result.invalid) records.invalid.push(result.invalid);
      loaded[i] = result.record as Records[typeof collection][number] | undefined;
    });
    // Keep discovery (sorted path) order, whatever order the reads finished in.
    (records[collection] as unknown[]) = loaded.filter((r) => r !== undefined);
  }

  const counts = { authors: records.authors.length, volumes: records.volumes.length, manuscripts: records.manuscripts.length, pdfs: 0 };
  if (!journal.journal) return { ok: false, problems, counts };

  const { resolved, problems: referenceProblems } = resolve(journal.journal, records);
  const media = await checkMedia(records, paths.content);
  problems.push(...referenceProblems, ...media.problems);
  counts.pdfs = media.copies.length;

  const rendered = problems.length === 0 && mode === 'build' ? await render(resolved, paths) : { outputs: [], groups: [], problems: [] };
  const conflicts = findOutputConflicts([
    ...rendered.groups,
    { source: 'content/media', outputs: media.copies.map((copy) => ({ path: copy.to, body: '' })) },
  ]);
  problems.push(...rendered.problems, ...conflicts);

  if (problems.length > 0) return { ok: false, problems, counts };
  if (mode === 'check') return { ok: true, problems, counts };
  const hosting = await checkHostLimits(journal.journal.hosts, found.journalFile?.file ?? 'content/journal.yaml', rendered.outputs, media.copies);
  if (hosting.problems.length > 0) return { ok: false, problems: hosting.problems, counts, warnings: hosting.warnings };
  const written = await writeSite(paths.out, rendered.outputs, media.copies);
  return { ok: true, problems, counts, written, warnings: hosting.warnings };
}

async function render(site: ResolvedJournal, paths: ProjectPaths) {
  const api = renderApi(site);
  const hostFiles = [...renderCloudflareFiles(hostRules), ...renderApacheFiles(hostRules)];
  const publicFiles = await readPublicFiles(paths.root, paths.public);
  const groups: { source: string; outputs: OutputFile[] }[] = [
    { source: 'the API lists', outputs: api },
    { source: 'the HTML pages', outputs: renderPages(site) },
    { source: 'the sitemap', outputs: renderSitemap(site) },
    { source: 'the host rules', outputs: hostFiles },
    ...publicFiles.outputs.map((output) => ({ source: `public/${output.path}`, outputs: [output] })),
  ];
  return { outputs: groups.flatMap((g) => g.outputs), groups, problems: publicFiles.problems };
}
