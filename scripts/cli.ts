/**
 * The command line: reads arguments and the environment once, calls one command, prints its
 * result and sets the exit code. Everything it calls is a plain function that tests call directly.
 * Started by cli.cjs (`npm run <command>`), which registers the TypeScript loader.
 *
 *   build | check | preview | dev | new <kind> | admin | config <host> | schema | clean | import <source> | export <file>
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { BuildMode, BuildOptions } from './generator/build.ts';
import { startContentScan } from './generator/start-scan.ts';
import { terminalProgress } from './generator/progress.ts';
import { formatGithubAnnotations, formatProblem, formatReport, nearest } from './generator/model/problems.ts';
import { holdOutputLock, lockFileOf, OutputLocked } from './shared/output-lock.ts';
import { isNoSpace, NoSpace, noSpaceLine } from './shared/no-space.ts';
import { commandOutput } from './shared/output-folder.ts';
import { Stopped } from './shared/stopped.ts';
import { recoverInterrupted } from './recovery.ts';
import { UsageError } from './shared/usage-error.ts';
import type { PortChoice } from './shared/listen-port.ts';
import { projectPaths, type ProjectPaths } from './project.ts';

/*
 * Each command's modules are imported when that command runs (`check` after one edit
 * is measured in tenths of a second, and importing the preview server, the import and export
 * commands and every host renderer cost about a tenth of its start).
 */

/** The usage text; it names the hosts of the registry, imported only when the text is printed. */
async function usage(): Promise<string> {
  const { HOST_CONFIGS, PLATFORM_CONFIGS } = await import('./hosts/configs.ts');
  return `Usage: npm run <command> [-- options]

  build     validate content/ and write dist/           [--content DIR] [--out DIR] [--format text|github] [--progress] [--no-cache] [--atomic]
                                                         [--link-media] (PDFs hard-linked, not copied: CI from a fresh checkout)
                                                         [--allow-shrink] (publish a list that lost all or most of its records)
  check     validate content/ only, write no output      [--content DIR] [--format text|github] [--progress] [--no-cache]
  preview   serve dist/ as the CDN will                  [--dir DIR] [--port N] [--host H]
  dev       serve the site from memory while you edit:   [--content DIR] [--port N] [--host H]
            rebuilds on save, reloads the page, shows problems in it
  admin     the web editor, saving into content/         [--content DIR] [--port N] [--host H]
  config    print a server configuration                 <${Object.keys(HOST_CONFIGS).join('|')}> --root DIR [--port N]
            print a hosting platform's file              <${Object.keys(PLATFORM_CONFIGS).join('|')}>
  schema    write the editors' JSON Schemas              [--out DIR]
  clean     remove dist/ and the build cache
  import    content/ from a deployment or a dump         <url|dump.json|folder> [--force] [--volume-ids V=1,I=2,...]
                                                         [--title T] [--base-url URL] [--download-media] [--media-from DIR] [--timeout S]
  export    write the built lists as one dump file       <out.json> [--content DIR]
  crossref  write one volume's Crossref deposit file    <volume> [--timestamp YYYYMMDDhhmmss] [--out FILE] (docs/crossref.md)
  new       write a new record file in content/           manuscript --title T [--volume V] [--authors a,b] [--section S]
                                                         author --name N --surname S [--institution I]
                                                         volume`;
}

/** A wrong call said in one sentence and the command to run, without the usage text after it. */
class BriefUsageError extends UsageError {}

/** The commands of `npm run`, for "did you mean". */
const COMMANDS = ['build', 'check', 'preview', 'dev', 'new', 'admin', 'config', 'schema', 'clean', 'import', 'export'];

/** parseArgs' own errors, in one sentence that names the command and what to run instead. */
function parseArguments<T extends ParseArgsConfig>(
  command: string | undefined,
  config: T,
): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const message = (error as Error).message;
    const option = /^(?:Unknown option|Option) '([^' ]+)/.exec(message)?.[1];
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) {
      const known = Object.keys(config?.options ?? {}).map((name) => `--${name}`);
      const guess = nearest(option, known);
      const where = command && COMMANDS.includes(command) ? `npm run ${command}` : 'The command';
      throw new BriefUsageError(
        `${where} has no option ${option}${guess ? `; did you mean ${guess}?` : '.'}\n` +
          `Every command and option: npm run ${command && COMMANDS.includes(command) ? command : 'build'} -- --help`,
      );
    }
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option)
      throw new BriefUsageError(`${option} needs a value: ${option} <value>`);
    throw error;
  }
}

async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [command, ...rest] = argv;
  // `new` reads options of its own, per kind; today's date is its input (the build reads no clock).
  if (command === 'new')
    return (await import('./new/command.ts')).runNew(rest, localDate(new Date()), (content) =>
      projectPaths(process.cwd(), { content }),
    );
  if (command === 'crossref')
    return (await import('./crossref/command.ts')).runCrossref(rest, new Date(), process.cwd());
  const { values, positionals } = parseArguments(command, {
    args: rest,
    allowPositionals: true,
    options: {
      content: { type: 'string' },
      out: { type: 'string' },
      dir: { type: 'string' },
      root: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      'server-name': { type: 'string' },
      format: { type: 'string' },
      force: { type: 'boolean' },
      'volume-ids': { type: 'string' },
      title: { type: 'string' },
      'base-url': { type: 'string' },
      'download-media': { type: 'boolean' },
      'media-from': { type: 'string' },
      timeout: { type: 'string' },
      progress: { type: 'boolean' },
      'no-cache': { type: 'boolean' },
      'link-media': { type: 'boolean' },
      'allow-shrink': { type: 'boolean' },
      atomic: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || !command || command === '--help' || command === '-h') {
    console.log(await usage());
    return command ? 0 : 2;
  }
  const given = projectPaths(process.cwd(), { content: values.content, out: values.out ?? values.dir });
  const shown = (file: string) => path.relative(given.root, file) || file;
  // A link to the served folder is written through (shared/output-folder.ts); one that points nowhere stops
  // a build only. A link a build switches (--atomic) stays the output's name: build.ts writes beside it.
  const output = await commandOutput(given.out, shown(given.out), command === 'build', values.atomic === true);
  const paths: ProjectPaths = Object.freeze({ ...given, out: output.generations ? given.out : output.folder });
  // One build at a time writes an output folder (shared/output-lock.ts); clean waits for none either.
  if (command === 'build' || command === 'clean')
    holdOutputLock(paths.out, { folder: shown(paths.out), lockFile: shown(lockFileOf(paths.out)) });
  // An import or a build killed part way is settled before anything reads content/ or dist/.
  if (['build', 'check', 'preview', 'dev', 'admin', 'clean', 'import'].includes(command))
    for (const done of [...output.relinked, ...(await recoverInterrupted(paths))]) console.warn(`Warning: ${done}`);

  switch (command) {
    case 'build':
    case 'check':
      if (values.format !== undefined && values.format !== 'text' && values.format !== 'github')
        throw new UsageError('--format is text or github');
      return runBuild(paths, output.folder, command, values.format ?? 'text', {
        // Progress on a terminal (or when asked, as final lines only), never in logs otherwise.
        ...(process.stderr.isTTY || values.progress
          ? { progress: terminalProgress(process.stderr, { live: process.stderr.isTTY }) }
          : {}),
        ...(values['no-cache'] ? { cache: false } : {}),
        ...(values['link-media'] && command === 'build' ? { linkMedia: true } : {}),
        ...(values['allow-shrink'] ? { allowShrink: true } : {}),
        ...(output.generations ? { atomic: true } : {}),
      });
    case 'preview':
      return runPreview(paths, portChoice(values.port ?? env['PORT'], 8080), values.host ?? env['HOST'] ?? '127.0.0.1');
    case 'admin':
      return runAdmin(paths, portChoice(values.port, 8090), values.host ?? '127.0.0.1', env);
    case 'dev':
      return (await import('./dev/command.ts')).runDev(paths, {
        port: portChoice(values.port ?? env['PORT'], 8080),
        host: values.host ?? env['HOST'] ?? '127.0.0.1',
        ...(process.stderr.isTTY ? { progress: terminalProgress(process.stderr, { live: true }) } : {}),
      });
    case 'config': {
      const { renderHostConfig, HOST_CONFIGS, PLATFORM_CONFIGS } = await import('./hosts/configs.ts');
      const host = positionals[0];
      const platform = host === undefined ? undefined : PLATFORM_CONFIGS[host];
      if (platform) {
        process.stdout.write(platform.render());
        return 0;
      }
      const hosts = [...Object.keys(HOST_CONFIGS), ...Object.keys(PLATFORM_CONFIGS)];
      if (host && !(host in HOST_CONFIGS)) {
        const guess = nearest(host, hosts);
        const run =
          guess === undefined
            ? `npm run config -- nginx --root /srv/journal/dist (hosts: ${hosts.join(', ')})`
            : guess in PLATFORM_CONFIGS
              ? `npm run config -- ${guess}`
              : `npm run config -- ${guess} --root /srv/journal/dist`;
        throw new BriefUsageError(
          `"${host}" is not a host we write a configuration for${guess ? `; did you mean ${guess}?` : '.'}\nRun: ${run}`,
        );
      }
      if (!host) throw new UsageError(`config needs a host: one of ${hosts.join(', ')}`);
      if (!values.root) throw new UsageError('config needs --root, the absolute path the built dist/ is deployed to');
      const { journalPublishesOai } = await import('./hosts/journal-oai.ts');
      process.stdout.write(
        renderHostConfig(host, {
          root: path.resolve(values.root),
          port: parsePort(values.port ?? '80'),
          serverName: values['server-name'] ?? '_',
          oai: await journalPublishesOai(paths.root, paths.content),
        }),
      );
      return 0;
    }
    case 'schema':
      return writeSchemas(paths.content, path.resolve(values.out ?? path.join(paths.content, 'schemas')));
    case 'clean':
      console.log(await (await import('./clean.ts')).clean(paths, output, shown));
      return 0;
    case 'import':
      return (await import('./import/commands.ts')).runImport(paths, positionals, {
        force: values.force,
        volumeIds: values['volume-ids'],
        title: values.title,
        baseUrl: values['base-url'],
        downloadMedia: values['download-media'],
        mediaFrom: values['media-from'],
        timeout: values.timeout,
      });
    case 'export': {
      return (await import('./import/commands.ts')).runExport(paths, positionals, withCollections());
    }
    default: {
      const guess = nearest(command, COMMANDS);
      throw new UsageError(`unknown command "${command}"${guess ? `; did you mean ${guess}?` : ''}`);
    }
  }
}

/**
 * What a build that writes (`build`, and `export`, which builds into a folder of its own) is given
 * to collect its garbage with, where `gc` is exposed: a large journal's cold build runs with V8's
 * heap growing by a quarter of what it holds, and with `gc` exposed, both given when its process
 * starts (build-process.cjs). Without `gc` (a small journal, built in the command line's own
 * process), nothing is given.
 *
 * A build that parsed most of its files collects once loading is done: loading leaves the records
 * and the garbage of parsing them, and one collection then (`loaded`) sets the heap's next limit
 * from what the build keeps, not from what loading left; such a build renders every page, and a
 * large one collects again after writing (`collect`, engine/output.ts, at `written`). A large
 * build that took nearly every record from the index (after an edit) collects before the pages and
 * once the previous output's files to reuse are found: restoring the records, keying the outputs
 * and that search leave garbage the write stage's own would pile onto. At 100,000 manuscripts the
 * first took the peak from 1,163 to 1,182 MiB to 1,079 MiB for about 0.3 s; the second from 959 to
 * 999 MiB to 945 to 966 MiB, in no more time (six alternating runs each). One after writing saved
 * 20 MiB for 0.3 to 1 s.
 */
function withCollections(): Pick<BuildOptions, 'loaded' | 'collect'> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return {};
  let cold = false;
  let large = false;
  return {
    loaded: ({ total, parsed }) => {
      cold = parsed > total / 10;
      large = total >= COLLECT_IN_WRITING_FROM;
      if (cold) gc();
    },
    collect: (moment) => {
      if (large && (moment === 'pages' || moment === (cold ? 'written' : 'reuse'))) gc();
    },
  };
}

/**
 * Content files from which a build also collects in the write stage (about 50,000 manuscripts
 * with their authors). At 100,000 manuscripts the two collections took the peak from 1,002 and
 * 1,021 MiB to 987 MiB for 1.5 s; at 10,000 they saved 2 MB for about 0.5 s of CPU.
 */
const COLLECT_IN_WRITING_FROM = 125_000;

async function runBuild(
  paths: ProjectPaths,
  written: string,
  mode: BuildMode,
  format: 'text' | 'github',
  options: BuildOptions = {},
): Promise<number> {
  const collections = mode === 'build' ? withCollections() : {};
  // The content folders are listed and stamped while the build's modules load (about a fifth of
  // a second at startup in which the other core was idle).
  const scan = startContentScan(paths.content, mode === 'build' ? { outDir: written } : {});
  const { build } = await import('./generator/build.ts');
  const started = performance.now();
  const result = await build(paths, mode, { ...options, scan, ...collections });
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  if (format === 'github') {
    // One workflow command per problem, so a pull request shows each on its file and line; a
    // warning about the content too (a `::warning` there), the others on no file.
    const located = result.contentWarnings ?? [];
    const asText = new Set(located.map(formatProblem));
    const annotations = formatGithubAnnotations(
      [...result.problems, ...located],
      (result.warnings ?? []).filter((warning) => !asText.has(warning)),
    );
    if (annotations) console.log(annotations);
  } else {
    for (const warning of result.warnings ?? []) console.warn(`Warning: ${warning}`);
  }
  if (!result.ok && format === 'github') {
    console.error(`${result.problems.length} problem${result.problems.length === 1 ? '' : 's'} found.`);
    return 1;
  }
  if (!result.ok) {
    console.error(formatReport(result.problems));
    console.error(
      mode === 'build' ? `Nothing was written; ${path.relative(paths.root, paths.out)}/ is unchanged.` : '',
    );
    return 1;
  }
  const { authors, volumes, manuscripts, pdfs } = result.counts;
  const summary = `${authors} authors, ${volumes} volumes, ${manuscripts} manuscripts, ${pdfs} PDFs`;
  console.log(
    mode === 'build'
      ? `Built ${summary} into ${path.relative(paths.root, paths.out)}/ in ${seconds} s.`
      : `Checked ${summary}: no problems (${seconds} s).`,
  );
  return 0;
}

async function runPreview(paths: ProjectPaths, port: PortChoice, host: string): Promise<number> {
  // http-server's `union` layer reads a deprecated response field on every request; the warning
  // says nothing the user can act on.
  process.noDeprecation = true;
  if (!existsSync(path.join(paths.out, 'api'))) {
    const out = path.relative(paths.root, paths.out) || paths.out;
    console.error(
      `There is no built site in ${out}/ yet: build it first with npm run build (or npm start, which builds and previews).`,
    );
    return 1;
  }
  const { createPreviewServer } = await import('./preview/server.ts');
  const server = createPreviewServer({ root: paths.out });
  const { listenOnPort, movedPortLine } = await import('./shared/listen-port.ts');
  const { address, busy } = await listenOnPort((free) => server.listen(free, host), port, host);
  if (busy !== undefined) console.log(movedPortLine(busy, address));
  const origin = `http://${address.address.includes(':') ? `[${address.address}]` : address.address}:${address.port}`;
  console.log(`Previewing ${path.relative(paths.root, paths.out)}/ at ${origin}/ with the production headers.`);
  console.log(`  ${origin}/api/authors/   ${origin}/api/volumes/   ${origin}/api/manuscripts/`);
  // A harvester is given this address; the preview answers it with the same handler as the hosts.
  if (existsSync(path.join(paths.out, 'oai', 'items.json'))) console.log(`  ${origin}/oai?verb=Identify   (OAI-PMH)`);
  console.log('Press Ctrl+C to stop.');
  await new Promise<void>((resolve) => {
    const stop = () => void server.close().then(resolve);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return 0;
}

async function runAdmin(paths: ProjectPaths, port: PortChoice, host: string, env: NodeJS.ProcessEnv): Promise<number> {
  // The settings file is found as the build finds it: journal.yaml, journal.yml or journal.json.
  const { discoverJournal } = await import('./generator/stages/discover.ts');
  const { loadJournal } = await import('./generator/stages/load.ts');
  const found = await discoverJournal(paths.root, paths.content);
  const { journal, problems } =
    found.journalFile && found.problems.length === 0
      ? await loadJournal(found.journalFile.file, found.journalFile.absolutePath)
      : { journal: undefined, problems: found.problems };
  if (!journal) {
    console.error(formatReport(problems));
    return 1;
  }
  const { startLocalEditor } = await import('./admin/local-editor.ts');
  const editor = await startLocalEditor({
    root: paths.root,
    content: paths.content,
    journal,
    host,
    port,
    env,
  });
  if (editor.busyPort !== undefined)
    console.log((await import('./shared/listen-port.ts')).movedPortLine(editor.busyPort, editor.address));
  console.log(`Open the web editor at ${editor.url}`);
  console.log(`It saves into ${path.relative(paths.root, paths.content) || '.'}/; press Ctrl+C to stop.`);
  await new Promise<void>((resolve) => {
    const stop = () => void editor.close().then(resolve);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return 0;
}

async function writeSchemas(contentDir: string, outDir: string): Promise<number> {
  const { editorJsonSchemas, readContentChoices } = await import('./generator/editor-schemas.ts');
  const schemas = editorJsonSchemas(await readContentChoices(contentDir));
  await mkdir(outDir, { recursive: true });
  for (const [name, schema] of Object.entries(schemas)) {
    await writeFile(path.join(outDir, name), JSON.stringify(schema, null, 2) + '\n');
  }
  console.log(`Wrote ${Object.keys(schemas).length} JSON Schemas to ${outDir}.`);
  return 0;
}

/** The date where the editor is, as YYYY-MM-DD. */
function localDate(now: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${two(now.getMonth() + 1)}-${two(now.getDate())}`;
}

/** The port asked for (`--port`, or `PORT` where the command reads it), or the default. */
function portChoice(asked: string | undefined, byDefault: number): PortChoice {
  return asked === undefined ? { port: byDefault, asked: false } : { port: parsePort(asked), asked: true };
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) throw new UsageError(`"${text}" is not a port number`);
  return port;
}

main(process.argv.slice(2), process.env).then(
  (code) => {
    process.exitCode = code;
  },
  async (error: unknown) => {
    if (error instanceof BriefUsageError) {
      console.error(error.message);
      process.exitCode = 2;
    } else if (
      error instanceof UsageError ||
      (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))
    ) {
      console.error(`${error.message}\n\n${await usage()}`);
      process.exitCode = 2;
    } else if (error instanceof OutputLocked || error instanceof Stopped) {
      console.error(error.message);
      process.exitCode = 1;
    } else if (error instanceof NoSpace || isNoSpace(error)) {
      console.error(noSpaceLine(error as NoSpace | NodeJS.ErrnoException, process.argv[2]));
      process.exitCode = 1;
    } else {
      // An internal bug: the whole stack, always.
      console.error(error);
      if (!process.sourceMapsEnabled)
        console.error(
          "The lines above are the compiled command line's; to see the TypeScript sources' lines, run the command again with NODE_OPTIONS=--enable-source-maps",
        );
      process.exitCode = 3;
    }
  },
);
