/**
 * The dev server's loop, measured as an editor meets it (run.ts, step `dev`): `npm run dev` is
 * started on the journal in `root`, a client listens to its event stream as an open page does, and
 * one manuscript is saved:
 *
 *   start          from the command's start to its address printed (the journal loaded)
 *   same bytes     the file saved with the bytes it has: no reload may come (waited for 2 s)
 *   save → reload  the title changed, from the write to the reload event (several saves: the median
 *                  and the slowest)
 *   page           the manuscript's page asked for after the reload, until its last byte
 *   save → page    from the write to the page's last byte: what the editor waits for (dev lists a
 *                  renderer's outputs when one is first asked for, so part of a save's work is here)
 *
 * and the dev process's peak resident set. The file is restored afterwards.
 *
 *   tsx scripts/bench/dev-reload.ts <project root> <manuscript file> [saves]
 */
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

async function main(): Promise<void> {
  const [root, relative, savesText] = process.argv.slice(2);
  if (!root || !relative) throw new Error('usage: dev-reload.ts <project root> <manuscript file> [saves]');
  const saves = Number(savesText ?? '5');
  const file = path.resolve(root, relative);
  const original = await readFile(file, 'utf8');

  const started = performance.now();
  const child = spawn(process.execPath, [path.join(REPO, 'scripts/cli.cjs'), 'dev', '--port', '0'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const origin = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const found = /Serving the site at (http:\/\/\S+?)\/? /.exec(output);
      if (found) resolve(found[1]!);
    });
    child.once('exit', (code) => reject(new Error(`dev exited with ${code}:\n${output}`)));
  });
  const startSeconds = (performance.now() - started) / 1000;

  try {
    const reloads = listen(`${origin}/__dev/events`);
    await reloads.opened;
    const id = /^id: (\d+)$/m.exec(original)?.[1];

    await writeFile(file, original);
    const unwanted = await Promise.race([reloads.next(), delay(2000).then(() => undefined)]);

    const times: number[] = [];
    const pageTimes: number[] = [];
    let pageMs = 0;
    for (let i = 1; i <= saves; i++) {
      const edited = original.replace(
        /^citation_title: (.*)$/m,
        (_, title: string) => `citation_title: ${title} (${i})`,
      );
      const next = reloads.next();
      const saved = performance.now();
      await writeFile(file, edited);
      await next;
      times.push(performance.now() - saved);
      const asked = performance.now();
      await get(`${origin}/manuscripts/${id}`);
      pageMs = Math.max(pageMs, performance.now() - asked);
      pageTimes.push(performance.now() - saved);
      // As an editor types: the next save comes once the page has been looked at.
      await delay(300);
    }
    times.sort((a, b) => a - b);
    pageTimes.sort((a, b) => a - b);
    const peak = /VmHWM:\s+(\d+) kB/.exec(await readFile(`/proc/${child.pid}/status`, 'utf8').catch(() => ''));
    console.log(`start ${startSeconds.toFixed(2)} s`);
    console.log(`same bytes: ${unwanted === undefined ? 'no reload' : 'RELOADED (a rebuild that changed nothing)'}`);
    console.log(
      `save → reload: median ${Math.round(times[times.length >> 1]!)} ms, slowest ${Math.round(times.at(-1)!)} ms (${saves} saves)`,
    );
    console.log(`page after reload: at most ${Math.round(pageMs)} ms`);
    console.log(
      `save → page: median ${Math.round(pageTimes[pageTimes.length >> 1]!)} ms, slowest ${Math.round(pageTimes.at(-1)!)} ms`,
    );
    if (peak) console.log(`dev peak RSS ${(Number(peak[1]) / 1024).toFixed(0)} MiB`);
    reloads.close();
  } finally {
    await writeFile(file, original);
    child.kill('SIGTERM');
  }
}

/** An event stream's reload events, one promise each, as a page's EventSource gets them. */
function listen(url: string): { opened: Promise<void>; next(): Promise<void>; close(): void } {
  let waiting: (() => void)[] = [];
  let request: http.ClientRequest;
  const opened = new Promise<void>((resolve, reject) => {
    request = http.get(url, (response) => {
      resolve();
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        for (const _ of chunk.matchAll(/^event: reload$/gm)) {
          const resolvers = waiting;
          waiting = [];
          for (const done of resolvers) done();
        }
      });
    });
    request.on('error', reject);
  });
  return {
    opened,
    next: () => new Promise<void>((resolve) => waiting.push(resolve)),
    close: () => request.destroy(),
  };
}

function get(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (response) => {
        response.resume();
        response.on('end', () => resolve());
      })
      .on('error', reject);
  });
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
