/**
 * A throwaway project: the valid fixture journal copied into a temp folder, with some files
 * replaced by literal text (or removed), so each test states exactly the content it is about.
 */
import { execFile } from 'node:child_process';
import { cp, mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build, type BuildMode, type BuildResult } from '../../scripts/generator/build.ts';
import { projectPaths, type ProjectPaths } from '../../scripts/project.ts';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const VALID_JOURNAL = path.join(REPO_ROOT, 'test/fixtures/valid-journal');

export interface Workspace {
  root: string;
  paths: ProjectPaths;
  build(mode?: BuildMode): Promise<BuildResult>;
  /** Runs the real command line (`node scripts/cli.cjs ...`, as `npm run` does) in the workspace. */
  cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  write(file: string, content: string | Uint8Array): Promise<void>;
  remove(file: string): Promise<void>;
  dispose(): Promise<void>;
}

/** `files` maps paths relative to `content/` to their new text; `null` removes the file. */
export async function createWorkspace(
  files: Record<string, string | Uint8Array | null> = {},
  from = VALID_JOURNAL,
): Promise<Workspace> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'journal-test-'));
  await cp(from, path.join(root, 'content'), { recursive: true });
  await cp(path.join(REPO_ROOT, 'public'), path.join(root, 'public'), { recursive: true });
  const paths = projectPaths(root);
  const workspace: Workspace = {
    root,
    paths,
    build: (mode = 'build') => build(paths, mode),
    cli: (...args) => runCli(root, args),
    write: async (file, content) => {
      const target = path.join(paths.content, file);
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, content);
    },
    remove: (file) => rm(path.join(paths.content, file), { force: true }),
    dispose: () => rm(root, { recursive: true, force: true }),
  };
  for (const [file, content] of Object.entries(files)) {
    if (content === null) await workspace.remove(file);
    else await workspace.write(file, content);
  }
  return workspace;
}

const run = promisify(execFile);

export interface CliOptions {
  /** Variables set for the command, over the test's own environment (which it otherwise inherits). */
  env?: Record<string, string>;
  /** The file mode creation mask the command runs under, e.g. `077`. */
  umask?: string;
}

export async function runCli(
  cwd: string,
  args: string[],
  options: CliOptions = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const command = [process.execPath, path.join(REPO_ROOT, 'scripts/cli.cjs'), ...args];
  // A umask is set by a shell that then becomes the command: Node cannot give one to a child.
  const [file, argv] =
    options.umask === undefined
      ? [command[0]!, command.slice(1)]
      : ['/bin/sh', ['-c', `umask ${options.umask} && exec "$@"`, 'sh', ...command]];
  try {
    const { stdout, stderr } = await run(file, argv, {
      cwd,
      env: { ...process.env, NO_COLOR: '1', ...options.env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}
