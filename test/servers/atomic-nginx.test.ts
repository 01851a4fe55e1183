/**
 * nginx serving `dist` that `build --atomic` switches (docs/recovery.md): with the block
 * `npm run config -- nginx` prints, rooted at the link, it serves each new output as soon as the
 * link is switched, without a reload. Skipped with the reason where nginx is missing; under CI,
 * which installs it, that is a failure.
 */
import { chmod, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkspace, type Workspace } from '../helpers/workspace.ts';
import { nginxServer } from './nginx.ts';
import type { RunningServer } from './server.ts';

const nginx = nginxServer(process.env);
const missing = nginx.unavailable();
if (missing && !process.env['CI']) console.warn(`[nginx] skipped: ${missing}`);

let ws: Workspace | undefined;
let server: RunningServer | undefined;
afterEach(async () => {
  await server?.stop();
  await ws?.dispose();
  server = undefined;
  ws = undefined;
});

describe('nginx serving a dist that build --atomic switches', () => {
  it.skipIf(missing !== undefined && !process.env['CI'])(
    'serves the new output once the link is switched',
    async () => {
      if (missing) throw new Error(`${missing}: CI installs it`);
      ws = await createWorkspace();
      const { root, paths } = ws;
      // mkdtemp makes the folder private; nginx's workers run as another user and must read it.
      await chmod(root, 0o755);
      const built = await ws.cli('build', '--atomic');
      expect(built.code, built.stderr).toBe(0);
      server = await nginx.start({
        dist: paths.out,
        scratch: (name) => path.join(root, name),
        dispose: async () => {},
      });
      const titles = async () => {
        const response = await fetch(`${server!.origin}/api/manuscripts/`);
        expect(response.status, server!.describe()).toBe(200);
        return ((await response.json()) as { citation_title: string }[]).map((item) => item.citation_title);
      };
      expect(await titles()).not.toContain('Renamed by the rebuild');

      const orchids = await readFile(path.join(paths.content, 'manuscripts/orchids.yaml'), 'utf8');
      await ws.write(
        'manuscripts/orchids.yaml',
        orchids.replace(/citation_title: .*/, 'citation_title: Renamed by the rebuild'),
      );
      for (let rebuild = 0; rebuild < 3; rebuild++) {
        const again = await ws.cli('build');
        expect(again.code, again.stderr).toBe(0);
        expect(await titles()).toContain('Renamed by the rebuild');
      }
    },
  );
});
