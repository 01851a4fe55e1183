/**
 * One build at a time per output folder. Two builds writing one `dist/` at once raced for its name
 * (one of them died with a stack trace, 3 runs in 15), so a build, and `clean`, first creates a
 * lock file beside the output, `.dist.lock`, holding its process id. The file is created with
 * O_EXCL (`wx`): of two processes, exactly one creates it. A lock whose process no longer runs (a
 * build killed, or a power cut) is taken over; one whose process runs stops the command with one
 * line that names that process. The file holds the id and, where the system shows it, the start time
 * of the process (shared/processes.ts): a zombie, or another process given a dead build's id later,
 * holds no lock. The lock goes when the process exits.
 */
import { closeSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync, linkSync } from 'node:fs';
import path from 'node:path';
import { ownStart, processRuns } from './processes.ts';
import { Stopped } from './stopped.ts';

/** Another process holds the output's lock: a user's situation, printed as one line, never a stack. */
export class OutputLocked extends Error {
  constructor(
    readonly pid: number,
    readonly lockFile: string,
    folder: string,
  ) {
    super(
      `Another build (process ${pid}) is writing ${folder}/ now; run this again when it has ended (if no build runs, remove ${lockFile}).`,
    );
    this.name = 'OutputLocked';
  }
}

/** A lock file found empty this long after it was made belongs to a process killed between creating and writing it. */
const EMPTY_LOCK_STALE_MS = 2_000;

export function lockFileOf(outDir: string): string {
  return path.join(path.dirname(outDir), `.${path.basename(outDir)}.lock`);
}

/**
 * Takes the lock of `outDir` for this process until it exits, or throws OutputLocked. `shown` is
 * how the messages name the folder and the lock file (relative to the project).
 */
export function holdOutputLock(outDir: string, shown: { folder: string; lockFile: string }): void {
  const file = lockFileOf(outDir);
  for (let attempt = 0; ; attempt++) {
    if (create(file, shown)) {
      process.once('exit', () => {
        const holder = holderOf(file);
        if (typeof holder === 'object' && holder.pid === process.pid) rmSync(file, { force: true });
      });
      return;
    }
    const holder = holderOf(file);
    if (holder === undefined) continue; // gone meanwhile: try again
    if (holder !== 'empty' && processRuns(holder.pid, holder.started))
      throw new OutputLocked(holder.pid, shown.lockFile, shown.folder);
    if (holder === 'empty' && !(ageOf(file) > EMPTY_LOCK_STALE_MS)) {
      if (attempt > 100) throw new OutputLocked(0, shown.lockFile, shown.folder);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
      continue;
    }
    takeOver(file, holder, shown);
  }
}

/**
 * Whether a running process holds the lock of `outDir` (this one excepted, with `otherThanThis`):
 * what a build may have left unfinished beside the output, only a dead one's is a leftover.
 */
export function lockHolderRuns(outDir: string, options: { otherThanThis?: boolean } = {}): boolean {
  const holder = holderOf(lockFileOf(outDir));
  if (holder === undefined) return false;
  // Being written by a process that has just made it (a build starting), unless it was left so.
  if (holder === 'empty') return !(ageOf(lockFileOf(outDir)) > EMPTY_LOCK_STALE_MS);
  if (options.otherThanThis && holder.pid === process.pid) return false;
  return processRuns(holder.pid, holder.started);
}

/** Creates the lock file with this process's id; false when it exists. */
function create(file: string, shown: { folder: string; lockFile: string }): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'wx');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    // A folder of another user, or a read-only disk: nothing has been touched yet.
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS')
      throw new Stopped(
        `${shown.lockFile} cannot be made (${code}${code === 'EROFS' ? ': a read-only disk' : ''}): a build writes ` +
          `its lock and its new output beside ${shown.folder}, in ${path.dirname(shown.lockFile)}/; ` +
          'make that folder writable for this user, or build elsewhere with --out.',
      );
    throw error;
  }
  try {
    const started = ownStart();
    writeSync(fd, started === undefined ? `${process.pid}\n` : `${process.pid} ${started}\n`);
  } catch (error) {
    // A full disk: no lock is left behind, empty, for the next build to wait on.
    closeSync(fd);
    rmSync(file, { force: true });
    throw error;
  }
  closeSync(fd);
  return true;
}

interface Holder {
  pid: number;
  /** Its start time, where the lock's maker could read it. */
  started?: number;
}

/** The process the lock file names; 'empty' while its maker has not written it yet; undefined when there is none. */
function holderOf(file: string): Holder | 'empty' | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const [pid, started] = text.trim().split(' ').map(Number);
  if (!Number.isInteger(pid) || pid! <= 0) return 'empty';
  return Number.isInteger(started) ? { pid: pid!, started: started! } : { pid: pid! };
}

const sameHolder = (a: Holder | 'empty' | undefined, b: Holder | 'empty' | undefined) =>
  a === b || (typeof a === 'object' && typeof b === 'object' && a.pid === b.pid && a.started === b.started);

function ageOf(file: string): number {
  try {
    return Date.now() - statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/**
 * Removes a dead process's lock so that the next `create` can take it. The lock is first renamed
 * to a name of this process's: of two processes taking over one stale lock, only one renames it.
 * Should the file renamed turn out to be a running process's (one that took the stale lock over
 * between this one's reading and renaming it), it is put back where no newer lock was made.
 */
function takeOver(file: string, dead: Holder | 'empty', shown: { folder: string; lockFile: string }): void {
  const moved = `${file}.${process.pid}`;
  try {
    renameSync(file, moved);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const holder = holderOf(moved);
  if (!sameHolder(holder, dead) && typeof holder === 'object' && processRuns(holder.pid, holder.started)) {
    try {
      linkSync(moved, file);
    } catch {
      // A newer lock was made meanwhile: that one holds.
    }
    rmSync(moved, { force: true });
    throw new OutputLocked(holder.pid, shown.lockFile, shown.folder);
  }
  rmSync(moved, { force: true });
}
