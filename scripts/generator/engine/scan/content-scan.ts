/**
 * The listing and stamps of every folder the build reads files from, taken on worker threads from
 * the very start (at 100,000 manuscripts, 350,000 stamps). One pass serves discovery
 * (discover.ts), the load stage's cache comparison (load-all.ts) and the media checks (media.ts).
 * Deliberately light: the command line starts it before the rest of the build's modules load.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { scanFolders, type Scan } from './stat-many.ts';
import { RACY_MS } from './stat-walk.mjs';

/** The folder under content/ that holds the PDFs, at any depth (media.ts). */
export const MEDIA_FOLDER = 'media';
/** Where, in the build cache, the content's large folders keep their listings. */
const LISTINGS_FOLDER = 'listings';

/**
 * Starts listing and stamping each folder of `contentDir`: the collections' (and anything else
 * beside them) flat, the media folder with every folder under it. Links are never followed: a
 * collection folder that is a link is reported by discovery without being read.
 *
 * With `cacheDir` (the build cache's folder), a large content folder whose stamp has not changed
 * since it was last listed is not listed again (stat-walk.mjs, keptListings).
 *
 * With `outDir` (a build), the previous output is listed too, after the content: the write stage
 * reuses a previous file only if it still has the stamp the previous build recorded (write.ts). At
 * 100,000 manuscripts those are 200,000 stamps, taken here while the main thread reads the build
 * cache rather than at the end, where they kept both cores from the compression and the pages.
 */
export function scanContent(
  contentDir: string,
  options: { outDir?: string; threads?: number; cacheDir?: string } = {},
): Scan {
  // Sorted, so that the workers claim the folders in the same order whatever the directory order,
  // with the media folder last: discovery waits for the collections' folders, and only the media
  // checks, which come after the load stage, need the media folder (at 100,000
  // manuscripts, discovery waited for a worker that stamped 100,000 PDFs before the volumes).
  const names = foldersIn(contentDir);
  const ordered = [...names.filter((name) => name !== MEDIA_FOLDER), ...names.filter((name) => name === MEDIA_FOLDER)];
  // The content's large folders keep their listings in the build cache (stat-walk.mjs, keptListings);
  // the previous output's change with every build that writes.
  const content = ordered.map((name) => ({
    path: path.join(contentDir, name),
    recursive: name === MEDIA_FOLDER,
    keepListings: true,
  }));
  const out =
    options.outDir === undefined
      ? []
      : [
          { path: options.outDir },
          ...foldersIn(options.outDir).map((name) => ({ path: path.join(options.outDir!, name), recursive: true })),
        ];
  // Without an output to list (`check`), every folder is needed once loading ends: the workers help each other.
  return scanFolders([...content, ...out], options.threads, {
    helpEachOther: options.outDir === undefined,
    ...(options.cacheDir === undefined
      ? {}
      : { listings: { dir: path.join(options.cacheDir, LISTINGS_FOLDER), trustedBefore: Date.now() - RACY_MS } }),
  });
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
