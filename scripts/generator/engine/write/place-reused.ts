/**
 * Puts the files taken from the previous output into the staging folder, each by a hard link: the
 * previous output is the one being served (by a server pointed at it, the preview), and nothing is
 * taken out of it before the swap. A folder moved whole into the staging folder (as builds did)
 * was missing from the served tree for tens of milliseconds, and from the previous output for good
 * when the build was killed before its swap. What the links cost is in docs/performance.md.
 */

import { createFileWriter } from './file-writer.ts';
import { under } from './reusable-files.ts';

/** Which of the linker's two threads a file goes to: the PDFs and the lists to one, the pages to the other. */
export type LinkLane = 0 | 1;

export interface ReuseLinker {
  /** Hands a file of the previous output over to be linked into the staging folder (resolves once handed over). */
  link(relative: string, lane: LinkLane): Promise<void>;
  /** Every file handed over is linked; throws the first failure. */
  close(): Promise<void>;
  /** Stops at once (after a failure elsewhere). */
  abort(): Promise<void>;
}

/**
 * Links on two writers' threads (file-writer.ts), begun as soon as a file is known to be reused:
 * the links of 100,000 PDFs and pages are made while the lists are still compressed, the longest
 * task of a build after an edit. Links made in one folder wait for each other (the folder's lock),
 * so the PDFs' folder and the pages' go to different threads. A link is about 15 µs of the
 * kernel's time on ext4; made through the thread pool, each was also a trip back to this thread.
 * Where a link cannot be made the file is copied.
 */
export function startLinking(
  outDir: string,
  staging: string,
  ensureFolder: (file: string) => Promise<unknown>,
): ReuseLinker {
  // Handed over a few batches at a time, as the pages are: 200,000 paths queued at once are held
  // twice, here and on the threads, at the build's peak of memory.
  const writers = [createFileWriter(), createFileWriter()];
  return {
    async link(relative, lane) {
      const file = under(staging, relative);
      await ensureFolder(file);
      await writers[lane]!.copy(under(outDir, relative), file, 'reuse', -1);
    },
    async close() {
      await Promise.all(writers.map((writer) => writer.close()));
    },
    async abort() {
      await Promise.all(writers.map((writer) => writer.abort()));
    },
  };
}
