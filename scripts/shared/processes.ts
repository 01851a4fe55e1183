/**
 * Whether the process that left something beside a folder (a lock, a journal, a staging folder)
 * still runs. Its id alone does not say: a killed process stays in the table as a zombie until its
 * parent reaps it (where nothing reaps, until a restart), and an id is given again to a new process
 * once its own has ended. Where the system shows processes in /proc (Linux), a zombie counts as
 * ended, and a process is known by its id and its start time together; elsewhere by its id alone.
 */
import { readFileSync } from 'node:fs';

interface ProcessState {
  /** One letter: R running, S sleeping, Z zombie, X dead, and so on. */
  state: string;
  /** When it started, in clock ticks since boot: with the id, names one process for good. */
  started: number;
}

/** The state of a process from /proc; null where there is no such process; undefined where /proc is not there. */
function stateOf(pid: number): ProcessState | null | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return undefined;
    return procAvailable() ? null : undefined;
  }
  // The command's name, in parentheses, may hold spaces and parentheses itself: fields follow the last one.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0] ?? '', started: Number(fields[19]) };
}

function procAvailable(): boolean {
  try {
    readFileSync('/proc/self/stat');
    return true;
  } catch {
    return false;
  }
}

/** This process's start time, to be written beside its id; undefined where the system does not show it. */
export function ownStart(): number | undefined {
  return stateOf(process.pid)?.started;
}

/**
 * Whether a process of that id runs, and, when `started` is given and the system shows start times,
 * whether it is the one that started then (signal 0 only asks; EPERM: it runs, as another user).
 */
export function processRuns(pid: number, started?: number): boolean {
  if (pid === process.pid) return started === undefined || started === ownStart();
  const seen = stateOf(pid);
  if (seen === null) return false;
  if (seen !== undefined) {
    if (seen.state === 'Z' || seen.state === 'X') return false;
    return started === undefined || !Number.isFinite(seen.started) || seen.started === started;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
