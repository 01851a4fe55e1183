/**
 * Puts the files taken from the previous output into the staging folder: whole folders by one
 * rename where every file of one is unchanged, others by hard link.
 */

import { link, lstat, mkdir, rename, rmdir } from 'node:fs/promises';
import path from 'node:path';

import { forEachLimited } from '../../../shared/for-each-limited.ts';

import { type FileStamp } from '../scan/stat-many.ts';

import { ADOPT_MIN_FILES, type PreviousOutput, WRITE_CONCURRENCY, under } from './reusable-files.ts';

export interface Placement {
  outDir: string;
  staging: string;
  /** The files taken from the previous output; `found`: each has its row in the previous manifest marked. */
  reused: { names: readonly string[]; found: boolean };
  /** The files this build wrote into the staging folder. */
  written: readonly string[];
  previous: PreviousOutput | undefined;
  /** [from, to] of every folder or file moved out of (or into) the previous output, to undo on failure. */
  moves: [string, string][];
  /** Where files of an adopted folder that changed or went are kept until the swap. */
  trash: string;
  ensureFolder: (file: string) => Promise<unknown>;
}

/**
 * Puts the reused files into the staging folder. A folder whose files are all reused, that holds
 * exactly the files the previous build wrote there (its stamp is unchanged: nothing was added or
 * removed since), is moved as a whole: one rename instead of a link per file, and nothing left to
 * delete afterwards. Other reused files are hard-linked one by one.
 */
export async function placeReused(p: Placement): Promise<void> {
  const inStaging = (relative: string) => under(p.staging, relative);
  const inPrevious = (relative: string) => under(p.outDir, relative);
  const placeFile = async (relative: string) => {
    const file = inStaging(relative);
    await p.ensureFolder(file);
    await link(inPrevious(relative), file);
  };
  const previous = p.previous;
  if (!previous?.folders || !p.reused.found) {
    await forEachLimited(p.reused.names, WRITE_CONCURRENCY, placeFile);
    return;
  }
  // This build's files by folder: the reused first (numbered as in p.reused), then the written.
  const ours = [...p.reused.names, ...p.written];
  const isReused = (file: number) => file < p.reused.names.length;
  const newTree = folderTree(ours);
  const oldTree = folderTree(previous.rows.names);
  const previousFolders = previous.folders;
  const whole = new Map<string, Promise<boolean>>();
  const isWhole = (folder: string): Promise<boolean> => {
    let known = whole.get(folder);
    if (!known)
      whole.set(
        folder,
        (known = (async () => {
          const mine = newTree.get(folder)!;
          const theirs = oldTree.get(folder);
          const recorded = previousFolders.get(folder);
          // Every file of ours reused is a file of theirs (same path): as many, and all reused, they are the same files.
          if (
            !theirs ||
            !recorded ||
            mine.files.length !== theirs.files.length ||
            !mine.files.every(isReused) ||
            !sameMembers(mine.folders, theirs.folders)
          )
            return false;
          const stat = await lstat(inPrevious(folder)).catch(() => undefined);
          if (!stat?.isDirectory() || stat.mtimeMs !== recorded.mtimeMs || stat.ino !== recorded.ino) return false;
          for (const child of mine.folders) if (!(await isWhole(child))) return false;
          return true;
        })()),
      );
    return known;
  };
  let replaced = 0;
  /**
   * A folder of files only, mostly unchanged (100,000 pages after one edit), is taken over from the
   * previous output as a whole: the files that changed or went are moved aside (kept until the swap,
   * so that a failure can put everything back), the new ones moved in, and the folder moved into the
   * staging folder. A few renames instead of a link per unchanged file.
   */
  const adopt = async (folder: string): Promise<boolean> => {
    const mine = newTree.get(folder)!;
    const theirs = oldTree.get(folder);
    const recorded = previousFolders.get(folder);
    if (folder === '' || !theirs || !recorded || mine.folders.length > 0 || theirs.folders.length > 0) return false;
    const kept = mine.files.filter(isReused).length;
    if (kept < ADOPT_MIN_FILES || kept * 2 < mine.files.length) return false;
    const stat = await lstat(inPrevious(folder)).catch(() => undefined);
    if (!stat?.isDirectory() || stat.mtimeMs !== recorded.mtimeMs || stat.ino !== recorded.ino) return false;
    const move = async (from: string, to: string) => {
      await rename(from, to);
      p.moves.push([from, to]);
    };
    await mkdir(p.trash, { recursive: true });
    for (const row of theirs.files)
      if (!previous.reused[row])
        await move(inPrevious(previous.rows.names[row]!), path.join(p.trash, String(replaced++)));
    for (const file of mine.files) if (!isReused(file)) await move(inStaging(ours[file]!), inPrevious(ours[file]!));
    await rmdir(inStaging(folder)).catch(() => {});
    await p.ensureFolder(inStaging(folder));
    await move(inPrevious(folder), inStaging(folder));
    return true;
  };
  const files: string[] = [];
  const place = async (folder: string): Promise<void> => {
    if (await adopt(folder)) return;
    const { files: direct, folders } = newTree.get(folder)!;
    for (const file of direct) if (isReused(file)) files.push(ours[file]!);
    await forEachLimited(folders, WRITE_CONCURRENCY, async (child) => {
      if (!(await isWhole(child))) return place(child);
      const to = inStaging(child);
      await p.ensureFolder(to);
      await rename(inPrevious(child), to);
      p.moves.push([inPrevious(child), to]);
    });
  };
  await place('');
  await forEachLimited(files, WRITE_CONCURRENCY, placeFile);
}

/** Arrays, not sets: at 100,000 one-page folders the tree's size is what matters. */
export interface TreeNode {
  /** The files directly in the folder, by their position in the list the tree was made from. */
  files: number[];
  folders: string[];
}

/** Folder (relative, '' for the root) → the files and folders directly in it (each file listed once). */
export function folderTree(files: readonly string[]): Map<string, TreeNode> {
  const tree = new Map<string, TreeNode>([['', { files: [], folders: [] }]]);
  files.forEach((file, position) => {
    let child = file;
    for (let isFile = true; ; isFile = false) {
      const slash = child.lastIndexOf('/');
      const folder = slash < 0 ? '' : child.slice(0, slash);
      let node = tree.get(folder);
      const known = node !== undefined;
      if (!node) tree.set(folder, (node = { files: [], folders: [] }));
      if (isFile) node.files.push(position);
      else node.folders.push(child);
      if (known || folder === '') break;
      child = folder;
    }
  });
  return tree;
}

/** The folders that hold `files`, and their parents, without the root. */
export function foldersOf(files: Iterable<string>): Set<string> {
  const folders = new Set<string>();
  for (const file of files) {
    for (let slash = file.lastIndexOf('/'); slash > 0; slash = file.lastIndexOf('/', slash - 1)) {
      const folder = file.slice(0, slash);
      if (folders.has(folder)) break;
      folders.add(folder);
    }
  }
  return folders;
}

export function sameMembers(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  if (a.length === 1) return a[0] === b[0];
  const set = new Set(b);
  return a.every((item) => set.has(item));
}

/** The stamps of every folder holding output files, taken after the swap (their final state). */
export async function folderStamps(outDir: string, files: Iterable<string>): Promise<Map<string, FileStamp>> {
  const folders = [...foldersOf(files)];
  const stamps = new Map<string, FileStamp>();
  await forEachLimited(folders, WRITE_CONCURRENCY, async (folder) => {
    const stat = await lstat(path.join(outDir, ...folder.split('/')));
    stamps.set(folder, { size: 0, mtimeMs: stat.mtimeMs, ino: stat.ino });
  });
  return stamps;
}
