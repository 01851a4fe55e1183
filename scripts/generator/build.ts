/**
 * The orchestrator: the stages, in order. It returns a result and never prints or exits; the
 * command line decides how to show it. The engine (engine/content.ts, engine/output.ts) runs the
 * stages fast; what is cached, threaded or reused is decided there, never here.
 *
 *   discover → load → media → resolve → render → write
 */
import path from 'node:path';
import type { ProjectPaths } from '../project.ts';
import { appendAll } from '../shared/append-all.ts';
import { outputFolder } from '../shared/output-folder.ts';
import { switchGeneration } from '../shared/output-generations.ts';
import { loadContentFiles } from './engine/content.ts';
import type { BuildMode, BuildOptions, BuildResult } from './build-types.ts';
import { formatProblem, isUnreadFolder, takeWarnings } from './model/problems.ts';
import { journalWarnings } from './model/content-warnings.ts';
import { oaiWarnings } from './model/oai-settings.ts';
import { silentProgress, timed } from './progress.ts';
import type { HostCheck } from './stages/host-limits.ts';
import { checkReferences, orderJournal, withAuthorsFound } from './stages/resolve.ts';
import { recoverOutput } from './stages/write.ts';

export type { BuildMode, BuildOptions, BuildResult } from './build-types.ts';

export async function build(given: ProjectPaths, mode: BuildMode, options: BuildOptions = {}): Promise<BuildResult> {
  // An output that is a link is written through to its folder; the link itself is never touched,
  // unless a build made it (--atomic): the build then writes a folder of its own and switches it.
  const { folder, generations, relinked } = await outputFolder(
    given.out,
    path.relative(given.root, given.out) || given.out,
    {
      atomic: mode === 'build' && options.atomic === true,
    },
  );
  const paths: ProjectPaths = folder === given.out ? given : Object.freeze({ ...given, out: folder });
  // What a killed build left beside the output is settled first: never a missing site.
  const recovered = [...relinked, ...(await recoverOutput(paths.out, paths.cache))];
  const result = await stages(paths, mode, options);
  if (generations && result.ok && result.written) await switchGeneration(given.out, options.switchSteps);
  return recovered.length ? { ...result, warnings: [...recovered, ...(result.warnings ?? [])] } : result;
}

async function stages(paths: ProjectPaths, mode: BuildMode, options: BuildOptions): Promise<BuildResult> {
  const progress = options.progress ?? silentProgress;
  // Only a build renders and writes: `check` never loads the modules that do (publish.ts), and a
  // build loads them while its content loads (imported after loading, a build after an edit at
  // 1,000 manuscripts took 10 ms longer).
  const publishing = mode === 'build' ? import('./publish.ts') : undefined;
  publishing?.catch(() => {}); // awaited where there is a site to publish, or never
  const content = await loadContentFiles(paths, mode, { ...options, progress });
  const { journal, records, checked, problems, parsed } = content;
  // The journal's settings file, where its warnings and the hosts' and the editor's problems point.
  const journalFile = content.journalFile ?? 'content/journal.yaml';
  // Warnings are printed with the result and never stop the build.
  const warned = takeWarnings(problems);
  if (journal && options.warnExampleDomains !== false) appendAll(warned, journalWarnings(journal, journalFile));
  const done = (result: BuildResult): BuildResult =>
    warned.length
      ? { ...result, warnings: [...warned.map(formatProblem), ...(result.warnings ?? [])], contentWarnings: warned }
      : result;
  const counts = {
    authors: checked.authors,
    volumes: checked.volumes.length,
    manuscripts: checked.manuscripts.length,
    pdfs: 0,
  };
  if (!journal) return done({ ok: false, problems, counts, parsed });
  // A journal too large for the OAI static repository is told why it gets none (docs/oai-pmh.md).
  appendAll(warned, oaiWarnings(journal, journalFile, counts.manuscripts));

  const media = content.checkMedia(mode === 'build');
  const site = problems.length === 0 && records ? orderJournal(journal, records) : undefined;
  const publish = site && (await publishing);
  const output =
    site &&
    publish &&
    (await publish.startOutput(paths, site, options.renderers ?? publish.RENDERERS, {
      ...options,
      progress,
      previous: content.scan,
      fingerprint: content.fingerprint,
    }));
  try {
    const checkedMedia = await media;
    appendAll(problems, checkedMedia.problems);
    counts.pdfs = checkedMedia.pdfs;
    if (problems.length === 0) output?.copyMedia(checkedMedia.copies);
    const references = site && records ? withAuthorsFound(checked, records, site) : checked;
    const all = counts.authors + counts.volumes + counts.manuscripts;
    if (!problems.some(isUnreadFolder)) {
      const found = await timed(progress, 'resolve', all, () => checkReferences(journal, references));
      // Its warnings (a volume named by an id that is not its numeral) never stop the build either.
      const referenceWarnings = takeWarnings(found);
      appendAll(problems, found);
      await content.locate(referenceWarnings);
      appendAll(warned, referenceWarnings);
    }

    const publicFiles =
      publish && output && problems.length === 0 ? await publish.readPublicFiles(paths.root, paths.public) : undefined;
    const editor =
      publish && output && problems.length === 0 ? await publish.readAdminBundle(journal, journalFile) : undefined;
    const oaiHandler = publish && output && problems.length === 0 ? await publish.readOaiHandler(journal) : [];
    const extra = [...(publicFiles?.outputs ?? []), ...(editor?.outputs ?? []), ...oaiHandler];
    appendAll(problems, publicFiles?.problems ?? []);
    appendAll(problems, editor?.problems ?? []);
    appendAll(problems, output?.problems ?? []);
    problems.push(
      ...(publish?.findOutputConflicts([
        ...(output?.groups ?? []),
        ...(publicFiles?.outputs ?? []).map((file) => ({ source: `public/${file.path}`, outputs: [file] })),
        { source: 'the web editor', outputs: editor?.outputs ?? [] },
        { source: 'the OAI-PMH handler', outputs: oaiHandler },
        { source: 'content/media', outputs: checkedMedia.copies.map((copy) => ({ path: copy.to, body: '' })) },
      ]) ?? []),
    );
    if (problems.length > 0) {
      await output?.abandon();
      await content.locate(problems);
      return done({ ok: false, problems, counts, parsed });
    }
    if (!publish || !output) return done({ ok: true, problems, counts, parsed });

    // The hosts' limits, on the files as written, before they are swapped in.
    const rules = publish.ruleFilesOf([...output.groups, { outputs: extra }]);
    let hosting: HostCheck = { problems: [], warnings: [] };
    const written = await output.finish(extra, (files) => {
      hosting = publish.checkHostLimits(journal, journalFile, files, rules, checkedMedia.copies);
      return hosting.problems.length === 0;
    });
    if (!written) {
      await content.locate(hosting.problems);
      return done({ ok: false, problems: hosting.problems, counts, warnings: hosting.warnings, parsed });
    }
    return done({
      ok: true,
      problems,
      counts,
      written,
      warnings: [...hosting.warnings, ...(written.warnings ?? [])],
      parsed,
    });
  } catch (error) {
    await output?.abandon();
    throw error;
  }
}
