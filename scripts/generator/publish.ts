/**
 * What a build does that `check` never does: the renderers, the engine's second seam (outputs →
 * finished dist/), the hosts' limits, public/ and the web editor. The orchestrator loads this only
 * when it has a site to publish: at 1,000 manuscripts these modules were a third of the code a
 * `check` after one edit loaded, and loading them took about 13 ms of its 180.
 */
import type { ProjectPaths } from '../project.ts';
import { startOutput, type OutputOptions } from './engine/output.ts';
import type { WriteStats } from './engine/write/site-writer.ts';
import type { JournalInput } from './model/schema.ts';
import type { Renderer } from './model/site.ts';
import type { ExtraFiles, OutputSink } from './pipeline.ts';
import { RENDERERS } from './render/renderers.ts';
import { readAdminBundle } from './stages/admin-bundle.ts';
import { checkHostLimits, ruleFilesOf } from './stages/host-limits.ts';
import { readOaiHandler } from './stages/oai-handler.ts';
import { findOutputConflicts, readPublicFiles } from './stages/public-files.ts';

/** A build's output: written into dist/ (engine/output.ts), and measured against the hosts' limits. */
export function outputToDist(
  paths: ProjectPaths,
  renderers: readonly Renderer[] | undefined,
  options: OutputOptions,
): OutputSink<WriteStats> {
  return {
    async start(site) {
      const output = await startOutput(paths, site, renderers ?? RENDERERS, options);
      return {
        ...output,
        conflicts: (groups) => findOutputConflicts([...groups]),
        async finish(more, accept) {
          const written = await output.finish(more, accept);
          return written && { files: written, warnings: written.warnings };
        },
      };
    },
    readExtraFiles: (journal, journalFile) => readExtraFiles(paths, journal, journalFile),
    hostLimits(journal, journalFile, groups, copies) {
      const rules = ruleFilesOf(groups);
      return (files) => checkHostLimits(journal, journalFile, files, rules, copies);
    },
  };
}

/** The files a site has beside the renderers': public/, the web editor's and the OAI-PMH handler's. */
export async function readExtraFiles(
  paths: ProjectPaths,
  journal: JournalInput,
  journalFile: string,
): Promise<ExtraFiles> {
  const publicFiles = await readPublicFiles(paths.root, paths.public);
  const editor = await readAdminBundle(journal, journalFile);
  return { publicFiles, editor, oaiHandler: await readOaiHandler(journal) };
}
