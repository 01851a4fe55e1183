/**
 * `npm run dev`: loads the journal once, serves it from memory (dev-server.ts), watches content/ and
 * public/, builds again after each save and reloads the open pages. Prints its address, each
 * rebuild in one line, and each new set of problems once (model/problems.ts). Writes nothing but
 * the build cache: dist/ is left as the last `build` made it. Stops on SIGINT or SIGTERM.
 */
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { openLiveBuild, type LiveBuild, type LiveSite } from '../generator/live-build.ts';
import { formatProblem, formatReport } from '../generator/model/problems.ts';
import type { Progress } from '../generator/progress.ts';
import type { ProjectPaths } from '../project.ts';
import { createDevServer } from './dev-server.ts';
import { watchFolders } from './watch.ts';
import { listenOnPort, movedPortLine, type PortChoice } from '../shared/listen-port.ts';

export interface DevOptions {
  port: PortChoice;
  host: string;
  progress?: Progress;
}

export async function runDev(paths: ProjectPaths, options: DevOptions): Promise<number> {
  const started = performance.now();
  // The watch starts with the load, and the address is printed once both are ready: a save made
  // while the journal loads (or the watcher starts, a few seconds at 100,000 manuscripts) waits
  // for the load, and is never missed.
  let loaded!: (live: LiveBuild) => void;
  const loading = new Promise<LiveBuild>((resolve) => (loaded = resolve));
  const current: { live?: LiveBuild } = {};
  // It listens once the journal is loaded: no request reads the site before.
  const server = createDevServer({
    get site() {
      return current.live!.site;
    },
  });
  let shownProblems: string | undefined;
  const watching = watchFolders(
    [paths.content, paths.public],
    async (changed) => {
      const begun = performance.now();
      const ready = await loading;
      if (!(await ready.update(changed))) return;
      await settle(ready, changed, paths.root);
      server.reload();
      shownProblems = report(ready.site, shownProblems, `Rebuilt in ${Math.round(performance.now() - begun)} ms`);
    },
    // The watcher or a rebuild failed: an internal bug, with its stack; the server goes on.
    (error) => console.error(error),
  );
  const live = await openLiveBuild(paths, options.progress ? { progress: options.progress } : {}).catch(
    async (error: unknown) => {
      // Nothing may keep the process alive after a failed load.
      await (await watching).close();
      throw error;
    },
  );
  const watch = await watching;
  shownProblems = report(live.site, undefined, `Loaded in ${seconds(started)} s`);
  current.live = live;
  loaded(live);
  const listening = await listenOnPort((port) => server.listen(port, options.host), options.port, options.host).catch(
    async (error: unknown) => {
      // Nothing may keep the process alive when it cannot serve: the watch is closed.
      await watch.close();
      throw error;
    },
  );
  const { address } = listening;
  if (listening.busy !== undefined) console.log(movedPortLine(listening.busy, address));
  const origin = `http://${address.address.includes(':') ? `[${address.address}]` : address.address}:${address.port}`;
  console.log(
    `Serving the site at ${origin}/ (from memory; ${path.relative(paths.root, paths.out) || paths.out}/ is not touched).`,
  );
  console.log(
    `Watching ${[paths.content, paths.public].map((folder) => path.relative(paths.root, folder) || folder).join('/ and ')}/: pages reload by themselves. Press Ctrl+C to stop.`,
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

/**
 * How long a file just saved must stay as it is before its problems are shown. An editor's save
 * empties the file and then writes it: on a loaded machine the second step can come well after the
 * watcher's wait for a burst of events (watch.ts), and the file read between the two has problems
 * that the save does not.
 */
const QUIET_MS = 300;
/** Beyond this, a file still being written is shown as it is. */
const MOST_MS = 3000;

/** Until no file the site's problems name among `changed` was modified within QUIET_MS, loaded again as it is then. */
async function settle(live: LiveBuild, changed: readonly string[], root: string): Promise<void> {
  const since = Date.now();
  for (;;) {
    const site = live.site;
    if (site.ok) return;
    const named = new Set(site.problems.map((problem) => problem.file));
    const suspects = changed.filter((file) => named.has(path.relative(root, file).split(path.sep).join('/')));
    const modified = suspects.map((file) => lstatSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0);
    const wait = Math.max(0, ...modified) + QUIET_MS - Date.now();
    if (suspects.length === 0 || wait <= 0 || Date.now() - since > MOST_MS) return;
    await new Promise((resolve) => setTimeout(resolve, wait));
    // The same bytes as read before change nothing (live-build.ts).
    await live.update(suspects);
  }
}

/** One line per build; the problems once each time they change. Returns the report shown. */
function report(site: LiveSite, shown: string | undefined, what: string): string | undefined {
  const { authors, volumes, manuscripts, pdfs } = site.counts;
  if (site.ok) {
    console.log(`${what}: ${authors} authors, ${volumes} volumes, ${manuscripts} manuscripts, ${pdfs} PDFs.`);
    const warnings = site.warnings.map((warning) => `Warning: ${formatProblem(warning)}`).join('\n');
    if (warnings && warnings !== shown) console.error(warnings);
    return warnings || undefined;
  }
  const warnings = site.warnings.map((warning) => `Warning: ${formatProblem(warning)}`).join('\n');
  const text = formatReport(site.problems) + (warnings ? `\n\n${warnings}` : '');
  if (text !== shown) console.error(`${what}, with problems (the pages show them too):\n${text}`);
  return text;
}

function seconds(since: number): string {
  return ((performance.now() - since) / 1000).toFixed(2);
}
