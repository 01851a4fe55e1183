/**
 * `npm run export -- out.json` (docs/importing.md): the dump format, `{"authors":[...],"volumes":[...],
 * "manuscripts":[...]}`, made of exactly the bytes the build writes for the three lists. It builds
 * into a temporary folder (a stale `dist/` is never exported), so `import` then `export` gives
 * back the dump it was given, byte for byte, when that dump was written the DRF way.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rename, rm, stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import os from 'node:os';
import path from 'node:path';
import { build, type BuildOptions } from '../generator/build.ts';
import { removeTree } from '../shared/remove-tree.ts';
import type { Problem } from '../generator/model/problems.ts';
import { API_LISTS, listFile } from '../shared/contract.ts';
import { projectPaths, type ProjectPaths } from '../project.ts';

export type ExportResult =
  | { ok: true; file: string; bytes: number; counts: { authors: number; volumes: number; manuscripts: number } }
  | { ok: false; problems: Problem[] };

/** `options` are the build's (the command line gives it the heap's settings of a build). */
export async function exportJournal(
  paths: ProjectPaths,
  outFile: string,
  options: BuildOptions = {},
): Promise<ExportResult> {
  const temp = await mkdtemp(path.join(os.tmpdir(), 'journal-export-'));
  try {
    const out = path.join(temp, 'dist');
    // A build cache of its own: the user's cache describes the user's dist/, not this one.
    const overrides = {
      content: paths.content,
      out,
      public: path.join(temp, 'no-public'),
      cache: path.join(temp, 'cache'),
    };
    const result = await build(projectPaths(paths.root, overrides), 'build', options);
    if (!result.ok) return { ok: false, problems: result.problems };
    // Written beside the target, then renamed: a reader never sees half a dump. The lists' bytes are
    // copied as they are, never decoded: at 100,000 manuscripts they are 238 MB, and as strings
    // joined into one they take the export to a peak of gigabytes.
    const target = path.resolve(paths.root, outFile);
    const partial = `${target}.partial-${process.pid}`;
    async function* dump() {
      for (const [i, list] of API_LISTS.entries()) {
        yield `${i === 0 ? '{' : ','}"${list}":`;
        yield* createReadStream(path.join(out, ...listFile(list).split('/')));
      }
      yield '}';
    }
    let bytes: number;
    try {
      await pipeline(dump(), createWriteStream(partial));
      bytes = (await stat(partial)).size;
      await rename(partial, target);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    const { authors, volumes, manuscripts } = result.counts;
    return { ok: true, file: target, bytes, counts: { authors, volumes, manuscripts } };
  } finally {
    // A whole output (200,000 files at 100,000 manuscripts): removed a few at a time (remove-tree.ts).
    await removeTree(temp);
  }
}
