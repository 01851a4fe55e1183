/** What the search tests look for in the process table (Linux: `/proc`). */
import { readFile, readdir } from 'node:fs/promises';

/**
 * This process's children that are Pagefind's service processes, running or exited and not yet
 * reaped (a zombie, state `Z`), from `/proc` (Linux): each as its pid, name and state.
 */
export async function pagefindChildren(): Promise<string[]> {
  const found: string[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = await readFile(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // `pid (name) state ppid ...`: the name may hold spaces and parentheses, so it ends at the last `)`.
    const nameEnd = stat.lastIndexOf(')');
    const command = stat.slice(stat.indexOf('(') + 1, nameEnd);
    const [state, parent] = stat.slice(nameEnd + 2).split(' ');
    if (Number(parent) === process.pid && command.startsWith('pagefind')) found.push(`${name} ${command} ${state}`);
  }
  return found;
}
