/**
 * What the next build needs to reuse this one's output, in the build store (build-store.ts): the
 * output's rows (`outputs`) and what each output read when it was made (`reads`). Both describe
 * the output as it is: they are forgotten before a build changes it and committed together once
 * the new one is in place, so reads of an older output are never compared with a newer manifest
 * (what their tokens were worth then, record-values.ts, is only what the manifest's keys were made
 * from if both come from one build).
 */
import type { CacheWarning, OutputManifest } from '../cache/cache.ts';
import { PreviousOutputReads, type PackedReads, type ReadsByPath } from '../cache/output-reads.ts';
import { JoinedRows, ROW_STAMP_FIELDS } from '../cache/output-rows.ts';
import type { RecordValues } from '../reuse/record-values.ts';
import type { BuildStore, StoreSection } from './build-store.ts';

const OUTPUT_SECTIONS: readonly StoreSection[] = ['outputs', 'reads'];

/**
 * The rows in values of up to ROWS_PER_VALUE files in columns (paths and keys NUL-joined, stamps as
 * numbers): no array or object per file to write or to read back: 200,000 files at 100,000
 * manuscripts, where an entry each costs tens of MB at the end of a cold build. A value's texts
 * (about 50 KB each) are collected young: values of 10,000 files made texts large enough for the
 * old generation, where they waited for a full collection (57 MB of a cold build's peak at 100,000
 * manuscripts).
 */
type OutputFrame = [out: string, files: string, keys: string, stamps: Float64Array];
const ROWS_PER_VALUE = 2_000;

/** The first value of `reads`: the places and what the tokens named, and how many values of paths follow it. */
interface OutputReadsHead {
  parts: number;
  index: Uint32Array;
  values?: RecordValues;
}

/** Reads in each value of the reads' table. */
const READS_PER_VALUE = 10_000;

/** The previous build's rows, when the store holds them. */
export function readOutputManifest(store: BuildStore): OutputManifest | undefined {
  const frames = store.section<OutputFrame>('outputs');
  if (!frames || frames.length === 0) return undefined;
  const files = JoinedRows.fromFrames(frames.map(([, names, keys, stamps]) => ({ names, keys, stamps })));
  return files && { out: frames[0]![0], files };
}

/** What each output read when it was last rendered (reuse.ts), by output path, and what the tokens named then. */
export function readOutputReads(store: BuildStore): { outputs: ReadsByPath; values?: RecordValues } {
  const [head, ...rest] = store.section<OutputReadsHead | string | string[]>('reads') ?? [];
  if (!head || typeof head !== 'object' || Array.isArray(head)) return { outputs: new Map() };
  const { values, parts, index } = head;
  const paths = rest.slice(0, parts) as string[];
  const table = (rest.slice(parts) as string[][]).flat();
  return {
    outputs: new PreviousOutputReads({ paths, index, table }),
    ...(values ? { values } : {}),
  };
}

/** Forgets the rows and the reads: the output is about to change. */
export function forgetOutput(store: BuildStore): CacheWarning {
  return store.forget(OUTPUT_SECTIONS);
}

/** Commits the rows of the output now in place and what its outputs read, together. */
export function commitOutput(
  store: BuildStore,
  manifest: OutputManifest,
  reads: PackedReads,
  values: RecordValues | undefined,
): CacheWarning {
  return store.commit({ outputs: outputFrames(manifest), reads: readsFrames(reads, values) });
}

/** The rows' values, made one at a time as they are written: 200,000 files at once were a peak of their own. */
function* outputFrames({ out, files }: OutputManifest): Generator<OutputFrame> {
  const count = Math.max(1, Math.ceil(files.count / ROWS_PER_VALUE));
  for (let i = 0; i < count; i++) {
    const start = i * ROWS_PER_VALUE;
    const end = Math.min(files.count, start + ROWS_PER_VALUE);
    const stamps = new Float64Array(Math.max(0, end - start) * ROW_STAMP_FIELDS);
    for (let row = start; row < end; row++)
      for (let f = 0; f < ROW_STAMP_FIELDS; f++)
        stamps[(row - start) * ROW_STAMP_FIELDS + f] = files.stampField(row, f);
    yield [out, files.joinedNames(start, end), files.joinedKeys(start, end), stamps];
  }
}

/** The reads' values: the places and the values first, then the paths, a part at a time, then the table of reads. */
function* readsFrames(
  reads: PackedReads,
  values: RecordValues | undefined,
): Generator<OutputReadsHead | string | string[]> {
  yield { parts: reads.paths.length, index: reads.index, ...(values ? { values } : {}) };
  yield* reads.paths;
  for (let start = 0; start < reads.table.length; start += READS_PER_VALUE)
    yield reads.table.slice(start, start + READS_PER_VALUE);
}
