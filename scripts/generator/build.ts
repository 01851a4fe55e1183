/**
 * The orchestrator of `build` and `check`: the content loaded through the build cache, then the
 * stages after loading (pipeline.ts, which `npm run dev` runs too) into dist/ or, for `check`,
 * nowhere. It returns a result and never prints or exits; the command line decides how to show
 * it. The engine (engine/content.ts, engine/output.ts) runs the stages fast; what is cached,
 * threaded or reused is decided there, never here.
 *
 *   discover → load → media → resolve → render → write
 */
import path from 'node:path';
import type { ProjectPaths } from '../project.ts';
import { outputFolder } from '../shared/output-folder.ts';
import { switchGeneration } from '../shared/output-generations.ts';
import { loadContentFiles } from './engine/content.ts';
import type { BuildMode, BuildOptions, BuildResult } from './build-types.ts';
import { formatProblem } from './model/problems.ts';
import { runPipeline } from './pipeline.ts';
import { silentProgress } from './progress.ts';
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
  const { checked, parsed } = content;
  const sink = publishing?.then((publish) =>
    publish.outputToDist(paths, options.renderers, {
      ...options,
      progress,
      previous: content.scan,
      fingerprint: content.fingerprint,
    }),
  );
  sink?.catch(() => {});
  const { files, contentWarnings, ...result } = await runPipeline(
    {
      journal: content.journal,
      journalFile: content.journalFile ?? 'content/journal.yaml',
      records: content.records,
      checked,
      problems: content.problems,
      counts: { authors: checked.authors, volumes: checked.volumes.length, manuscripts: checked.manuscripts.length },
      checkMedia: () => content.checkMedia(mode === 'build'),
      locate: (problems) => content.locate(problems),
    },
    sink,
    {
      progress,
      ...(options.warnExampleDomains === undefined ? {} : { warnExampleDomains: options.warnExampleDomains }),
    },
  );
  const built: BuildResult = { ...result, ...(files ? { written: files } : {}), parsed };
  // The content's warnings are printed before the hosts' and the writer's.
  return contentWarnings.length
    ? {
        ...built,
        warnings: [...contentWarnings.map(formatProblem), ...(built.warnings ?? [])],
        contentWarnings,
      }
    : built;
}
