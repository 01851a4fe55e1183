/**
 * An editor's save under a heavy load: the file is emptied, and written a moment later. `npm run
 * dev` must never report the emptied file's problems (in the terminal or the page) for a save
 * that ends well.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { send } from './servers/http-client.ts';
import { startProcess, type ServerProcess } from './servers/process.ts';
import { createWorkspace, REPO_ROOT, type Workspace } from './helpers/workspace.ts';

const MANUSCRIPT = 'manuscripts/orchids.yaml';
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let workspace: Workspace;
let dev: ServerProcess;
let origin: string;
beforeAll(async () => {
  workspace = await createWorkspace();
  dev = startProcess(process.execPath, [path.join(REPO_ROOT, 'scripts/cli.cjs'), 'dev', '--port', '0'], {
    cwd: workspace.root,
    env: { ...process.env, NO_COLOR: '1' },
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const found = /Serving the site at (http:\/\/127\.0\.0\.1:\d+)\//.exec(dev.output());
    if (found) {
      origin = found[1]!;
      break;
    }
    if (dev.child.exitCode !== null || Date.now() > deadline) throw new Error(`dev did not start:\n${dev.output()}`);
    await delay(100);
  }
});
afterAll(async () => {
  await dev?.stop('SIGKILL');
  await workspace?.dispose();
});

it('shows no problem for a file emptied and then written in a second step', async () => {
  const file = path.join(workspace.paths.content, MANUSCRIPT);
  const original = await readFile(file, 'utf8');
  const id = /^id: (\d+)$/m.exec(original)![1];
  const edited = original.replace(/^citation_title: (.*)$/m, 'citation_title: Orchids, counted again');
  expect(edited).not.toBe(original);

  await writeFile(file, '');
  // Longer than the watcher waits for a burst of events to end: the emptied file is seen alone.
  await delay(100);
  await writeFile(file, edited);

  const deadline = Date.now() + 30_000;
  while (!(await send(origin, 'GET', `/manuscripts/${id}`)).body.toString('utf8').includes('Orchids, counted again')) {
    if (Date.now() > deadline) throw new Error(`the edit was never served:\n${dev.output()}`);
    await delay(100);
  }
  expect(dev.output()).toContain('Rebuilt in');
  expect(dev.output()).not.toContain('with problems');
});
