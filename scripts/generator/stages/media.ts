/**
 * Stage 4b: the PDFs that records name. A local file must exist under `content/media/`, be a
 * regular file (not a link that could point anywhere), stay inside the media folder once every
 * link in its path is followed, and start with the PDF magic bytes. Remote URLs are published as
 * they are and not fetched.
 */
import { closeSync, openSync } from 'node:fs';
import { lstat, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import { MEDIA_FOLDER } from '../../shared/contract.ts';
import { positionOf } from '../model/records.ts';
import type { CheckedRecords } from './resolve.ts';
import { forEachLimited } from '../../shared/for-each-limited.ts';
import { isJoined } from '../../shared/joined-text.ts';
import type { Problem } from '../model/problems.ts';
import { shownFolder, unreadableMediaFolder } from './media-folder-access.ts';
import { caseTwins, pdfCaseTwins } from './case-fold.ts';
import {
  STAT_FIELDS,
  statsOf,
  type FileStamp,
  type FolderListing,
  type ManyFiles,
  type Scan,
  type Stats,
} from './listing.ts';

export interface MediaCopy {
  /** Absolute source path. */
  readonly from: string;
  /** Output path relative to `dist/`, e.g. `media/pdfs/x.pdf`. */
  readonly to: string;
  /** The source's size, mtime and inode when checked: an unchanged PDF is reused from the previous output. */
  readonly stamp?: FileStamp | undefined;
}

/**
 * A PDF that passed, as the media check gives it: its path as the records name it, its folder, and
 * its stamp's numbers; its paths and stamp are made when asked for. Made whole, the two paths and
 * the stamp of each of 100,000 PDFs were about 25 MB held to the end of a build.
 */
class PassedPdf implements MediaCopy {
  readonly #folder: MediaFolder;
  readonly #size: number;
  readonly #mtimeMs: number;
  readonly #ino: number;

  /** `refPath`: under content/media/, as the records name it; `stamp`: none when it is not to be trusted. */
  constructor(
    readonly refPath: string,
    folder: MediaFolder,
    stamp: FileStamp | undefined,
  ) {
    this.#folder = folder;
    this.#size = stamp?.size ?? Number.NaN;
    this.#mtimeMs = stamp?.mtimeMs ?? Number.NaN;
    this.#ino = stamp?.ino ?? Number.NaN;
  }

  get from(): string {
    return pathOnDisk(this.#folder, this.refPath);
  }

  get to(): string {
    return `${MEDIA_FOLDER}/${this.refPath}`;
  }

  get stamp(): FileStamp | undefined {
    return Number.isNaN(this.#size) ? undefined : { size: this.#size, mtimeMs: this.#mtimeMs, ino: this.#ino };
  }
}

/**
 * PDFs that passed every check, with the stamp each had then, in columns and in the order the
 * records name them (100,000 at 100,000 manuscripts, compared without an object each).
 */
export interface VerifiedMedia {
  /** Paths under `content/media/`, newline-joined (a media path never holds one: formats.ts, SAFE_NAME). */
  paths: string;
  /** size, mtimeMs, ino of each path. */
  stamps: Float64Array;
}

/** Numbers per path in VerifiedMedia's stamps. */
const STAMP = 3;

const PDF_MAGIC = '%PDF-';
const PDF_MAGIC_BYTES = Buffer.from(PDF_MAGIC, 'latin1');
const CONCURRENCY = 64;

/** What startMediaCheck found: the PDFs to publish (when asked), how many there are, and the problems. */
export interface MediaCheck {
  copies: MediaCopy[];
  /** Distinct PDFs that passed. */
  pdfs: number;
  problems: Problem[];
  /** The verified media for the build cache, and whether they changed. */
  verified: VerifiedMedia;
  changed: boolean;
}

/**
 * `verified` (from the build cache) lets a PDF whose stamp is unchanged skip the magic byte check;
 * it is always `lstat`ed (by `scan`, discover.ts, when it listed the PDF's folder, else here), so a
 * replaced, removed or relinked file is checked again, and its folder is always resolved: a folder
 * swapped for a link to somewhere else keeps its files' stamps. `copies: false` (`check`) only
 * counts the PDFs that pass.
 *
 * Begun, not finished: it returns once the PDFs' first bytes are being read on other threads (issue
 * 4: 100,100 PDFs in a cold build, a second of one core), so that this thread can go on with other
 * work meanwhile; `result` is the check.
 */
export async function startMediaCheck(
  records: CheckedRecords,
  contentDir: string,
  files: ManyFiles,
  verified?: VerifiedMedia,
  scan?: Scan,
  options: { copies?: boolean } = {},
): Promise<{ result: Promise<MediaCheck> }> {
  const mediaDir = path.join(contentDir, MEDIA_FOLDER);
  // content/media/ itself a link: every PDF would come from wherever it points.
  const mediaLink = await linkProblem(contentDir, mediaDir);
  if (mediaLink) {
    const none: VerifiedMedia = verified ?? { paths: '', stamps: new Float64Array(0) };
    return { result: Promise.resolve({ copies: [], pdfs: 0, problems: [mediaLink], verified: none, changed: false }) };
  }
  const realMediaDir = await realpath(mediaDir).catch(() => mediaDir);
  // Each PDF's path, and who names it: volume v as -1 - v, manuscript i as i, invalid record j
  // as manuscripts.length + j (no object per PDF).
  const refPaths: string[] = [];
  const namedBy: number[] = [];
  records.volumes.forEach((volume, v) => {
    if (volume.pdf.kind !== 'local') return;
    refPaths.push(volume.pdf.path);
    namedBy.push(-1 - v);
  });
  const manuscripts = records.manuscripts;
  for (let i = 0; i < manuscripts.length; i++) {
    const document = manuscripts.document(i);
    if (document.kind !== 'local') continue;
    refPaths.push(document.path);
    namedBy.push(i);
  }
  // A manuscript or a volume that failed validation still names its PDF: one run reports both mistakes.
  records.invalid.forEach((invalid, j) => {
    const document = invalid.references?.document ?? invalid.pdf;
    if (document?.kind !== 'local') return;
    refPaths.push(document.path);
    namedBy.push(manuscripts.length + j);
  });

  const { folders, folderOf } = foldersOf(refPaths, mediaDir);
  // Media paths are plain (formats.ts, SAFE_NAME: no `.` or `..` folders): joined, not normalized.
  const absoluteOf = (i: number) => pathOnDisk(folders[folderOf[i]!]!, refPaths[i]!);
  const problems: Problem[] = [];
  // First what needs no stamp, while the stat workers may still be taking the PDFs': at 100,000
  // PDFs, doing it after them leaves the other core idle in `check`.
  const known = lineUp(verified, refPaths);
  // A file that is no link (lstat) can only lead elsewhere through its folder: one realpath per folder.
  const inside: boolean[] = [];
  await forEachLimited(
    folders.map((_, f) => f),
    CONCURRENCY,
    async (f) => {
      const real = await realpath(folders[f]!.path).catch(() => folders[f]!.path);
      inside[f] = real === realMediaDir || real.startsWith(realMediaDir + path.sep);
    },
  );
  // The link that leads a folder of PDFs out of content/media/, named with its target in each problem.
  const leadsOut: (string | undefined)[] = [];
  for (const [f, folder] of folders.entries()) {
    if (inside[f]) continue;
    const steps = folder.prefix.split('/').filter(Boolean);
    for (let k = 1; k <= steps.length && leadsOut[f] === undefined; k++)
      leadsOut[f] = (await linkProblem(contentDir, path.join(mediaDir, ...steps.slice(0, k))))?.message;
  }
  // Every PDF is `lstat`ed, on both cores when there are many (100,000 at 100,000 manuscripts), but
  // those in a folder that cannot be read: that folder is one problem.
  const { stats, slotOf, slots, unreadable } = await statListed(refPaths, folders, folderOf, scan, files, absoluteOf, [
    contentDir,
    mediaDir,
  ]);
  // One problem a folder, though several folders of PDFs are under it.
  problems.push(...new Map([...unreadable.values()].map((problem) => [problem.file, problem])).values());
  const values = stats.values;
  const copies = new Map<string, PassedPdf>();
  // `check` counts the distinct PDFs that pass (two records may name one): by their places in their
  // folders' listings, and by their paths only where no listing has them, rather than in a set of
  // 100,000 paths.
  const counted = new Uint8Array(options.copies === false ? slots : 0);
  let passing = 0;
  const passingUnlisted = new Set<string>();
  const pass = (i: number, stamp: FileStamp | undefined) => {
    if (options.copies !== false)
      return void copies.set(refPaths[i]!, new PassedPdf(refPaths[i]!, folders[folderOf[i]!]!, stamp));
    const slot = slotOf ? slotOf[i]! : -1;
    if (slot < 0) passingUnlisted.add(refPaths[i]!);
    else if (counted[slot] === 0) {
      counted[slot] = 1;
      passing++;
    }
  };
  // What passes now, in the records' order (lined up with the next run's paths, as `known` is with these).
  const passed = new Float64Array(refPaths.length * STAMP).fill(Number.NaN);
  let changed = verified === undefined || known === undefined;
  const failed = new Uint8Array(refPaths.length);
  const fail = (i: number, code: Problem['code'], message: string, expected: string) => {
    failed[i] = 1;
    const by = namedBy[i]!;
    const origin =
      by < 0
        ? records.volumes[-1 - by]!.origin
        : by < manuscripts.length
          ? manuscripts.origin(by)
          : records.invalid[by - manuscripts.length]!.origin;
    const field =
      by < 0 || (by >= manuscripts.length && records.invalid[by - manuscripts.length]!.collection === 'volumes')
        ? 'pdf'
        : 'document';
    problems.push({ code, file: origin.file, ...positionOf(origin, field), field, message, expected });
  };
  // First, on this thread, what the stamps decide: at 100,000 PDFs nearly all are known and unchanged.
  const unknown: number[] = [];
  refPaths.forEach((refPath, i) => {
    if (unreadable.has(folderOf[i]!)) return;
    const kind = stats.kind(i);
    if (kind === 'missing')
      return fail(i, 'media/missing', `content/media/${refPath} does not exist`, 'the PDF saved at that path');
    if (kind === 'symlink')
      return fail(i, 'media/symlink', `content/media/${refPath} is a symbolic link`, 'a regular file');
    if (kind !== 'file') return fail(i, 'media/missing', `content/media/${refPath} is not a file`, 'a PDF file');
    if (!inside[folderOf[i]!]) {
      const link = leadsOut[folderOf[i]!];
      return fail(
        i,
        'media/outside-content',
        `content/media/${refPath} resolves outside content/media/${link ? `: ${link}` : ''}`,
        'a file inside content/media/',
      );
    }
    const v = i * STAT_FIELDS;
    const k = i * STAMP;
    if (!known || values[v + 1] !== known[k] || values[v + 2] !== known[k + 1] || values[v + 3] !== known[k + 2])
      return unknown.push(i);
    for (let f = 0; f < STAMP; f++) passed[k + f] = values[v + 1 + f]!;
    pass(i, options.copies === false ? undefined : stats.stamp(i));
  });
  // This thread goes on (build.ts) while other threads read the PDFs' first bytes.
  const reading = files.startWith(unknown.map(absoluteOf), PDF_MAGIC_BYTES);
  const finish = async (): Promise<MediaCheck> => {
    const magic = await reading;
    for (const [u, i] of unknown.entries()) {
      const refPath = refPaths[i]!;
      if (magic[u] === 2) {
        const reason = whyUnreadable(absoluteOf(i));
        fail(i, 'io/unreadable', `content/media/${refPath} cannot be read (${reason})`, 'a readable PDF file');
        continue;
      }
      if (magic[u] !== 1) {
        fail(i, 'media/not-pdf', `content/media/${refPath} is not a PDF`, `a file starting with ${PDF_MAGIC}`);
        continue;
      }
      // A stamp too recent to trust (load-job.ts) is not kept: the file could change again within one tick.
      const trusted = files.trusted(stats.stamp(i)!);
      pass(i, trusted);
      if (trusted) passed.set([trusted.size, trusted.mtimeMs, trusted.ino], i * STAMP);
      changed = true;
    }
    // Two PDFs whose paths differ only in case are one file where case is ignored (case-fold.ts):
    // every record that names one is told, and neither is copied.
    for (const group of caseTwins(refPaths.length, (i) => (failed[i] ? '' : refPaths[i]!)))
      for (const i of group) {
        const said = pdfCaseTwins(refPaths[i]!, refPaths[group.find((j) => refPaths[j] !== refPaths[i])!]!);
        fail(i, 'output/conflict', said.message, said.expected);
        copies.delete(refPaths[i]!);
      }
    // In the order of their paths in the output, which all start with the media folder.
    const sorted = [...copies.values()].sort((a, b) => (a.refPath < b.refPath ? -1 : a.refPath > b.refPath ? 1 : 0));
    const pdfs = options.copies === false ? passing + passingUnlisted.size : sorted.length;
    const kept: number[] = [];
    for (let i = 0; i < refPaths.length; i++) if (!Number.isNaN(passed[i * STAMP])) kept.push(i);
    // Every PDF as it was (nearly always): the verified media stand as they are.
    if (verified && !changed && known === verified.stamps && kept.length === refPaths.length)
      return { copies: sorted, pdfs, problems, verified, changed };
    const now: VerifiedMedia = {
      paths: kept.map((i) => refPaths[i]).join('\n'),
      stamps: new Float64Array(kept.length * STAMP),
    };
    kept.forEach((i, k) => now.stamps.set(passed.subarray(i * STAMP, (i + 1) * STAMP), k * STAMP));
    return { copies: sorted, pdfs, problems, verified: now, changed: changed || now.paths !== verified?.paths };
  };
  const result = finish();
  result.catch(() => {}); // awaited by the caller once its other work is done; a failure meanwhile must not go unhandled
  return { result };
}

/**
 * The verified stamps lined up with `refPaths` (NaN where a path is not verified): the columns as
 * they are when the records name the same PDFs in the same order as last time (nearly always).
 */
function lineUp(verified: VerifiedMedia | undefined, refPaths: readonly string[]): Float64Array | undefined {
  if (!verified) return undefined;
  if (verified.stamps.length === refPaths.length * STAMP && isJoined(verified.paths, refPaths, '\n'))
    return verified.stamps;
  const rows = new Map<string, number>();
  if (verified.paths !== '') verified.paths.split('\n').forEach((refPath, row) => rows.set(refPath, row));
  const known = new Float64Array(refPaths.length * STAMP).fill(Number.NaN);
  refPaths.forEach((refPath, i) => {
    const row = rows.get(refPath);
    if (row !== undefined) known.set(verified.stamps.subarray(row * STAMP, (row + 1) * STAMP), i * STAMP);
  });
  return known;
}

/** A folder of PDFs: its path under content/media/ with a trailing slash ('' for the media folder itself), and on disk. */
interface MediaFolder {
  prefix: string;
  path: string;
}

/** A PDF's absolute path, from its path under content/media/ and the folder it is in. */
function pathOnDisk(folder: MediaFolder, refPath: string): string {
  return folder.path + path.sep + refPath.slice(folder.prefix.length);
}

/**
 * The folders the PDFs are in, and each PDF's: records name their PDFs mostly folder after folder,
 * so a PDF in the same folder as the one before costs no string (100,000 PDFs at 100,000 manuscripts).
 */
function foldersOf(refPaths: readonly string[], mediaDir: string): { folders: MediaFolder[]; folderOf: Int32Array } {
  const folders: MediaFolder[] = [];
  const byPrefix = new Map<string, number>();
  const folderOf = new Int32Array(refPaths.length);
  let last: MediaFolder | undefined;
  refPaths.forEach((refPath, i) => {
    const slash = refPath.lastIndexOf('/');
    if (last && slash + 1 === last.prefix.length && refPath.startsWith(last.prefix)) {
      folderOf[i] = folderOf[i - 1]!;
      return;
    }
    const prefix = refPath.slice(0, slash + 1);
    let f = byPrefix.get(prefix);
    if (f === undefined) {
      f =
        folders.push({
          prefix,
          path: slash < 0 ? mediaDir : mediaDir + path.sep + refPath.slice(0, slash).split('/').join(path.sep),
        }) - 1;
      byPrefix.set(prefix, f);
    }
    folderOf[i] = f;
    last = folders[f];
  });
  return { folders, folderOf };
}

/**
 * What `lstat` said of each PDF when `scan` listed its folder; PDFs in folders it did not list (a
 * folder reached through a symbolic link, or missing; every folder without a scan) are `lstat`ed
 * now, but those in a folder that cannot be read (`unreadable`, by folder). With each PDF's place
 * among the entries of every folder listed (`slotOf`, -1 where its folder was not listed or has no
 * such file; `slots` places in all): two PDFs are one file exactly when they have one place.
 */
async function statListed(
  refPaths: readonly string[],
  folders: readonly MediaFolder[],
  folderOf: Int32Array,
  scan: Scan | undefined,
  files: ManyFiles,
  absoluteOf: (i: number) => string,
  [contentDir, mediaDir]: [string, string],
): Promise<{ stats: Stats; slotOf: Int32Array; slots: number; unreadable: Map<number, Problem> }> {
  const values = new Float64Array(refPaths.length * STAT_FIELDS);
  const slotOf = new Int32Array(refPaths.length).fill(-1);
  const listings: (FolderListing | undefined)[] = [];
  const firstSlot: number[] = [];
  const unreadable = new Map<number, Problem>();
  let slots = 0;
  for (const [f, folder] of folders.entries()) {
    const listing = await scan?.folder(folder.path);
    listings.push(listing);
    firstSlot.push(slots);
    slots += listing ? listing.column.length : 0;
    const problem = listing ? undefined : await unreadableMediaFolder(contentDir, mediaDir, folder.prefix);
    if (problem) unreadable.set(f, problem);
  }
  const rest: number[] = [];
  // Records name their PDFs mostly in the order of their names: the entry after the last one found
  // is tried first, and compared in place.
  let last: FolderListing | undefined;
  let next = 0;
  refPaths.forEach((refPath, i) => {
    const listing = listings[folderOf[i]!];
    if (unreadable.has(folderOf[i]!)) return;
    if (!listing) return rest.push(i);
    const nameStart = folders[folderOf[i]!]!.prefix.length;
    const hint = listing === last ? next : 0;
    const at = listing.column.matches(hint, refPath, nameStart)
      ? hint
      : listing.column.position(refPath.slice(nameStart));
    last = listing;
    next = (at ?? -1) + 1;
    // Not in the listing: missing when the folder was listed (kind 0).
    if (at === undefined) return;
    for (let f = 0; f < STAT_FIELDS; f++) values[i * STAT_FIELDS + f] = listing.values[at * STAT_FIELDS + f]!;
    slotOf[i] = firstSlot[folderOf[i]!]! + at;
  });
  const taken = await files.stat(rest.map(absoluteOf));
  rest.forEach((i, k) => values.set(taken.values.subarray(k * STAT_FIELDS, (k + 1) * STAT_FIELDS), i * STAT_FIELDS));
  return { stats: statsOf(values), slotOf, slots, unreadable };
}

/**
 * Why a PDF could not be read when its first bytes were (stat-many.ts, startsWithMany): removed
 * or replaced since it was stamped, or not readable. Opened once more, so that the error says why.
 */
function whyUnreadable(file: string): string {
  try {
    closeSync(openSync(file, 'r'));
    return 'it changed while it was read';
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? 'error';
  }
}

/** A problem naming `folder` (under `contentDir`) and its target when it is a symbolic link. */
async function linkProblem(contentDir: string, folder: string): Promise<Problem | undefined> {
  const stat = await lstat(folder).catch(() => undefined);
  if (!stat?.isSymbolicLink()) return undefined;
  const target = await readlink(folder).catch(() => '?');
  const file = shownFolder(contentDir, folder);
  return {
    code: 'io/symlink',
    file,
    line: 0,
    column: 0,
    field: '',
    message: `${file} is a symbolic link to ${target}`,
    expected: 'a real folder inside content/',
  };
}
