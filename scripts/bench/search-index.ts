/**
 * The benchmark's `search` step (run.ts): the site search's index on its own (docs/search.md). The
 * journal is loaded and ordered as a build does it, then Pagefind indexes every manuscript, into
 * memory, with nothing taken from a previous index; it prints the time that took (from the
 * records' text to the last file), and the index's files and their bytes.
 *
 *   tsx scripts/bench/search-index.ts <project root>
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadContentFiles } from '../generator/engine/content.ts';
import { startSearchIndex } from '../generator/engine/search/search-index.ts';
import { silentProgress } from '../generator/progress.ts';
import { orderJournal } from '../generator/stages/resolve.ts';
import { projectPaths } from '../project.ts';

async function main(root: string): Promise<void> {
  const paths = projectPaths(root);
  const content = await loadContentFiles(paths, 'build', { progress: silentProgress, cache: false });
  if (!content.journal || !content.records || content.problems.some((p) => p.severity !== 'warning'))
    throw new Error(`the journal in ${root} does not load`);
  const resolved = orderJournal(content.journal, content.records);
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'journal-bench-search-'));
  try {
    const started = performance.now();
    const index = startSearchIndex(resolved, {
      outDir: scratch,
      cacheDir: scratch,
      fingerprint: '',
      reuse: false,
      progress: silentProgress,
    });
    const files = await index.files();
    const seconds = (performance.now() - started) / 1000;
    const bytes = (pattern?: RegExp) =>
      files
        .filter((file) => !pattern || pattern.test(file.path))
        .reduce(
          (sum, file) =>
            sum + (typeof file.body === 'string' ? Buffer.byteLength(file.body) : (file.body as Uint8Array).byteLength),
          0,
        );
    const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
    console.log(
      `search index: ${resolved.manuscripts.length} manuscripts in ${seconds.toFixed(3)} s; ${files.length} files, ${mb(bytes())} ` +
        `(index ${mb(bytes(/\/index\//))}, fragments ${mb(bytes(/\/fragment\//))})`,
    );
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

await main(path.resolve(process.argv[2] ?? '.'));
