/**
 * The listing and stamps of every folder the build reads files from, taken on worker threads from
 * the very start (at 100,000 manuscripts, 350,000 stamps). One pass serves discovery
 * (discover.ts), the load stage's cache comparison (load-all.ts) and the media checks (media.ts).
 * Deliberately light: the command line starts it before the rest of the build's modules load.
 */
import { opendirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { scanFolders, type Scan } from './stat-many.ts';
import { RACY_MS } from './stat-walk.mjs';
import { MEDIA_FOLDER } from '../../../shared/contract.ts';

/** Where, in the build cache, the content's large folders keep their listings. */
const LISTINGS_FOLDER = 'listings';
/**
 * Files in the content's folders (the media aside) from which the scan runs on worker threads. A
 * worker's start is 20 to 30 ms of CPU; on this thread a file costs about 3 µs (its listing and its
 * `lstat`). At 1,000 manuscripts (2,505 files, and 1,005 PDFs) a check took 0.14 to 0.19 s of user
 * CPU with the scan here against 0.22 to 0.33 s on two workers, and 0.30 to 0.46 s of wall time
 * against 0.39 to 0.69 s in five alternating pairs. At 100,000 manuscripts the workers stamp
 * 350,000 files on both cores while this thread loads the build's modules and reads the index.
 */
const MIN_FILES_FOR_WORKERS = 6_000;

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
  // The output's PDFs first: their copies begin as soon as they are checked, and they waited for the
  // stamps of every record and citation file listed before them (550,000 at 100,000 manuscripts).
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
  // A small journal is scanned here, at once: see MIN_FILES_FOR_WORKERS.
  const threads =
    options.threads ??
    (holdsFewer(
      content.filter(({ recursive }) => !recursive).map(({ path }) => path),
      MIN_FILES_FOR_WORKERS,
    )
      ? 0
      : undefined);
  // Without an output to list (`check`), every folder is needed once loading ends: the workers help each other.
  return scanFolders([...content, ...out], threads, {
    helpEachOther: options.outDir === undefined,
    ...(options.cacheDir === undefined
      ? {}
      : { listings: { dir: path.join(options.cacheDir, LISTINGS_FOLDER), trustedBefore: Date.now() - RACY_MS } }),
  });
}

/** Whether the folders hold fewer than `count` entries in all: each read only as far as that. */
function holdsFewer(folders: readonly string[], count: number): boolean {
  let entries = 0;
  for (const folder of folders) {
    let dir;
    try {
      dir = opendirSync(folder, { bufferSize: 1024 });
      while (entries < count && dir.readSync() !== null) entries++;
    } catch {
      // a folder that cannot be read is reported by discovery; it holds nothing here
    } finally {
      dir?.closeSync();
    }
    if (entries >= count) return false;
  }
  return true;
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
