/**
 * `npm run clean`: the output and the build cache go. An output that is a link to the served
 * folder (shared/output-folder.ts) is left with its folder: emptying it would take the site down.
 * An output that is a link a build switches (`build --atomic`) goes with all its outputs.
 */
import type { ProjectPaths } from './project.ts';
import type { OutputFolder } from './shared/output-folder.ts';
import { removeGenerations } from './shared/output-generations.ts';
import { removeTree } from './shared/remove-tree.ts';

/** Removes what `clean` removes; returns the line that says what it did. */
export async function clean(
  paths: ProjectPaths,
  output: OutputFolder,
  shown: (file: string) => string,
): Promise<string> {
  // Node's recursive rm starts an operation per entry at once: at 100,000 manuscripts, dist/
  // is 200,000 files, and it peaked at 448 MiB. removeTree keeps a few in flight.
  await removeTree(paths.cache);
  if (output.generations !== undefined) {
    // The link first: a server then finds no site rather than one of the outputs being removed.
    await removeGenerations(output.generations.link);
    return `Removed ${shown(output.generations.link)}, its outputs (${shown(output.generations.versions)}) and the build cache (${shown(paths.cache)}).`;
  }
  if (output.linkedTo !== undefined)
    return `${shown(output.link ?? paths.out)} is a link to ${output.linkedTo}: it and that folder are left as they are; removed the build cache (${shown(paths.cache)}).`;
  await removeTree(paths.out);
  return `Removed ${shown(paths.out)} and the build cache (${shown(paths.cache)}).`;
}
