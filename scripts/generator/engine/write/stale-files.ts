/**
 * The files of the previous output that the new output does not have, for an update in place
 * (shared/folder-patch.ts): a record deleted or renamed since, or a file put into `dist/` by hand.
 * Found in the listing the scan took when the build started (content-scan.ts), folder by folder.
 * At 100,000 manuscripts a folder holds up to 150,000 files: a folder is searched name by name only
 * when its count says it holds something else than the new output's files there.
 */
import path from 'node:path';
import type { FolderListing, Scan } from '../scan/stat-many.ts';
import { folderFinder } from './reusable-files.ts';

/**
 * `reused`: the new output's files (given anew each time it is called) taken as they are from the previous output (each is in the
 * listing, with the stamp it was written with); `placed`: the ones this build made, which may or
 * may not be there already. Returns the stale files' paths, relative, with forward slashes.
 */
export async function staleFiles(
  outDir: string,
  listed: Scan,
  reused: () => Iterable<string>,
  placed: readonly string[],
): Promise<string[]> {
  // Named as the scan names them (path.join), whatever the platform's separator.
  const listingOf = (folder: string): Promise<FolderListing | undefined> =>
    listed.folder(folder === '' ? outDir : path.join(outDir, ...folder.split('/')));
  /** Per folder, how many files of the new output are in its listing. */
  const present = new Map<string, number>();
  const folderOfReused = folderFinder();
  for (const relative of reused()) {
    const folder = folderOfReused(relative);
    present.set(folder, (present.get(folder) ?? 0) + 1);
  }
  const folderOfPlaced = folderFinder();
  for (const relative of placed) {
    const folder = folderOfPlaced(relative);
    const listing = await listingOf(folder);
    const name = folder === '' ? relative : relative.slice(folder.length + 1);
    const at = listing?.column.position(name);
    // A folder of that name is not the file: it goes (its files are stale), and the file takes its place.
    if (at !== undefined && listing!.kind(at) !== 'directory') present.set(folder, (present.get(folder) ?? 0) + 1);
  }

  /**
   * The folders that hold more than the new output's files, each with its listing's names. Only
   * those are made strings: every folder's, at 100,000 manuscripts 750,000 names (28 MB), lived to
   * the end of a build after an edit.
   */
  const searched = new Map<string, readonly string[]>();
  const visit = async (folder: string): Promise<void> => {
    const listing = await listingOf(folder);
    // The files reused were found in these listings: the output folder's is there.
    if (!listing && folder === '') throw new Error(`${outDir} was not listed when the build started`);
    if (!listing) return;
    let files = 0;
    const { column } = listing;
    for (let i = 0; i < column.length; i++) {
      if (listing.kind(i) !== 'directory') files++;
      else await visit(folder === '' ? column.at(i) : `${folder}/${column.at(i)}`);
    }
    if (files !== (present.get(folder) ?? 0)) searched.set(folder, column.all());
  };
  await visit('');
  if (searched.size === 0) return [];

  const kept = new Map<string, Set<string>>([...searched.keys()].map((folder) => [folder, new Set()]));
  const folderOf = folderFinder();
  for (const files of [reused(), placed]) for (const relative of files) kept.get(folderOf(relative))?.add(relative);
  const stale: string[] = [];
  for (const [folder, names] of searched) {
    const listing = (await listingOf(folder))!;
    const set = kept.get(folder)!;
    for (let i = 0; i < names.length; i++) {
      if (listing.kind(i) === 'directory') continue;
      const relative = folder === '' ? names[i]! : `${folder}/${names[i]}`;
      if (!set.has(relative)) stale.push(relative);
    }
  }
  return stale;
}
