/**
 * Real server processes for the tests: each runs in its own process group, so stopping it stops
 * whatever it spawned too (nginx and Apache workers, wrangler's workerd), and the id we stop is the
 * one we started (TRAPS: killing a wrapper such as `npx` leaves the server running).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { constants, accessSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import type { RunningServer } from './server.ts';

export interface ServerProcess {
  readonly child: ChildProcess;
  /** Everything the process wrote, for a failure message. */
  output(): string;
  /** Stops the whole process group: `signal` first, SIGKILL if it is still there after `graceMs`. */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<void>;
}

export function startProcess(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): ServerProcess {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
  const exited = child.exitCode !== null ? Promise.resolve() : once(child, 'exit').then(() => undefined);
  child.on('error', (error) => chunks.push(`\n${String(error)}\n`));

  const signalGroup = (signal: NodeJS.Signals) => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, signal);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
  };

  return {
    child,
    output: () => chunks.join(''),
    stop: async (signal = 'SIGTERM', graceMs = 5000) => {
      signalGroup(signal);
      if (signal !== 'SIGKILL') {
        const timer = setTimeout(() => signalGroup('SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      } else {
        await exited;
      }
      // Workers left behind by a master that died first get the same end.
      signalGroup('SIGKILL');
    },
  };
}

/**
 * Starts a server process on `port` and waits until it answers. If it never does, its process
 * group is killed before the error is thrown, so a failed start leaves nothing running.
 */
export async function startHttpServer(
  command: string,
  args: string[],
  options: {
    cwd: string;
    env?: NodeJS.ProcessEnv;
    port: number;
    config: string;
    stopSignal?: NodeJS.Signals;
    readyTimeoutMs?: number;
  },
): Promise<RunningServer> {
  const child = startProcess(command, args, options);
  const origin = `http://127.0.0.1:${options.port}`;
  try {
    await waitForHttp(origin, child, options.readyTimeoutMs);
  } catch (error) {
    await child.stop('SIGKILL');
    throw error;
  }
  return {
    origin,
    describe: () => `${options.config}\n${child.output()}`,
    stop: () => child.stop(options.stopSignal ?? 'SIGTERM'),
  };
}

/** A port nobody listens on right now (the kernel picks it; the server binds it right after). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Polls until the server answers any HTTP request, the process exits, or the time is up. Readiness
 * is a real answer, never a fixed sleep.
 */
export async function waitForHttp(origin: string, server: ServerProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (server.child.exitCode !== null || server.child.signalCode !== null) {
      throw new Error(
        `the server exited (${server.child.exitCode ?? server.child.signalCode}) before answering:\n${server.output()}`,
      );
    }
    if (await answers(origin)) return;
    if (Date.now() > deadline) throw new Error(`no answer from ${origin} after ${timeoutMs} ms:\n${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function answers(origin: string): Promise<boolean> {
  return new Promise((resolve) => {
    const request = http.get(`${origin}/`, { agent: false, timeout: 2000 }, (response) => {
      response.resume();
      resolve(true);
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(false));
  });
}

/** The first executable called `name` on PATH or in the given extra folders (sbin is often off PATH). */
export function findExecutable(
  name: string,
  pathVariable: string | undefined,
  extra: string[] = [],
): string | undefined {
  const folders = [...(pathVariable ?? '').split(path.delimiter).filter(Boolean), ...extra];
  for (const folder of folders) {
    const candidate = path.join(folder, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}
