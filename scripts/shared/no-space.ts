/**
 * A full disk, or a quota reached: a user's situation, told in one line (the folder that could
 * not be written, and that nothing was replaced), never an internal error's stack trace.
 */

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

/** Whether a file system error says the disk, or the user's quota, is full. */
export function isNoSpace(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}
