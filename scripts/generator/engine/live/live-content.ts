/**
 * The files → records seam kept open between builds (`npm run dev`): the journal is loaded once, as
 * a build loads it (content.ts, with the build cache and the load threads), then held in memory; a
 * change to files already known re-loads those files only (stages/load, one file each) and checks
 * only their PDFs. A change this cannot follow cheaply (a file added or removed, the settings, a PDF
 * or a folder) loads everything again, still with the build cache, so it costs what `check` costs.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ProjectPaths } from '../../../project.ts';
import { appendAll } from '../../../shared/append-all.ts';
import type { Problem } from '../../model/problems.ts';
import type { AuthorRecord, ManuscriptRecord, VolumeRecord } from '../../model/records.ts';
import { COLLECTION_NAMES, type CollectionName, type JournalInput, type MediaRef } from '../../model/schema.ts';
import { silentProgress, type Progress } from '../../progress.ts';
import { loadRecordFrom, type InvalidRecord, type Records } from '../../stages/load.ts';
import { startMediaCheck, type MediaCopy } from '../../stages/media.ts';
import { referencesOf } from '../../stages/resolve.ts';
import { locateProblems } from '../cache/locate-problems.ts';
import { loadContentFiles } from '../content.ts';
import { contentHash } from '../load/load-job.ts';
import { MEDIA_FOLDER } from '../../../shared/contract.ts';
import { scanContent } from '../scan/content-scan.ts';
import { manyFilesOnWorkers } from '../scan/many-files.ts';

export type AnyRecord = AuthorRecord | VolumeRecord | ManuscriptRecord;

/** One content file as last loaded: its record (or what is known of it when invalid) and its problems. */
interface FileEntry {
  readonly collection: CollectionName;
  readonly key: string;
  /** Relative to the project root, forward slashes: the name in every report. */
  readonly file: string;
  /** The hash of the bytes loaded; unknown for a file that could not be read. */
  readonly hash: string | undefined;
  readonly record: AnyRecord | undefined;
  readonly invalid: InvalidRecord | undefined;
  readonly problems: readonly Problem[];
  /** Its PDFs' problems, and where each of its PDFs goes in the output. */
  readonly mediaProblems: readonly Problem[];
  readonly copies: readonly MediaCopy[];
}

export interface RecordChange {
  collection: CollectionName;
  before: AnyRecord | undefined;
  after: AnyRecord | undefined;
}

/** What a batch of changed paths did to the content. */
export type ContentChange =
  /** Nothing that matters: the same bytes saved again, or a file no build reads. */
  | 'none'
  /** Some records were loaded again. */
  | 'records'
  /** Everything was loaded again, and the settings (or the code) differ: nothing rendered before may be kept. */
  | 'all';

export interface LiveContent {
  readonly journal: JournalInput | undefined;
  /** The journal's settings file, relative to the project root. */
  readonly journalFile: string | undefined;
  /** The records of every file, in discovery order (each collection's files sorted by name). */
  records(): Records;
  /** Every problem of the files and discovery, as loading found them. */
  problems(): Problem[];
  /** Every problem of the PDFs the records name, as the media stage found them. */
  mediaProblems(): Problem[];
  /** Where each PDF the records name goes in the output (`media/...`), and its file (made again after a change only). */
  media(): ReadonlyMap<string, string>;
  /** The changed paths (absolute), as a watcher reports them. */
  apply(changed: readonly string[]): Promise<ContentChange>;
  /**
   * After `apply`: each record it replaced and what replaced it (`after` undefined: now invalid);
   * undefined when it loaded everything again (files may have come or gone).
   */
  replaced(): readonly RecordChange[] | undefined;
  /** Gives problems of records restored from the build cache their lines and columns. */
  locate(problems: Problem[]): Promise<void>;
}

export async function openLiveContent(paths: ProjectPaths, progress: Progress = silentProgress): Promise<LiveContent> {
  let state = await loadEverything(paths, progress);
  let media: Map<string, string> | undefined;
  let replaced: RecordChange[] | undefined = [];
  // The records as last handed out, and the entries loaded again since (by their place).
  let records: KeptRecords | undefined;
  let patched: number[] = [];
  const reloadEverything = async (): Promise<ContentChange> => {
    const before = state.fingerprint;
    state = await loadEverything(paths, progress);
    records = undefined;
    patched = [];
    media = undefined;
    replaced = undefined;
    return state.fingerprint === before ? 'records' : 'all';
  };

  return {
    get journal() {
      return state.journal;
    },
    get journalFile() {
      return state.journalFile;
    },
    records() {
      records = recordsNow(state.entries, records, patched);
      patched = [];
      return records.records;
    },
    problems() {
      const problems = [...state.other];
      for (const entry of state.entries) {
        // Most files have none: no array is made for them (250,000 at 100,000 manuscripts).
        if (entry.problems.length > 0) appendAll(problems, entry.problems);
      }
      return problems;
    },
    mediaProblems() {
      const problems = [...state.otherMedia];
      for (const entry of state.entries) if (entry.mediaProblems.length > 0) appendAll(problems, entry.mediaProblems);
      return problems;
    },
    media() {
      if (!media) {
        media = new Map();
        for (const entry of state.entries) for (const copy of entry.copies) media.set(copy.to, copy.from);
      }
      return media;
    },
    replaced: () => replaced,
    async apply(changed) {
      const known: number[] = [];
      const changes: RecordChange[] = [];
      replaced = changes;
      for (const absolute of changed) {
        const relative = path.relative(paths.content, absolute);
        if (relative.startsWith('..') || path.isAbsolute(relative)) continue;
        const [folder] = relative.split(path.sep);
        // The editors' JSON Schemas are read by their editor, never by a build.
        if (folder === 'schemas') continue;
        const at = state.byPath.get(absolute);
        // A file that came and went (an editor's temporary file) changed nothing a build reads,
        // unless the last load found it (a problem names it, not a content file): it is gone now.
        if (at === undefined && !existsSync(absolute)) {
          const file = path.relative(paths.root, absolute).split(path.sep).join('/');
          if (state.other.some((problem) => problem.file === file)) return reloadEverything();
          continue;
        }
        if (at === undefined) return reloadEverything();
        known.push(at);
      }
      let reloaded = false;
      for (const at of new Set(known)) {
        const entry = state.entries[at]!;
        const bytes = await readFile(path.join(paths.root, entry.file)).catch(() => undefined);
        // Removed (or being replaced): what is there now is found by loading everything.
        if (!bytes) return reloadEverything();
        const hash = contentHash(bytes);
        if (hash === entry.hash) continue;
        const now = await reloadFile(paths, entry, bytes, hash);
        state.entries[at] = now;
        patched.push(at);
        changes.push({ collection: entry.collection, before: entry.record, after: now.record });
        // The same PDFs in the same places (an edit of anything but `document` or `pdf`): the map stands.
        if (copiesOf(entry) !== copiesOf(now)) media = undefined;
        reloaded = true;
      }
      return reloaded ? 'records' : 'none';
    },
    locate: (problems) => locateProblems(problems, paths.root),
  };
}

interface ContentState {
  journal: JournalInput | undefined;
  journalFile: string | undefined;
  /** The build cache's key: the code and the journal's settings. */
  fingerprint: string;
  /** In discovery order. */
  entries: FileEntry[];
  /** Each entry's place in `entries`, by absolute path. */
  byPath: Map<string, number>;
  /** Problems of no single record file: discovery's, the settings', a folder's. */
  other: Problem[];
  /** The PDFs' problems of no single record file. */
  otherMedia: Problem[];
}

async function loadEverything(paths: ProjectPaths, progress: Progress): Promise<ContentState> {
  // Listed without the output folder: dev never writes nor reads dist/.
  const scan = scanContent(paths.content);
  const content = await loadContentFiles(paths, 'build', { progress, scan });
  const media = content.journal ? await content.checkMedia(true) : { problems: [], copies: [] };
  const records = content.records ?? { authors: [], volumes: [], manuscripts: [], invalid: [] };

  const byFile = new Map<string, { collection: CollectionName; record?: AnyRecord; invalid?: InvalidRecord }>();
  for (const collection of COLLECTION_NAMES)
    for (const record of records[collection] as readonly AnyRecord[])
      byFile.set(record.origin.file, { collection, record });
  for (const invalid of records.invalid) byFile.set(invalid.origin.file, { collection: invalid.collection, invalid });
  const copies = new Map(media.copies.map((copy) => [copy.to, copy]));

  const other: Problem[] = [];
  const otherMedia: Problem[] = [];
  const problemsOf = new Map<string, Problem[]>();
  const mediaProblemsOf = new Map<string, Problem[]>();
  const sortInto = (problems: readonly Problem[], into: Map<string, Problem[]>, rest: Problem[]) => {
    for (const problem of problems) {
      if (!byFile.has(problem.file)) rest.push(problem);
      else into.set(problem.file, [...(into.get(problem.file) ?? []), problem]);
    }
  };
  sortInto(content.problems, problemsOf, other);
  sortInto(media.problems, mediaProblemsOf, otherMedia);

  const entries: FileEntry[] = [...byFile].map(([file, found]) => {
    const origin = found.record?.origin ?? found.invalid!.origin;
    return {
      collection: found.collection,
      key: origin.key,
      file,
      hash: origin.hash,
      record: found.record,
      invalid: found.invalid,
      problems: problemsOf.get(file) ?? [],
      mediaProblems: mediaProblemsOf.get(file) ?? [],
      copies: found.record ? mediaRefsOf(found.record).flatMap((ref) => copies.get(outputPathOf(ref)) ?? []) : [],
    };
  });
  const rank = (collection: CollectionName) => COLLECTION_NAMES.indexOf(collection);
  // Discovery's order: the collections in their order, each folder's names by UTF-16 code units.
  entries.sort((a, b) => rank(a.collection) - rank(b.collection) || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const byPath = new Map(entries.map((entry, i) => [path.join(paths.root, entry.file), i]));
  return {
    journal: content.journal,
    journalFile: content.journalFile,
    fingerprint: content.fingerprint,
    entries,
    byPath,
    other,
    otherMedia,
  };
}

/** One file loaded again, as the load stage loads it, and its PDFs checked as the media stage does. */
async function reloadFile(paths: ProjectPaths, entry: FileEntry, bytes: Uint8Array, hash: string): Promise<FileEntry> {
  const loaded = loadRecordFrom(entry, bytes, hash);
  // Its name as discovery found it, beside another that differs only in case (discover.ts), stands
  // while the file does: only an added or removed file makes discovery look again.
  const named = entry.problems.filter((problem) => problem.code === 'ref/duplicate-key');
  const reloaded = {
    ...entry,
    hash,
    record: loaded.record,
    invalid: loaded.invalid,
    problems: named.length > 0 ? [...named, ...loaded.problems] : loaded.problems,
    mediaProblems: [],
    copies: [],
  };
  if (!loaded.record || mediaRefsOf(loaded.record).length === 0) return reloaded;
  const only: Records = { authors: [], volumes: [], manuscripts: [], invalid: [] };
  if (entry.collection === 'volumes') only.volumes.push(loaded.record as VolumeRecord);
  if (entry.collection === 'manuscripts') only.manuscripts.push(loaded.record as ManuscriptRecord);
  const media = await (
    await startMediaCheck(referencesOf(only), paths.content, manyFilesOnWorkers, undefined, undefined, { copies: true })
  ).result;
  return { ...reloaded, mediaProblems: media.problems, copies: media.copies };
}

/** The place of an entry with neither a record nor an invalid one. */
const NONE = -(2 ** 31);

/** The records of the entries, and where each entry's record (or invalid record) is in them. */
interface KeptRecords {
  records: Records;
  /** By the entry's place: its place in its collection's list, or in `invalid` (negative, from -1). */
  places: Int32Array;
}

/**
 * The records now, from those handed out last when the entries at `patched` were loaded again and
 * each is as valid as it was (its record takes the old one's place, in new lists: the lists handed
 * out before stay as they were); else collected again.
 */
function recordsNow(
  entries: readonly FileEntry[],
  kept: KeptRecords | undefined,
  patched: readonly number[],
): KeptRecords {
  const same = (at: number) => {
    const place = kept!.places[at]!;
    const entry = entries[at]!;
    return entry.record ? place >= 0 : entry.invalid !== undefined && place < 0 && place !== NONE;
  };
  if (kept && patched.every(same)) {
    if (patched.length === 0) return kept;
    const records: Records = { ...kept.records };
    const copied = new Set<keyof Records>();
    for (const at of patched) {
      const entry = entries[at]!;
      const list = entry.record ? entry.collection : 'invalid';
      if (!copied.has(list)) {
        (records as Record<keyof Records, unknown[]>)[list] = [...records[list]];
        copied.add(list);
      }
      const place = kept.places[at]!;
      if (entry.record) (records[entry.collection] as AnyRecord[])[place] = entry.record;
      else (records.invalid as InvalidRecord[])[-place - 1] = entry.invalid!;
    }
    return { records, places: kept.places };
  }
  const records: Records = { authors: [], volumes: [], manuscripts: [], invalid: [] };
  const places = new Int32Array(entries.length).fill(NONE);
  entries.forEach((entry, at) => {
    if (entry.record) places[at] = (records[entry.collection] as AnyRecord[]).push(entry.record) - 1;
    else if (entry.invalid) places[at] = -records.invalid.push(entry.invalid);
  });
  return { records, places };
}

const copiesOf = (entry: FileEntry) => entry.copies.map((copy) => `${copy.to}\n${copy.from}`).join('\n');

/** The PDFs in content/media/ a record names. */
function mediaRefsOf(record: AnyRecord): Extract<MediaRef, { kind: 'local' }>[] {
  const refs = ['pdf' in record ? record.pdf : undefined, 'document' in record ? record.document : undefined];
  return refs.filter((ref): ref is Extract<MediaRef, { kind: 'local' }> => ref?.kind === 'local');
}

/** Where a PDF goes in the output: at its path below content/media/ (render/api.ts, mediaUrl). */
function outputPathOf(ref: Extract<MediaRef, { kind: 'local' }>): string {
  return `${MEDIA_FOLDER}/${ref.path}`;
}
