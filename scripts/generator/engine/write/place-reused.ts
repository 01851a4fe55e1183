/**
 * Puts the files taken from the previous output into the staging folder, each by a hard link: the
 * previous output is the one being served (by a server pointed at it, the preview), and nothing is
 * taken out of it before the swap. A folder moved whole into the staging folder (as builds did)
 * was missing from the served tree for tens of milliseconds, and from the previous output for good
 * when the build was killed before its swap. What a link costs at 100,000 manuscripts is in
 * docs/performance.md.
 */

import { createFileWriter } from './file-writer.ts';
import { under } from './reusable-files.ts';

export interface Placement {
  outDir: string;
  staging: string;
  /** The files taken from the previous output, in the order of the outputs (lists, PDFs, pages). */
  reused: readonly string[];
  ensureFolder: (file: string) => Promise<unknown>;
}

/**
 * Links the reused files on two writers' threads, one half each: in the order of the outputs, the
 * PDFs mostly go to one and the pages to the other, and links made in one folder wait for each
 * other (the folder's lock). A link is about 15 µs of the kernel's time on ext4; made through the
 * thread pool, each was also a trip back to this thread (file-writer.ts). Where a link cannot be
 * made the file is copied.
 */
export async function placeReused(p: Placement): Promise<void> {
  const writers = [createFileWriter(undefined, { unbounded: true }), createFileWriter(undefined, { unbounded: true })];
  const half = Math.ceil(p.reused.length / writers.length);
  try {
    for (const [n, relative] of p.reused.entries()) {
      const file = under(p.staging, relative);
      await p.ensureFolder(file);
      await writers[Math.floor(n / half)]!.copy(under(p.outDir, relative), file, 'link', -1);
    }
    await Promise.all(writers.map((writer) => writer.close()));
  } catch (error) {
    await Promise.all(writers.map((writer) => writer.abort()));
    throw error;
  }
}
