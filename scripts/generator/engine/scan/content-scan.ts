/**
 * The listing and stamps of every folder the build reads files from, started from the very start
 * (at 100,000 manuscripts, 350,000 stamps). One pass serves discovery (discover.ts), the load
 * stage's cache comparison (load-all.ts) and the media checks (media.ts). Deliberately light: the
 * command line starts it before the rest of the build's modules load.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { scanFolders, type Scan } from './stat-many.ts';
import { MEDIA_FOLDER } from '../../../shared/contract.ts';

/**
 * Starts listing and stamping each folder of `contentDir`: the collections' (and anything else
 * beside them) flat, the media folder with every folder under it. Links are never followed: a
 * collection folder that is a link is reported by discovery without being read.
 *
 * With `outDir` (a build), the previous output is listed too, after the content: the write stage
 * reuses a previous file only if it still has the stamp the previous build recorded (write.ts).
 */
export function scanContent(contentDir: string, options: { outDir?: string } = {}): Scan {
  // Sorted, with the media folder last: discovery waits for the collections' folders, and only the
  // media checks, which come after the load stage, need the media folder.
  const names = foldersIn(contentDir);
  const ordered = [...names.filter((name) => name !== MEDIA_FOLDER), ...names.filter((name) => name === MEDIA_FOLDER)];
  const content = ordered.map((name) => ({ path: path.join(contentDir, name), recursive: name === MEDIA_FOLDER }));
  // The output's PDFs first: their copies begin as soon as they are checked.
  const outFolders = foldersIn(options.outDir ?? '');
  const out =
    options.outDir === undefined
      ? []
      : [
          { path: options.outDir },
          ...[
            ...outFolders.filter((name) => name === MEDIA_FOLDER),
            ...outFolders.filter((name) => name !== MEDIA_FOLDER),
          ].map((name) => ({ path: path.join(options.outDir!, name), recursive: true })),
        ];
  return scanFolders([...content, ...out]);
}

function foldersIn(folder: string): string[] {
  try {
    return readdirSync(folder, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
  } catch {
    return [];
  }
}
