/**
 * Folders of the output that clash with a file of it, refused at both sources before anything is
 * written:
 *
 * - A folder named as a page. A page is read at its path without `.html` (`/volumes/5` for
 *   `volumes/5.html`, the links the pages print). If the output also has a folder of that name
 *   (`volumes/5/...`), Apache (mod_dir), and other servers that look for a folder first, answer
 *   `/volumes/5` with a redirect to `/volumes/5/`: the page can no longer be reached.
 * - A folder at the path of a file (`feed.xml/notes.txt` beside `feed.xml`): a path on disk is a
 *   file or a folder, never both, so the write would fail halfway.
 */
import type { OutputFile } from '../../shared/output-file.ts';
import { fnv1a } from '../../shared/text-hash.ts';
import type { Problem } from '../model/problems.ts';

interface OutputGroup {
  source: string;
  outputs: readonly OutputFile[];
}

const PAGE = '.html';

/** Every page that shares its address with a folder of the output, and every file at a folder's path. */
export function findFolderClashes(groups: readonly OutputGroup[]): Problem[] {
  // Nearly always there is none: hashes tell, with no string made (800,000 paths at 100,000
  // manuscripts). First every folder each path is in, by the length of its name (a few dozen
  // folders: a list's, a kind of record's); outputs come grouped by folder, so a path in the folder
  // of the one before it is passed over.
  const folders = new Map<number, Set<number>>();
  let folder = '';
  for (const { outputs } of groups)
    for (const { path } of outputs) {
      const last = path.lastIndexOf('/');
      if (last <= 0 || (last === folder.length && path.startsWith(folder))) continue;
      folder = path.slice(0, last);
      let hash: number | undefined;
      for (let from = 0, slash = path.indexOf('/'); slash > 0; from = slash, slash = path.indexOf('/', slash + 1)) {
        hash = hash === undefined ? fnv1a(path, 0, slash) : fnv1a(path, from, slash, hash);
        const sameLength = folders.get(slash);
        if (sameLength) sameLength.add(hash);
        else folders.set(slash, new Set([hash]));
      }
    }
  if (folders.size === 0) return [];
  // Then each path and each page's address as long as a folder's name: a few of them are hashed.
  const lengths = new Uint8Array(Math.max(...folders.keys()) + 1);
  for (const length of folders.keys()) lengths[length] = 1;
  const isFolder = (path: string, length: number) =>
    lengths[length] === 1 && folders.get(length)!.has(fnv1a(path, 0, length));
  for (const { outputs } of groups)
    for (const { path } of outputs)
      if (isFolder(path, path.length) || (isPage(path) && isFolder(path, path.length - PAGE.length)))
        return clashesByName(groups);
  return [];
}

/** A page read at its path without `.html`: any HTML file but a folder's own index. */
function isPage(path: string): boolean {
  return path.endsWith(PAGE) && path !== 'index.html' && !path.endsWith('/index.html');
}

/** The clashes, found by name: only when the hashes say there may be one. */
function clashesByName(groups: readonly OutputGroup[]): Problem[] {
  // Every folder, with the first output written into it.
  const folders = new Map<string, { source: string; path: string }>();
  for (const { source, outputs } of groups)
    for (const { path } of outputs)
      for (let end = path.lastIndexOf('/'); end > 0; end = path.lastIndexOf('/', end - 1)) {
        const folder = path.slice(0, end);
        if (folders.has(folder)) break;
        folders.set(folder, { source, path });
      }
  const problems: Problem[] = [];
  for (const { source, outputs } of groups)
    for (const { path } of outputs) {
      const inFolder = folders.get(path);
      if (inFolder !== undefined)
        problems.push(
          clash(
            source,
            `publishes the file ${path}, and ${inFolder.source} writes ${inFolder.path} into a folder of that name`,
            'a path on disk is a file or a folder, not both',
          ),
          clash(
            inFolder.source,
            `writes ${inFolder.path} into the folder ${path}/, where ${source} publishes the file ${path}`,
            'a path on disk is a file or a folder, not both',
          ),
        );
      const page = path.slice(0, -PAGE.length);
      const behind = isPage(path) ? folders.get(page) : undefined;
      if (behind === undefined) continue;
      const why = "web servers answer a folder's name with a redirect to the folder, so the page could not be reached";
      problems.push(
        clash(
          source,
          `publishes the page ${path}, read at /${page}, and ${behind.source} writes into the folder ${page}/`,
          why,
        ),
        clash(
          behind.source,
          `writes into the folder ${page}/, which has the address of the page ${path} (${source})`,
          why,
        ),
      );
    }
  return problems;
}

function clash(file: string, what: string, why: string): Problem {
  return {
    code: 'output/conflict',
    file,
    line: 0,
    column: 0,
    field: '',
    message: `${what}: ${why}`,
    expected: 'no folder named as a file or a page: rename the folder or the file in it',
  };
}
