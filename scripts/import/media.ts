/**
 * `--download-media`: every PDF the records name, fetched from its URL (or copied from
 * a local copy of the old media folder) into the staged `content/media/`, at the path its URL
 * names, and checked to be a PDF. All or nothing: one failure and the import writes nothing.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { forEachLimited } from '../shared/for-each-limited.ts';
import type { Problem } from '../generator/model/problems.ts';
import { fetchBytes } from './http.ts';
import type { PlannedMedia } from './plan.ts';

const PDF_MAGIC = '%PDF-';
/** A few at a time: the old host is someone's live site. */
const CONCURRENCY = 4;

export interface MediaSource {
  /** A folder holding the old site's media (`<folder>/pdfs/x.pdf`), or undefined to fetch each URL. */
  folder?: string;
  timeoutMs: number;
}

export async function fetchMedia(
  files: readonly PlannedMedia[],
  stagedMediaDir: string,
  source: MediaSource,
): Promise<{ bytes: number; problems: Problem[] }> {
  const problems: Problem[] = [];
  let bytes = 0;
  await forEachLimited(files, CONCURRENCY, async (file) => {
    const fail = (message: string, expected: string) =>
      problems.push({
        code: 'import/media',
        file: source.folder ? path.join(source.folder, ...file.path.split('/')) : file.url,
        line: 0,
        column: 0,
        field: '',
        message: `${message} (named by ${file.usedBy.join(', ')})`,
        expected,
      });
    let body: Buffer;
    if (source.folder) {
      const read = await readFile(path.join(source.folder, ...file.path.split('/'))).catch(
        (error: NodeJS.ErrnoException) => error,
      );
      if (read instanceof Error)
        return fail(`cannot be read (${read.code ?? read.message})`, `the PDF that ${file.url} serves`);
      body = read;
    } else {
      const fetched = await fetchBytes(file.url, { timeoutMs: source.timeoutMs });
      if (!fetched.ok) return fail(fetched.message, 'a 200 response with the PDF');
      body = fetched.bytes;
    }
    if (body.subarray(0, PDF_MAGIC.length).toString('latin1') !== PDF_MAGIC) {
      return fail(
        `is not a PDF (it starts with ${JSON.stringify(body.subarray(0, 16).toString('latin1'))})`,
        `a file starting with ${PDF_MAGIC}`,
      );
    }
    const target = path.join(stagedMediaDir, ...file.path.split('/'));
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, body);
    bytes += body.length;
  });
  return { bytes, problems };
}
