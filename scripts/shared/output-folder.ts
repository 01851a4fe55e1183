/**
 * The output folder as the build writes it. A deployment often makes `dist` a symbolic link to the
 * folder a server serves (`ln -s /var/www/journal dist`): the build then writes into that folder, as
 * if it had been named with `--out`, and never moves, replaces or removes the link itself (its
 * staging folder, journal and swap are made beside the target). A link that points nowhere, or at
 * something other than a folder, stops the command before anything is touched.
 *
 * A link a build made itself (`build --atomic`, output-generations.ts) is another thing: the build
 * writes its own folder beside it and switches the link to each new output. Every later build
 * does so too, with the option or without: the server follows that link, and writing into the
 * output it points to would show readers a half-updated site again.
 */
import { lstat, readlink, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { currentGeneration, generationsOf, recoverGenerations, type Generations } from './output-generations.ts';
import { Stopped } from './stopped.ts';

export interface OutputFolder {
  /** The folder the build writes: the output path itself, or the real folder its link points to. */
  folder: string;
  /** The link's target as it reads, when the output path is a link. */
  linkedTo?: string;
  /** The output path as given, when it is a link. */
  link?: string;
  /** Set when the output is a link a build switches (`build --atomic`): `folder` is then the build's own folder. */
  generations?: Generations;
  /** What was done, in words for the user, to settle a switch of that link a killed build left half done. */
  relinked: string[];
}

/**
 * Where the output at `out` is written; `shown` is how messages name it (relative to the project).
 * A switch of a build's link that a killed build left half done is settled first: what the output
 * is depends on it (output-generations.ts).
 */
export async function outputFolder(
  out: string,
  shown: string,
  options: { atomic?: boolean } = {},
): Promise<OutputFolder> {
  const relinked = await recoverGenerations(out);
  const own = await lstat(out).catch(() => undefined);
  if ((await currentGeneration(out)) !== undefined || (options.atomic && !own?.isSymbolicLink())) {
    const generations = generationsOf(out);
    return { folder: generations.working, generations, relinked };
  }
  if (!own?.isSymbolicLink()) return { folder: out, relinked };
  const target = await realpath(out).catch(() => undefined);
  const written = path.resolve(path.dirname(out), await readlink(out));
  if (target === undefined)
    throw new Stopped(
      `${shown} is a link to ${written}, which does not exist: create that folder (the build writes into it), or remove the link to build into a folder of its own.`,
    );
  if (!(await stat(target)).isDirectory())
    throw new Stopped(
      `${shown} is a link to ${written}, which is not a folder: point the link at the folder the site is served from, or remove it.`,
    );
  if (options.atomic)
    throw new Stopped(
      `${shown} is a link to ${written}, which --atomic would replace by a link of its own: point the web server at ${shown} itself, remove the link and build with --atomic again, or build without --atomic to keep writing into ${written}.`,
    );
  return { folder: target, linkedTo: written, link: out, relinked };
}

/**
 * The output of a command: a link that points nowhere stops a build (`building`), and is left to
 * the commands that only read; `atomic` only for a build.
 */
export async function commandOutput(
  out: string,
  shown: string,
  building: boolean,
  atomic: boolean,
): Promise<OutputFolder> {
  return outputFolder(out, shown, { atomic: building && atomic }).catch((error: unknown) => {
    if (building || !(error instanceof Stopped)) throw error;
    return { folder: out, relinked: [] };
  });
}
