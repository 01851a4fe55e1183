/**
 * The output folder as the build writes it. A deployment often makes `dist` a symbolic link to the
 * folder a server serves (`ln -s /var/www/journal dist`): the build then writes into that folder, as
 * if it had been named with `--out`, and never moves, replaces or removes the link itself (its
 * staging folder, journal and swap are made beside the target). A link that points nowhere, or at
 * something other than a folder, stops the command before anything is touched.
 */
import { lstat, readlink, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { Stopped } from './stopped.ts';

export interface OutputFolder {
  /** The folder the build writes: the output path itself, or the real folder its link points to. */
  folder: string;
  /** The link's target as it reads, when the output path is a link. */
  linkedTo?: string;
  /** The output path as given, when it is a link. */
  link?: string;
}

/** Where the output at `out` is written; `shown` is how messages name it (relative to the project). */
export async function outputFolder(out: string, shown: string): Promise<OutputFolder> {
  const own = await lstat(out).catch(() => undefined);
  if (!own?.isSymbolicLink()) return { folder: out };
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
  return { folder: target, linkedTo: written, link: out };
}
