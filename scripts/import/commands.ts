/**
 * The `import` and `export` commands for scripts/cli.ts: options in, printed result and exit code out.
 */
import path from 'node:path';
import type { BuildOptions } from '../generator/build.ts';
import { formatReport } from '../generator/model/problems.ts';
import { UsageError } from '../shared/usage-error.ts';
import type { ProjectPaths } from '../project.ts';
import { exportJournal } from './export.ts';
import { DEFAULT_TIMEOUT_MS, importJournal } from './import.ts';
import { formatImportSummary } from './summary.ts';

export interface ImportCommandOptions {
  force?: boolean | undefined;
  volumeIds?: string | undefined;
  title?: string | undefined;
  baseUrl?: string | undefined;
  downloadMedia?: boolean | undefined;
  mediaFrom?: string | undefined;
  /** Seconds, as typed. */
  timeout?: string | undefined;
}

/** Thrown for a malformed command line; the CLI prints it with the usage text. */

export async function runImport(
  paths: ProjectPaths,
  positionals: readonly string[],
  options: ImportCommandOptions,
): Promise<number> {
  if (positionals.length !== 1)
    throw new UsageError(
      'import needs one source: a URL, a dump .json file, or a folder with authors.json, volumes.json and manuscripts.json',
    );
  const timeout = options.timeout === undefined ? DEFAULT_TIMEOUT_MS / 1000 : Number(options.timeout);
  if (!Number.isFinite(timeout) || timeout <= 0)
    throw new UsageError(`--timeout "${options.timeout}" is not a number of seconds`);
  const result = await importJournal(paths, {
    source: positionals[0]!,
    force: options.force ?? false,
    timeoutMs: Math.round(timeout * 1000),
    ...(options.volumeIds !== undefined ? { volumeIds: options.volumeIds } : {}),
    ...(options.title !== undefined ? { title: options.title } : {}),
    ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
    ...(options.mediaFrom !== undefined
      ? { downloadMedia: options.mediaFrom }
      : options.downloadMedia
        ? { downloadMedia: '' }
        : {}),
  });
  if (!result.ok) {
    console.error(formatReport(result.problems));
    console.error(`Nothing was written; ${path.relative(paths.root, paths.content) || paths.content}/ is unchanged.`);
    return 1;
  }
  console.log(formatImportSummary(result.report));
  // The tree is written, but it does not build until the values listed are fixed.
  return result.report.refused.length > 0 ? 1 : 0;
}

export async function runExport(
  paths: ProjectPaths,
  positionals: readonly string[],
  options: BuildOptions = {},
): Promise<number> {
  if (positionals.length !== 1)
    throw new UsageError('export needs the file to write, e.g. npm run export -- dump.json');
  const result = await exportJournal(paths, positionals[0]!, options);
  if (!result.ok) {
    console.error(formatReport(result.problems));
    console.error('Nothing was exported.');
    return 1;
  }
  const { authors, volumes, manuscripts } = result.counts;
  console.log(
    `Exported ${authors} authors, ${volumes} volumes, ${manuscripts} manuscripts (${result.bytes} bytes) to ${path.relative(paths.root, result.file) || result.file}.`,
  );
  return 0;
}
