/**
 * The port a local server (`preview`, `dev`, `admin`) listens on, as users of dev servers expect
 * (Vite, Astro, Eleventy): with no port asked for, a busy default moves to the next free port and
 * says so; a port asked for (`--port`, `PORT`) is that port or one sentence and exit code 1. A busy
 * port never prints a stack trace, and never leaves the command hanging.
 */
import type { AddressInfo } from 'node:net';
import { Stopped } from './stopped.ts';

export interface PortChoice {
  port: number;
  /** Whether the user named the port (`--port` or `PORT`): then no other port is taken. */
  asked: boolean;
}

/** Ports tried above a busy default before any free port is taken. */
const NEXT_PORTS = 20;

/**
 * Listens with `listen` (a server's own, which rejects with the listen error) and returns the
 * address, and the port asked for or by default when another was taken instead.
 */
export async function listenOnPort(
  listen: (port: number) => Promise<AddressInfo>,
  choice: PortChoice,
  host: string,
): Promise<{ address: AddressInfo; busy?: number }> {
  try {
    return { address: await listen(choice.port) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EADDRINUSE' || choice.asked || choice.port === 0) throw stopped(error, choice.port, host);
  }
  for (let port = choice.port + 1; port <= Math.min(choice.port + NEXT_PORTS, 65535); port++) {
    try {
      return { address: await listen(port), busy: choice.port };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw stopped(error, port, host);
    }
  }
  try {
    return { address: await listen(0), busy: choice.port };
  } catch (error) {
    throw stopped(error, 0, host);
  }
}

/** The line printed when the default port was busy. */
export function movedPortLine(busy: number, address: AddressInfo): string {
  return `Port ${busy} is in use (another server, such as npm start or npm run dev, is running), so this one uses ${address.port}.`;
}

/** A listen error the user can act on, in one sentence; anything else stays an internal error. */
function stopped(error: unknown, port: number, host: string): unknown {
  switch ((error as NodeJS.ErrnoException).code) {
    case 'EADDRINUSE':
      return new Stopped(
        `Port ${port} on ${host} is in use by another program (another npm start or npm run dev?): stop it, or choose another port with --port.`,
      );
    case 'EACCES':
      return new Stopped(
        `Port ${port} on ${host} needs administrator rights on this machine: choose one above 1023 with --port.`,
      );
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new Stopped(`${host} is not an address of this machine: choose another with --host (e.g. 127.0.0.1).`);
    default:
      return error;
  }
}
