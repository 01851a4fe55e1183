/**
 * Stage 4b: the PDFs that records name. A local file must exist under `content/media/`, be a
 * regular file (not a link that could point anywhere), stay inside the media folder once every
 * link in its path is followed, and start with the PDF magic bytes. Remote URLs are published as
 * they are and not fetched.
 */
import { lstat, open, realpath } from 'node:fs/promises';
import path from 'node:path';
import type { Origin, Records } from './load.ts';
import type { Problem } from './problems.ts';
import type { MediaRef } from './schema.ts';

export interface MediaCopy {
  /** Absolute source path. */
  from: string;
  /** Output path relative to `dist/`, e.g. `media/pdfs/x.pdf`. */
  to: string;
}

const PDF_MAGIC = '%PDF-';
const CONCURRENCY = 32;

export async function checkMedia(records: Records, contentDir: string): Promise<{ copies: MediaCopy[]; problems: Problem[] }> {
  const mediaDir = path.join(contentDir, 'media');
  const realMediaDir = await realpath(mediaDir).catch(() => mediaDir);
  const jobs: { ref: MediaRef & { kind: 'local' }; origin: Origin; field: string }[] = [];
  for (const v of records.volumes) if (v.pdf.kind === 'local') jobs.push({ ref: v.pdf, origin: v.origin, field: 'pdf' });
  for (const m of records.manuscripts) if (m.document.kind === 'local') jobs.push({ ref: m.document, origin: m.origin, field: 'document' });

  const problems: Problem[] = [];
  const copies = new Map<string, MediaCopy>();
  await forEachLimited(jobs, CONCURRENCY, async ({ ref, origin, field }) => {
    const absolute = path.join(mediaDir, ...ref.path.split('/'));
    const fail = (code: Problem['code'], message: string, expected: string) =>
      problems.push({ code, file: origin.file, ...(origin.at[field] ?? origin.at['']!), field, message, expected });
    const stat = await lstat(absolute).catch(() => undefined);
    if (!stat) return fail('media/missing', `content/media/${ref.path} does not exist`, 'the PDF saved at that path');
    if (stat.isSymbolicLink()) return fail('media/symlink', `content/media/${ref.path} is a symbolic link`, 'a regular file');
    if (!stat.isFile()) return fail('media/missing', `content/media/${ref.path} is not a file`, 'a PDF file');
    const real = await realpath(absolute);
    if (!real.startsWith(realMediaDir + path.sep)) {
      return fail('media/outside-content', `content/media/${ref.path} resolves outside content/media/`, 'a file inside content/media/');
    }
    if (!(await startsWith(absolute, PDF_MAGIC))) {
      return fail('media/not-pdf', `content/media/${ref.path} is not a PDF`, `a file starting with ${PDF_MAGIC}`);
    }
    copies.set(ref.path, { from: absolute, to: `media/${ref.path}` });
  });
  const sorted = [...copies.values()].sort((a, b) => (a.to < b.to ? -1 : a.to > b.to ? 1 : 0));
  return { copies: sorted, problems };
}

async function startsWith(file: string, magic: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(magic.length);
    const { bytesRead } = await handle.read(buffer, 0, magic.length, 0);
    return bytesRead === magic.length && buffer.toString('latin1') === magic;
  } finally {
    await handle.close();
  }
}

export async function forEachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
