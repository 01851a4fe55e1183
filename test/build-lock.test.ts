/**
 * One build at a time per output folder (shared/output-lock.ts): two real builds started together,
 * 15 times. Without the lock one of a pair died with a stack trace in about 3 runs of 15, racing
 * for dist/'s name. Now each run ends with one build done and the other stopped by one line naming
 * the first (or both done, one after the other), and dist/ a complete output.
 */
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkspace, REPO_ROOT, type Workspace } from './helpers/workspace.ts';

const RUNS = 15;
let ws: Workspace | undefined;
afterEach(async () => {
  await ws?.dispose();
  ws = undefined;
});

function cliBuild(cwd: string): Promise<{ code: number | null; pid: number; stderr: string; stdout: string }> {
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'scripts/cli.cjs'), 'build'], {
    cwd,
    env: { ...process.env, NO_COLOR: '1' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, pid: child.pid!, stderr, stdout })));
}

describe('two builds at once', () => {
  it(`one builds, the other says which process holds dist/ and stops (${RUNS} runs)`, async () => {
    ws = await createWorkspace();
    expect((await ws.cli('build')).code).toBe(0);
    const title = path.join(ws.paths.content, 'manuscripts/orchids.yaml');
    const original = await readFile(title, 'utf8');
    const outcomes: string[] = [];
    for (let run = 0; run < RUNS; run++) {
      // Each run changes the content, so both builds have work to do.
      await writeFile(title, original.replace('Orchids of Galičica', `Orchids of Galičica, run ${run}`));
      const pair = await Promise.all([cliBuild(ws.root), cliBuild(ws.root)]);
      for (const build of pair) {
        expect(build.stderr).not.toMatch(/\n\s+at |Error:/);
        if (build.code !== 0) {
          const other = pair.find((b) => b !== build)!;
          expect(build.code).toBe(1);
          expect(build.stderr.trim()).toBe(
            `Another build (process ${other.pid}) is writing dist/ now; run this again when it has ended (if no build runs, remove .dist.lock).`,
          );
        }
      }
      expect(pair.some((build) => build.code === 0)).toBe(true);
      outcomes.push(pair.map((build) => build.code).join(' '));
      const list = await readFile(path.join(ws.paths.out, 'api/manuscripts/index.json'), 'utf8');
      expect(list).toContain(`Orchids of Galičica, run ${run}`);
    }
    // At least one run had the two builds overlap (on a busy machine, most do).
    expect(outcomes.some((outcome) => outcome.includes('1'))).toBe(true);
  }, 600_000);

  it('takes over the lock of a build that no longer runs', async () => {
    ws = await createWorkspace();
    await writeFile(path.join(ws.root, '.dist.lock'), '999999999\n');
    const { code, stderr } = await ws.cli('build');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    // And the lock goes with the build that took it.
    await expect(readFile(path.join(ws.root, '.dist.lock'))).rejects.toThrow(/ENOENT/);
  });
});
