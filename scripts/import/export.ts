/**
 * `npm run export -- out.json` (issue 3): the dump format, `{"authors":[...],"volumes":[...],
 * "manuscripts":[...]}`, made of exactly the bytes the build writes for the three lists. It builds
 * into a temporary folder (a stale `dist/` is never exported), so `import` then `export` gives
 * back the dump it was given, byte for byte, when that dump was written the DRF way.
 */
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { build } from '../generator/build.ts';
import type { Problem } from '../generator/problems.ts';
import { API_LISTS, listFile } from '../shared/contract.ts';
import { projectPaths, type ProjectPaths } from '../project.ts';

export type ExportResult =
  | { ok: true; file: string; bytes: number; counts: { authors: number; volumes: number; manuscripts: number } }
  | { ok: false; problems: Problem[] };

export async function exportJournal(paths: ProjectPaths, outFile: string): Promise<ExportResult> {
  const temp = await mkdtemp(path.join(os.tmpdir(), 'journal-export-'));
  try {
    const out = path.join(temp, 'dist');
    // A build cache of its own (issue 4): the user's cache describes the user's dist/, not this one.
    const overrides = { content: paths.content, out, public: path.join(temp, 'no-public'), cache: path.join(temp, 'cache') };
    const result = await build(projectPaths(paths.root, overrides), 'build');
    if (!result.ok) return { ok: false, problems: result.problems };
    const parts: string[] = [];
    for (const list of API_LISTS) parts.push(`"${list}":${await readFile(path.join(out, ...listFile(list).split('/')), 'utf8')}`);
    const body = `{${parts.join(',')}}`;
    // Written beside the target, then renamed: a reader never sees half a dump.
    const target = path.resolve(paths.root, outFile);
    const partial = `${target}.partial-${process.pid}`;
    try {
      await writeFile(partial, body);
      await rename(partial, target);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    const { authors, volumes, manuscripts } = result.counts;
    return { ok: true, file: target, bytes: Buffer.byteLength(body), counts: { authors, volumes, manuscripts } };
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}
