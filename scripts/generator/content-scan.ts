/**
 * The listing and stamps of every folder the build reads files from, taken on worker threads from
 * the very start (issue 4: at 100,000 manuscripts, 350,000 stamps). One pass serves discovery
 * (discover.ts), the load stage's cache comparison (load-all.ts) and the media checks (media.ts).
 * Deliberately light: the command line starts it before the rest of the build's modules load.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { scanFolders, type Scan } from './stat-many.ts';

/** The folder under content/ that holds the PDFs, at any depth (media.ts). */
export const MEDIA_FOLDER = 'media';

/**
 * Starts listing and stamping each folder of `contentDir`: the collections' (and anything else
 * beside them) flat, the media folder with every folder under it. Links are never followed: a
 * collection folder that is a link is reported by discovery without being read.
 */
export function scanContent(contentDir: string, threads?: number): Scan {
  let folders: string[];
  try {
    folders = readdirSync(contentDir, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  } catch {
    folders = [];
  }
  // Sorted, so that the workers claim the largest collections first whatever the directory order.
  return scanFolders(folders.sort().map((name) => ({ path: path.join(contentDir, name), recursive: name === MEDIA_FOLDER })), threads);
}
