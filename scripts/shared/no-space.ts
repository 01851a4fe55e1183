/**
 * A full disk, or a quota reached, or a disk with no free inode left: a user's situation, told in
 * one line (the folder that could not be written, and that nothing was replaced), never an
 * internal error's stack trace.
 */
import { statfsSync } from 'node:fs';
import path from 'node:path';
import { Stopped } from './stopped.ts';

/** No space was left where `folder` is written; raised by the writer of that folder, which undid what it wrote. */
export class NoSpace extends Error {
  readonly code = 'no-space';
  constructor(
    readonly folder: string,
    options?: ErrorOptions,
  ) {
    super(`no space left on ${folder}`, options);
    this.name = 'NoSpace';
  }
}

/**
 * One line for a full disk, `error` (a NoSpace, or a file system error that isNoSpace) having
 * stopped `command`: where, and that nothing was replaced (a build's output and an import's content
 * are swapped in only once complete; what was staged is removed). A disk with no free inode says so.
 */
export function noSpaceLine(
  error: NoSpace | NoFreeInodes | NodeJS.ErrnoException,
  command: string | undefined,
): string {
  if (error instanceof NoFreeInodes) return error.message;
  const folder = error instanceof NoSpace ? error.folder : error.path && path.dirname(error.path);
  const kept = command === 'build' ? ' the output is unchanged' : command === 'import' ? ' content/ is unchanged' : '';
  const outcome = `${command ?? 'the command'} stopped;${kept || ' nothing was replaced'}`;
  if (folder && diskFull(folder) === 'inodes') return new NoFreeInodes(folder, outcome).message;
  return `No space left on ${folder ? shown(folder) : 'the disk'}: ${outcome}.`;
}

/** A folder as a message names it: from the working folder, with a trailing slash. */
const shown = (folder: string) => `${path.relative(process.cwd(), folder) || '.'}/`;

/**
 * The disk where `folder` is written has no free inode: no file or folder can be made there,
 * whatever space is free (many small files, or a small filesystem). `outcome` says what became of
 * the command, e.g. "build stopped; the output is unchanged".
 */
export class NoFreeInodes extends Stopped {
  override name = 'NoFreeInodes';
  constructor(
    readonly folder: string,
    outcome: string,
    options?: ErrorOptions,
  ) {
    super(
      `No free inodes left on ${shown(folder)} (it holds as many files and folders as it can, whatever space is free): ${outcome}.`,
      options,
    );
  }
}

/**
 * Whether a file system error says the disk, or the user's quota, is full, or the disk has no free
 * inode. Node's recursive mkdir says ENOENT, naming the folder it could not make, when the disk
 * refused that folder: the disk is then asked.
 */
export function isNoSpace(error: unknown): boolean {
  const { code, syscall, path: file } = (error ?? {}) as NodeJS.ErrnoException;
  if (code === 'ENOSPC' || code === 'EDQUOT') return true;
  return code === 'ENOENT' && syscall === 'mkdir' && file !== undefined && diskFull(file) !== undefined;
}

/**
 * Whether the disk of `file` (of its nearest folder that exists) has no free inode, or no block free
 * for this user; undefined when it has both, or cannot be asked. Filesystems that make inodes as
 * needed report none at all, never none free.
 */
export function diskFull(file: string): 'inodes' | 'space' | undefined {
  for (let at = file; ; at = path.dirname(at)) {
    try {
      const disk = statfsSync(at);
      if (disk.files > 0 && disk.ffree === 0) return 'inodes';
      return disk.bavail === 0 ? 'space' : undefined;
    } catch {
      if (path.dirname(at) === at) return undefined;
    }
  }
}

/**
 * What a writer of `folder` throws when `error` (isNoSpace) stopped it: asked before the writer
 * removes what it wrote, which frees inodes again.
 */
export function noSpaceError(folder: string, outcome: string, error: unknown): NoSpace | NoFreeInodes {
  return diskFull(folder) === 'inodes'
    ? new NoFreeInodes(folder, outcome, { cause: error })
    : new NoSpace(folder, { cause: error });
}
