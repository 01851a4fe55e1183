/**
 * `npm run import -- <url | dump.json | folder>` (docs/importing.md). The orchestrator only wires the steps
 * and returns a result; the command line prints it.
 *
 *   refuse a non-empty content/ → read the source → check its shape → plan (pure) →
 *   stage: write files, fetch PDFs, build and compare byte for byte → swap into content/
 */
import { writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Problem } from '../generator/model/problems.ts';
import { toJson } from '../generator/render/json-text.ts';
import { API_LISTS, type ApiList } from '../shared/contract.ts';
import { contentJsonSchemas } from '../generator/model/schema.ts';
import type { ProjectPaths } from '../project.ts';
import type { SwapSteps } from '../shared/folder-swap.ts';
import { renderContentFile } from './content-files.ts';
import { checkDump, inContractOrder, type Dump } from './dump.ts';
import { fetchMedia } from './media.ts';
import { planImport, type Collection, type Inferences, type PlannedFile, type PlannedMedia } from './plan.ts';
import { readSource, type Source } from './source.ts';
import { existingEntries, replaceContentTree } from './stage.ts';
import { verifyRoundTrip } from './verify.ts';

export interface ImportOptions {
  source: string;
  /** Replace a content tree that already holds files. */
  force?: boolean;
  volumeIds?: string;
  title?: string;
  baseUrl?: string;
  /** Unset: keep the PDFs' URLs. `''`: fetch each PDF. A path: copy them from that media folder. */
  downloadMedia?: string;
  timeoutMs?: number;
  /** Awaited at each step of the swap into content/: only for the tests that kill an import there. */
  swapSteps?: SwapSteps;
}

export interface ImportReport {
  source: string;
  sourceKind: Source['kind'];
  content: string;
  counts: Record<Collection, number> & { pdfs: number; pdfBytes: number };
  /** Files written as JSON because YAML could not carry a value exactly (expected: none). */
  jsonFiles: string[];
  inferences: Inferences;
  /**
   * Values the build refuses, each at its file and line in content/ with what to write instead: the
   * records were written as they are, and the build refuses them until they are fixed.
   */
  refused: Problem[];
  /** The build's warnings about the imported tree (a title with a line break), at file and line. */
  warnings: Problem[];
  /** Whether the source's bytes are exactly what the build writes (DRF's compact UTF-8 JSON). */
  sourceBytesIdentical: boolean;
  reordered: { list: ApiList; count: number }[];
  replaced: string[];
  /** How the source was read, when that is worth saying (a fallback URL). */
  sourceNotes: string[];
}

export type ImportResult = { ok: true; report: ImportReport } | { ok: false; problems: Problem[] };

/** Per request, body included: generous, since an unpaginated list of thousands of records is slow to render. */
export const DEFAULT_TIMEOUT_MS = 60_000;

export async function importJournal(paths: ProjectPaths, options: ImportOptions): Promise<ImportResult> {
  const content = path.relative(paths.root, paths.content).split(path.sep).join('/') || '.';
  const existing = await existingEntries(paths.content);
  if (existing.length > 0 && !options.force) {
    return fail({
      code: 'import/not-empty',
      file: content,
      line: 0,
      column: 0,
      field: '',
      message: `already holds ${existing.join(', ')}`,
      expected: 'an empty content folder, or --force to replace the whole tree with the import',
    });
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const prepared = await readAndPlan(paths, options, timeoutMs);
  if (!prepared.ok) return prepared;
  const { files, expected, media, labels, report, refusalsExpected } = prepared;
  let refused: Problem[] = [];
  let warnings: Problem[] = [];

  let pdfBytes = 0;
  const jsonFiles: string[] = [];
  const problems = await replaceContentTree({ folder: paths.content, steps: options.swapSteps }, async (staging) => {
    // Each file rendered as it is written, and the planned records let go of once all are: 250,000
    // files at 100,000 manuscripts, whose texts all at once take gigabytes of the heap.
    for (const planned of files) {
      const file = renderContentFile(planned);
      if (file.path.endsWith('.json')) jsonFiles.push(file.path);
      const target = path.join(staging, ...file.path.split('/'));
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, file.text);
    }
    files.length = 0;
    // The editors' JSON Schemas, as `npm run schema` writes them: the imported files get the
    // same completion and checks in an editor as the files editors write (docs/content-model.md).
    for (const [name, schema] of Object.entries(contentJsonSchemas())) {
      await mkdir(path.join(staging, 'schemas'), { recursive: true });
      await writeFile(path.join(staging, 'schemas', name), `${JSON.stringify(schema, null, 2)}\n`);
    }
    if (options.downloadMedia !== undefined && media.length > 0) {
      const folder = options.downloadMedia === '' ? undefined : path.resolve(paths.root, options.downloadMedia);
      const fetched = await fetchMedia(media, path.join(staging, 'media'), {
        timeoutMs,
        ...(folder ? { folder } : {}),
      });
      if (fetched.problems.length > 0) return fetched.problems;
      pdfBytes = fetched.bytes;
    }
    const verified = await verifyRoundTrip(paths.root, staging, expected, labels, {
      content,
      expected: refusalsExpected,
    });
    refused = verified.refused;
    warnings = verified.warnings;
    return verified.problems;
  });
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    report: {
      ...report,
      content,
      counts: { ...report.counts, pdfBytes },
      jsonFiles,
      replaced: existing,
      refused,
      warnings,
    },
  };
}

/**
 * The source read, checked and planned: the files to write, the lists the build must write from
 * them (as bytes), and the report. The source and its dump stay in here: at 100,000 manuscripts
 * they, the files' texts and the build that checks them together would pass V8's heap limit.
 */
async function readAndPlan(
  paths: ProjectPaths,
  options: ImportOptions,
  timeoutMs: number,
): Promise<
  | {
      ok: true;
      files: PlannedFile[];
      expected: Record<ApiList, Buffer>;
      media: PlannedMedia[];
      labels: Record<ApiList, string>;
      refusalsExpected: boolean;
      report: Omit<ImportReport, 'content' | 'replaced' | 'jsonFiles' | 'refused' | 'warnings'>;
    }
  | { ok: false; problems: Problem[] }
> {
  const read = await readSource(options.source, paths.root, timeoutMs);
  if (!read.source) return { ok: false, problems: read.problems };
  const source = read.source;
  const checked = checkDump(source.lists, source.labels);
  if (!checked.dump) return { ok: false, problems: checked.problems };
  const dump = checked.dump;

  const planned = planImport(dump, source.labels, {
    localMedia: options.downloadMedia !== undefined,
    ...(options.volumeIds !== undefined ? { volumeIds: options.volumeIds } : {}),
    ...(options.title !== undefined ? { title: options.title } : {}),
    ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
    ...(source.origin !== undefined ? { sourceOrigin: source.origin } : {}),
  });
  if (!planned.plan) return { ok: false, problems: planned.problems };
  const plan = planned.plan;

  const files = [plan.journal, ...plan.files.authors, ...plan.files.volumes, ...plan.files.manuscripts];
  const expected = expectedLists(dump);
  return {
    ok: true,
    files,
    expected,
    media: plan.media,
    labels: source.labels,
    refusalsExpected: plan.refused.length > 0,
    report: {
      source: source.label,
      sourceKind: source.kind,
      counts: {
        authors: dump.authors.length,
        volumes: dump.volumes.length,
        manuscripts: dump.manuscripts.length,
        pdfs: options.downloadMedia !== undefined ? plan.media.length : 0,
        pdfBytes: 0,
      },
      inferences: plan.inferences,
      sourceBytesIdentical: sourceBytesIdentical(source, expected),
      reordered: checked.reordered,
      sourceNotes: source.notes,
    },
  };
}

/** Each list's bytes as the build must write them: DRF's serialization, keys in the contract's order. */
function expectedLists(dump: Dump): Record<ApiList, Buffer> {
  return {
    authors: listBytes(dump, 'authors'),
    volumes: listBytes(dump, 'volumes'),
    manuscripts: listBytes(dump, 'manuscripts'),
  };
}

/**
 * A list as toJson writes the array, encoded a megabyte at a time: the whole list as one string
 * is held at two bytes a character (hundreds of MB for the manuscripts at 100,000).
 */
function listBytes(dump: Dump, list: ApiList): Buffer {
  const chunks: Buffer[] = [];
  let text = '[';
  dump[list].forEach((record, i) => {
    text += `${i === 0 ? '' : ','}${toJson(inContractOrder(list, record))}`;
    if (text.length >= 1 << 20) {
      chunks.push(Buffer.from(text));
      text = '';
    }
  });
  chunks.push(Buffer.from(`${text}]`));
  return Buffer.concat(chunks);
}

function sourceBytesIdentical(source: Source, expected: Record<ApiList, Buffer>): boolean {
  // The source's bytes without a final line break, compared as bytes (never decoded: hundreds of MB at 100,000).
  const trimmed = (bytes: Buffer) =>
    bytes.subarray(0, bytes.length - (bytes.at(-1) === 0x0a ? (bytes.at(-2) === 0x0d ? 2 : 1) : 0));
  if ('whole' in source.bytes) {
    const whole = trimmed(source.bytes.whole);
    const parts = [
      ...API_LISTS.flatMap((list, i) => [Buffer.from(`${i === 0 ? '{' : ','}"${list}":`), expected[list]]),
      Buffer.from('}'),
    ];
    let at = 0;
    for (const part of parts) {
      if (!whole.subarray(at, at + part.length).equals(part)) return false;
      at += part.length;
    }
    return at === whole.length;
  }
  const lists = source.bytes.lists;
  return API_LISTS.every((list) => trimmed(lists[list]).equals(expected[list]));
}

function fail(problem: Problem): ImportResult {
  return { ok: false, problems: [problem] };
}
