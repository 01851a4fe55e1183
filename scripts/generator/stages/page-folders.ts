/**
 * A page is read at its path without `.html` (`/volumes/5` for `volumes/5.html`, the links the
 * pages print). If the output also has a folder of that name (`volumes/5/...`), Apache (mod_dir),
 * and other servers that look for a folder first, answer `/volumes/5` with a redirect to
 * `/volumes/5/`: the page can no longer be reached. So a folder named as a page is refused, at
 * both sources, before anything is written.
 */
import type { OutputFile } from '../../shared/output-file.ts';
import { fnv1a } from '../../shared/text-hash.ts';
import type { Problem } from '../model/problems.ts';

interface OutputGroup {
  source: string;
  outputs: readonly OutputFile[];
}

const PAGE = '.html';

/** Every page that shares its address with a folder of the output, with who writes into the folder. */
export function findPagesBehindFolders(groups: readonly OutputGroup[]): Problem[] {
  // Nearly always there is none: the hashes of the pages' addresses, then of every folder each path
  // is in, tell, with no string made (a journal may hold a folder per record: 850,000 of them).
  const pages = new Set<number>();
  for (const { outputs } of groups)
    for (const { path } of outputs) if (isPage(path)) pages.add(fnv1a(path, 0, path.length - PAGE.length));
  if (pages.size === 0) return [];
  // Outputs come grouped by folder: a path in the folder of the one before it is passed over.
  let folder = '';
  for (const { outputs } of groups)
    for (const { path } of outputs) {
      const last = path.lastIndexOf('/');
      if (last <= 0 || (last === folder.length && path.startsWith(folder))) continue;
      folder = path.slice(0, last);
      let hash: number | undefined;
      for (let from = 0, slash = path.indexOf('/'); slash > 0; from = slash, slash = path.indexOf('/', slash + 1)) {
        hash = hash === undefined ? fnv1a(path, 0, slash) : fnv1a(path, from, slash, hash);
        if (pages.has(hash)) return pagesBehindFolders(groups);
      }
    }
  return [];
}

/** A page read at its path without `.html`: any HTML file but a folder's own index. */
function isPage(path: string): boolean {
  return path.endsWith(PAGE) && path !== 'index.html' && !path.endsWith('/index.html');
}

/** The pages behind folders, found by name: only when the hashes say there may be one. */
function pagesBehindFolders(groups: readonly OutputGroup[]): Problem[] {
  const folders = new Map<string, string>();
  for (const { source, outputs } of groups)
    for (const { path } of outputs)
      for (let end = path.lastIndexOf('/'); end > 0; end = path.lastIndexOf('/', end - 1)) {
        const folder = path.slice(0, end);
        if (folders.has(folder)) break;
        folders.set(folder, source);
      }
  const problems: Problem[] = [];
  for (const { source, outputs } of groups)
    for (const { path } of outputs) {
      const folder = path.slice(0, -PAGE.length);
      const inFolder = isPage(path) ? folders.get(folder) : undefined;
      if (inFolder === undefined) continue;
      problems.push(
        shadowed(
          source,
          `publishes the page ${path}, read at /${folder}, and ${inFolder} writes into the folder ${folder}/`,
        ),
        shadowed(inFolder, `writes into the folder ${folder}/, which has the address of the page ${path} (${source})`),
      );
    }
  return problems;
}

function shadowed(file: string, what: string): Problem {
  return {
    code: 'output/conflict',
    file,
    line: 0,
    column: 0,
    field: '',
    message: `${what}: web servers answer a folder's name with a redirect to the folder, so the page could not be reached`,
    expected: 'no folder named as a page: rename the folder or the file in it',
  };
}
