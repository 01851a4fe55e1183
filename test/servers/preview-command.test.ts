/**
 * `npm run preview` as a user runs it: the command line starts the same preview the suite checks,
 * answers with the production headers, and stops cleanly on SIGTERM (as a process manager stops it).
 */
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/workspace.ts';
import { send, values } from './http-client.ts';
import { freePort, startProcess, waitForHttp, type ServerProcess } from './process.ts';
import { buildSample, type BuiltSite } from './site.ts';

let site: BuiltSite;
let preview: ServerProcess | undefined;
beforeAll(async () => {
  site = await buildSample();
});
afterAll(async () => {
  await preview?.stop('SIGKILL');
  await site.dispose();
});

it("serves --dir on --port with the contract's headers, and exits 0 on SIGTERM", async () => {
  const port = await freePort();
  preview = startProcess(
    process.execPath,
    [path.join(REPO_ROOT, 'scripts/cli.cjs'), 'preview', '--dir', site.dist, '--port', String(port)],
    { cwd: REPO_ROOT },
  );
  const origin = `http://127.0.0.1:${port}`;
  await waitForHttp(origin, preview);
  expect(preview.output()).toContain(`${origin}/api/authors/`);
  // The sample journal publishes an OAI-PMH repository: the address a harvester is given is shown too.
  expect(preview.output()).toContain(`${origin}/oai?verb=Identify`);

  const response = await send(origin, 'GET', '/api/volumes/?format=api');
  expect(response.status).toBe(200);
  expect(values(response, 'content-type')).toEqual(['application/json']);
  expect(values(response, 'allow')).toEqual(['GET']);

  // Only the direct child gets the signal, as from a process manager; it must close and exit 0.
  preview.child.kill('SIGTERM');
  const code = await new Promise<number | null>((resolve) =>
    preview!.child.once('exit', (exitCode) => resolve(exitCode)),
  );
  expect(code).toBe(0);
});
