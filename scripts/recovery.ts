/**
 * What every command that reads `content/` or `dist/` runs first (build, check, import, preview,
 * clean; a long-running command such as a development server once, when it starts): an import or
 * a build killed part way, by `kill -9` or a power cut too, is settled before anything reads the
 * folders it was replacing (shared/folder-swap.ts, docs/recovery.md).
 */
import { existsSync } from 'node:fs';
import { recoverOutput } from './generator/stages/write.ts';
import { recoverContent } from './import/stage.ts';
import type { ProjectPaths } from './project.ts';
import { generationsOf } from './shared/output-generations.ts';

/** Completes or undoes interrupted swaps of content/ and dist/, removes dead processes' leftovers; returns what it did, for the user. */
export async function recoverInterrupted(paths: ProjectPaths): Promise<string[]> {
  // An output that is a link a build switches (`build --atomic`) is written in a folder of the
  // build's own beside it: settled as an ordinary output is (shared/output-generations.ts).
  const { versions, working } = generationsOf(paths.out);
  const own = existsSync(versions) ? await recoverOutput(working, paths.cache) : [];
  return [...(await recoverContent(paths.content)), ...(await recoverOutput(paths.out, paths.cache)), ...own];
}
