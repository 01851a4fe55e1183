/**
 * `npm run dev`: loads the journal once, serves it from memory (dev-server.ts), watches content/ and
 * public/, builds again after each save and reloads the open pages. Prints its address, each
 * rebuild in one line, and each new set of problems once (model/problems.ts). Writes nothing but
 * the build cache: dist/ is left as the last `build` made it. Stops on SIGINT or SIGTERM.
 */
import path from 'node:path';
import { openLiveBuild, type LiveSite } from '../generator/live-build.ts';
import { formatReport } from '../generator/model/problems.ts';
import type { Progress } from '../generator/progress.ts';
import type { ProjectPaths } from '../project.ts';
import { createDevServer } from './dev-server.ts';
import { watchFolders } from './watch.ts';

export interface DevOptions {
  port: number;
  host: string;
  progress?: Progress;
}

export async function runDev(paths: ProjectPaths, options: DevOptions): Promise<number> {
  const started = performance.now();
  const live = await openLiveBuild(paths, options.progress ? { progress: options.progress } : {});
  const server = createDevServer(live);
  const address = await server.listen(options.port, options.host);
  const origin = `http://${address.address.includes(':') ? `[${address.address}]` : address.address}:${address.port}`;
  let shownProblems = report(live.site, undefined, `Loaded in ${seconds(started)} s`);
  console.log(
    `Serving the site at ${origin}/ (from memory; ${path.relative(paths.root, paths.out) || paths.out}/ is not touched).`,
  );
  console.log(
    `Watching ${[paths.content, paths.public].map((folder) => path.relative(paths.root, folder) || folder).join('/ and ')}/: pages reload by themselves. Press Ctrl+C to stop.`,
  );

  const watch = await watchFolders(
    [paths.content, paths.public],
    async (changed) => {
      const begun = performance.now();
      if (!(await live.update(changed))) return;
      server.reload();
      shownProblems = report(live.site, shownProblems, `Rebuilt in ${Math.round(performance.now() - begun)} ms`);
    },
    // The watcher or a rebuild failed: an internal bug, with its stack; the server goes on.
    (error) => console.error(error),
  );

  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      void Promise.all([watch.close(), server.close()]).then(() => resolve());
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  return 0;
}

/** One line per build; the problems once each time they change. Returns the report shown. */
function report(site: LiveSite, shown: string | undefined, what: string): string | undefined {
  const { authors, volumes, manuscripts, pdfs } = site.counts;
  if (site.ok) {
    console.log(`${what}: ${authors} authors, ${volumes} volumes, ${manuscripts} manuscripts, ${pdfs} PDFs.`);
    return undefined;
  }
  const text = formatReport(site.problems);
  if (text !== shown) console.error(`${what}, with problems (the pages show them too):\n${text}`);
  return text;
}

function seconds(since: number): string {
  return ((performance.now() - since) / 1000).toFixed(2);
}
