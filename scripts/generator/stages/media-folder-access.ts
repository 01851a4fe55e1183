/**
 * Whether a folder of PDFs can be read: the scan lists every folder under content/media/ it can
 * (content-scan.ts), and one it could not list is looked at here before its PDFs are. A folder
 * without read permission (chmod 000, or copied in by another user) or a file where the folder
 * should be is one problem naming that folder, not an `lstat` error per PDF in it.
 */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Problem } from '../model/problems.ts';

/**
 * What a folder that cannot be read should be: the permissions an account copies with often keep
 * out the account that builds.
 */
export const READABLE_FOLDER = 'a folder the user running the build can read: check its owner and permissions';

/**
 * The problem of the first folder from `mediaDir` down to `prefix` (a path under content/media/
 * with a trailing slash, '' for the media folder itself) that cannot be read; undefined when each
 * can, or when one is missing (its PDFs are then each missing, as before).
 */
/** How a problem names `folder`, a folder under `contentDir`: `content/media/pdfs/`. */
export function shownFolder(contentDir: string, folder: string): string {
  return `content/${path.relative(contentDir, folder).split(path.sep).join('/')}/`;
}

export async function unreadableMediaFolder(
  contentDir: string,
  mediaDir: string,
  prefix: string,
): Promise<Problem | undefined> {
  const steps = prefix.split('/').filter(Boolean);
  for (let k = 0; k <= steps.length; k++) {
    const folder = path.join(mediaDir, ...steps.slice(0, k));
    const found = await stat(folder).catch((error: NodeJS.ErrnoException) => error);
    if (found instanceof Error && found.code === 'ENOENT') return undefined;
    const why =
      found instanceof Error
        ? found.code
        : !found.isDirectory()
          ? 'file'
          : await access(folder, constants.R_OK | constants.X_OK).then(
              () => undefined,
              (error: NodeJS.ErrnoException) => error.code ?? 'error',
            );
    if (why === undefined) continue;
    const file = shownFolder(contentDir, folder);
    return {
      code: 'io/unreadable-folder',
      file,
      line: 0,
      column: 0,
      field: '',
      ...(why === 'file'
        ? { message: 'cannot be read: it is a file, not a folder', expected: 'a folder' }
        : { message: `cannot be read (${why})`, expected: READABLE_FOLDER }),
    };
  }
  return undefined;
}
