/**
 * A journal held in memory as the files an editor keeps (journal settings, one record per file,
 * PDFs, public/ files), changed by the edits editors make, and written to a project folder by
 * difference: only the files an edit touched get new bytes and new stamps, as in a real checkout.
 * The property tests of incremental builds (incremental-equivalence.test.ts) apply random
 * sequences of these edits and compare each build with a cold one.
 *
 * Every edit keeps the journal valid: indices into the current records are taken modulo their
 * count, and new keys, ids and volume labels are moved on until they are free. Invalid content is
 * made on purpose, by `breakJournal`, and never kept in the model.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import YAML from 'yaml';
import { minimalPdf } from '../../scripts/synthetic/minimal-pdf.ts';
import { numberToRoman as roman } from '../../scripts/generator/model/formats.ts';

/** How a record's file is written: the file's extension, and for YAML how long text is laid out. */
export type RecordStyle = 'yaml' | 'yaml-wide' | 'yml' | 'json';

export interface RecordFile {
  style: RecordStyle;
  data: Record<string, unknown>;
  /** The file's text as found on disk, kept until the record is edited (the generator's own layout). */
  raw?: string;
}

export interface JournalModel {
  journal: RecordFile;
  /** By key: the file name without its extension. */
  authors: Map<string, RecordFile>;
  /** By file name without extension. */
  volumes: Map<string, RecordFile>;
  /** By file name without extension. */
  manuscripts: Map<string, RecordFile>;
  /** Paths under content/media/ → bytes. */
  media: Map<string, Uint8Array>;
  /** Paths under public/ → bytes. */
  publicFiles: Map<string, Uint8Array>;
}

// ---------------------------------------------------------------------------------------------
// Reading a journal from disk, and writing one by difference

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

async function readRecord(file: string): Promise<RecordFile> {
  const raw = await readFile(file, 'utf8');
  const json = file.endsWith('.json');
  return {
    style: json ? 'json' : 'yaml',
    data: (json ? JSON.parse(raw) : YAML.parse(raw)) as Record<string, unknown>,
    raw,
  };
}

async function readCollection(dir: string): Promise<Map<string, RecordFile>> {
  const records = new Map<string, RecordFile>();
  for (const file of await filesUnder(dir)) {
    records.set(file.replace(/\.(ya?ml|json)$/, ''), await readRecord(path.join(dir, file)));
  }
  return records;
}

/** The journal of a project folder (`content/` and `public/`), every file read as it is. */
export async function readJournal(root: string): Promise<JournalModel> {
  const content = path.join(root, 'content');
  const media = new Map<string, Uint8Array>();
  for (const file of await filesUnder(path.join(content, 'media')))
    media.set(file, await readFile(path.join(content, 'media', file)));
  const publicFiles = new Map<string, Uint8Array>();
  for (const file of await filesUnder(path.join(root, 'public')))
    publicFiles.set(file, await readFile(path.join(root, 'public', file)));
  return {
    journal: await readRecord(path.join(content, 'journal.yaml')),
    authors: await readCollection(path.join(content, 'authors')),
    volumes: await readCollection(path.join(content, 'volumes')),
    manuscripts: await readCollection(path.join(content, 'manuscripts')),
    media,
    publicFiles,
  };
}

function recordText(record: RecordFile): string {
  if (record.raw !== undefined) return record.raw;
  if (record.style === 'json') return `${JSON.stringify(record.data, null, 2)}\n`;
  // `yaml-wide` keeps every scalar on one line; `yaml` lets the library fold long text.
  return YAML.stringify(record.data, record.style === 'yaml-wide' ? { lineWidth: 0 } : {});
}

const extension = (style: RecordStyle) => (style === 'json' ? 'json' : style === 'yml' ? 'yml' : 'yaml');

/** Every file of the journal: path relative to the project root → bytes. */
export function journalFiles(model: JournalModel): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  const text = (value: string) => Buffer.from(value, 'utf8');
  files.set('content/journal.yaml', text(recordText(model.journal)));
  for (const [collection, records] of [
    ['authors', model.authors],
    ['volumes', model.volumes],
    ['manuscripts', model.manuscripts],
  ] as const) {
    for (const [name, record] of records)
      files.set(`content/${collection}/${name}.${extension(record.style)}`, text(recordText(record)));
  }
  for (const [file, bytes] of model.media) files.set(`content/media/${file}`, bytes);
  for (const [file, bytes] of model.publicFiles) files.set(`public/${file}`, bytes);
  return files;
}

/** One digest of a set of files: what a cold build's output depends on. */
export function digestOf(files: Map<string, Uint8Array>): string {
  const hash = createHash('sha256');
  for (const file of [...files.keys()].sort()) {
    const bytes = files.get(file)!;
    hash.update(`${file}\0${bytes.length}\0`).update(bytes);
  }
  return hash.digest('hex');
}

export interface SyncOptions {
  /**
   * A modification time for the files written, in the past: old enough for the next build to trust
   * its stamp. Without it they keep the time of writing, too recent to trust (they are hashed).
   */
  mtime?: Date;
  /** Written beside and renamed into place (a new inode), as many editors save; otherwise overwritten. */
  replace?: boolean;
}

/**
 * Makes the project folder hold exactly `next`, given that it holds `previous`: files that differ
 * are written, files gone are removed, the others are left alone (same bytes, same stamps).
 * Returns the paths written or removed.
 */
export async function syncFiles(
  root: string,
  previous: Map<string, Uint8Array>,
  next: Map<string, Uint8Array>,
  options: SyncOptions = {},
): Promise<string[]> {
  const changed: string[] = [];
  for (const file of previous.keys()) {
    if (next.has(file)) continue;
    await rm(path.join(root, file), { force: true });
    changed.push(file);
  }
  for (const [file, bytes] of next) {
    const before = previous.get(file);
    if (before && Buffer.from(before).equals(bytes)) continue;
    const target = path.join(root, file);
    await mkdir(path.dirname(target), { recursive: true });
    if (options.replace) {
      const temporary = path.join(path.dirname(target), `.${path.basename(target)}.saving`);
      await writeFile(temporary, bytes);
      if (options.mtime) await utimes(temporary, options.mtime, options.mtime);
      await rename(temporary, target);
    } else {
      await writeFile(target, bytes);
      if (options.mtime) await utimes(target, options.mtime, options.mtime);
    }
    changed.push(file);
  }
  return changed.sort();
}

// ---------------------------------------------------------------------------------------------
// Edits

/** The model after an edit: the maps are copied, the records shared until one is replaced. */
function copy(model: JournalModel): JournalModel {
  return {
    journal: model.journal,
    authors: new Map(model.authors),
    volumes: new Map(model.volumes),
    manuscripts: new Map(model.manuscripts),
    media: new Map(model.media),
    publicFiles: new Map(model.publicFiles),
  };
}

/** A record with some fields replaced (`undefined` removes one); its own layout is dropped. */
function edited(record: RecordFile, fields: Record<string, unknown>): RecordFile {
  const data: Record<string, unknown> = { ...record.data };
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) delete data[key];
    else data[key] = value;
  }
  return { style: record.style, data };
}

/** The `at`-th entry of a map in key order (the same order on every machine), if any. */
function nth<V>(map: Map<string, V>, at: number): [string, V] | undefined {
  const keys = [...map.keys()].sort();
  if (keys.length === 0) return undefined;
  const key = keys[at % keys.length]!;
  return [key, map.get(key)!];
}

/** `wanted`, or `wanted-2`, `wanted-3`... whichever is free. */
function freeName(wanted: string, taken: (name: string) => boolean): string {
  let name = wanted;
  for (let n = 2; taken(name); n++) name = `${wanted}-${n}`;
  return name;
}

function freeNumber(wanted: number, taken: Set<number>): number {
  let n = Math.max(1, wanted);
  while (taken.has(n)) n++;
  return n;
}

const numbers = (records: Map<string, RecordFile>, field: string) =>
  new Set([...records.values()].map((record) => Number(record.data[field])));

function freeVolumeLabel(model: JournalModel, wanted: number): string {
  const taken = new Set([...model.volumes.values()].map((v) => String(v.data['citation_journal_title'])));
  let n = Math.max(1, wanted);
  while (taken.has(`Volume ${roman(n)}`)) n++;
  return `Volume ${roman(n)}`;
}

/** The ways a manuscript may name its volume by key (model/volume-keys.ts). */
export type VolumeKeyForm = 'file' | 'label' | 'numeral';

/** The key of the form given for the volume in file `name`. */
function volumeKeyOf(model: JournalModel, name: string, form: VolumeKeyForm): string {
  const label = String(model.volumes.get(name)!.data['citation_journal_title']);
  return form === 'file' ? name : form === 'label' ? label : label.replace(/^Volume /, '');
}

/** The file name of the volume a manuscript names, by key (in one of the forms above) or by id. */
function volumeNamedBy(model: JournalModel, manuscript: RecordFile): string | undefined {
  const key = manuscript.data['volume'];
  for (const [name, volume] of model.volumes) {
    const label = String(volume.data['citation_journal_title']);
    if (
      key === undefined
        ? volume.data['id'] === manuscript.data['citation_volume']
        : key === name || key === label || key === label.replace(/^Volume /, '')
    )
      return name;
  }
  return undefined;
}

/** A manuscript moved to the volume of that id, named by its id (a key it named is dropped). */
const toVolumeId = (id: unknown) => ({ citation_volume: id, volume: undefined });

/**
 * The journal with every third manuscript naming its volume by key (its file name, label or
 * numeral in turn) instead of its id: records restored unchanged from the build cache then name
 * volumes by key, and must follow a volume renamed or re-labelled.
 */
export function withVolumeKeys(before: JournalModel): JournalModel {
  const model = copy(before);
  const forms: VolumeKeyForm[] = ['file', 'label', 'numeral'];
  [...model.manuscripts.keys()].sort().forEach((name, i) => {
    if (i % 3 !== 0) return;
    const manuscript = model.manuscripts.get(name)!;
    const volume = volumeNamedBy(model, manuscript);
    if (volume === undefined) return;
    const key = volumeKeyOf(model, volume, forms[(i / 3) % forms.length]!);
    model.manuscripts.set(name, edited(manuscript, { volume: key, citation_volume: undefined }));
  });
  return model;
}

export function sectionsOf(model: JournalModel): string[] {
  return (model.journal.data['sections'] as string[] | undefined) ?? [];
}

export function pdf(title: string): Uint8Array {
  return minimalPdf(title, ['A PDF written by the tests of incremental builds.']);
}

/** The manuscripts' author lists with `from` replaced by `to` (or removed when `to` is undefined). */
function replaceAuthor(model: JournalModel, from: string, to: string | undefined) {
  for (const [name, record] of model.manuscripts) {
    const authors = record.data['authors'] as unknown[];
    if (!authors.includes(from)) continue;
    const next = to === undefined ? authors.filter((a) => a !== from) : authors.map((a) => (a === from ? to : a));
    model.manuscripts.set(name, edited(record, { authors: next }));
  }
}

export type ManuscriptField =
  | { field: 'citation_title'; value: string }
  | { field: 'abstract'; value: string }
  | { field: 'keywords'; value: string[]; asString: boolean }
  | { field: 'citation_date'; value: string }
  | { field: 'udc'; value: string | undefined }
  | { field: 'citation_language'; value: string | undefined }
  | { field: 'order'; value: number | undefined }
  | { field: 'section'; pick: number }
  | { field: 'authors'; picks: number[]; asPublished: string | undefined }
  | { field: 'id'; value: number }
  | { field: 'citation_volume'; pick: number }
  /** The volume named by key, in one of its forms, instead of by id. */
  | { field: 'volume'; pick: number; form: VolumeKeyForm }
  /** An absolute URL (published as it is, nothing copied), or back to a local PDF (written if missing). */
  | { field: 'document'; remote: boolean }
  /** The optional scholarly fields (undefined removes one); pages as a first page and a span. */
  | { field: 'doi'; value: string | undefined }
  | { field: 'license'; value: string | undefined }
  | { field: 'pages'; first: number; span: number; asNumbers: boolean }
  | { field: 'pages'; first: undefined };

/**
 * The edits a property test draws from. Numbers that pick a record, an author, a volume or a
 * section are taken modulo the current count, so any number picks something valid.
 */
export type Edit =
  | ({ kind: 'manuscript'; at: number } & ManuscriptField)
  | {
      kind: 'add-manuscript';
      name: string;
      id: number;
      title: string;
      picks: number[];
      style: RecordStyle;
      /** An existing manuscript's PDF, named by both, instead of a new one. */
      sharePdf: boolean;
    }
  | { kind: 'delete-manuscript'; at: number; keepPdf: boolean }
  | { kind: 'rename-manuscript-file'; at: number; name: string }
  | { kind: 'replace-manuscript-pdf'; at: number; title: string }
  | { kind: 'rename-author'; at: number; key: string }
  | { kind: 'author'; at: number; field: 'name' | 'surname' | 'institution'; value: string }
  | { kind: 'author-order'; at: number; value: number | undefined }
  | { kind: 'author-orcid'; at: number; value: string | undefined }
  | { kind: 'add-author'; key: string; name: string; surname: string; institution: string; credit: number }
  | { kind: 'delete-author'; at: number }
  | {
      kind: 'volume';
      at: number;
      change:
        | { field: 'citation_journal_title'; wanted: number }
        | { field: 'udc'; value: string }
        | { field: 'last_page'; value: number }
        | { field: 'full_date'; value: string }
        | { field: 'citation_language'; value: string | undefined };
    }
  | { kind: 'add-volume'; id: number; label: number; date: string; move: number }
  /** Its manuscripts move to the next volume first; its PDF goes with it. */
  | { kind: 'delete-volume'; at: number }
  /**
   * Two volumes trade labels, or file names: the manuscripts that name them by that key, unchanged,
   * are then published in the other one.
   */
  | { kind: 'swap-volumes'; at: number; what: 'labels' | 'files' }
  | { kind: 'replace-volume-pdf'; at: number; title: string }
  | { kind: 'journal-title'; value: string }
  | { kind: 'journal-publisher'; value: string | undefined }
  | { kind: 'journal-scholarly'; field: 'abbreviation' | 'online_issn' | 'license'; value: string | undefined }
  | { kind: 'add-section'; value: string; move: number }
  | { kind: 'rename-section'; at: number; value: string }
  | { kind: 'reorder-sections'; seed: number }
  | { kind: 'public-file'; file: string; text: string | null }
  | { kind: 'restyle'; collection: 'authors' | 'volumes' | 'manuscripts'; at: number; style: RecordStyle }
  /** Every file of a collection rewritten (same records): more changed files than the cache lets wait. */
  | { kind: 'restyle-all'; collection: 'authors' | 'volumes' | 'manuscripts'; style: RecordStyle }
  | { kind: 'touch'; collection: 'authors' | 'volumes' | 'manuscripts'; at: number }
  /** A record's `modified` date set, changed or removed: the OAI-PMH datestamps of what it touches move. */
  | { kind: 'modified'; collection: 'authors' | 'volumes' | 'manuscripts'; at: number; value: string | undefined };

/** The journal after one edit (the model given is left as it was). */
export function applyEdit(before: JournalModel, edit: Edit): JournalModel {
  const model = copy(before);
  switch (edit.kind) {
    case 'manuscript': {
      const found = nth(model.manuscripts, edit.at);
      if (!found) return model;
      const [name, record] = found;
      model.manuscripts.set(name, edited(record, manuscriptFields(model, record, edit)));
      if (edit.field === 'document' && !edit.remote && !model.media.has(`pdfs/${name}.pdf`))
        model.media.set(`pdfs/${name}.pdf`, pdf(name));
      return model;
    }
    case 'add-manuscript': {
      const name = freeName(edit.name, (n) => model.manuscripts.has(n));
      const id = freeNumber(edit.id, numbers(model.manuscripts, 'id'));
      const volumes = [...model.volumes.values()].map((v) => Number(v.data['id'])).sort((a, b) => a - b);
      const authors = [...model.authors.keys()].sort();
      const sections = sectionsOf(model);
      const shared = edit.sharePdf ? nth(model.manuscripts, id) : undefined;
      let document = shared ? String(shared[1].data['document']) : `pdfs/${name}.pdf`;
      if (!model.media.has(document)) {
        document = `pdfs/${name}.pdf`;
        model.media.set(document, pdf(edit.title));
      }
      model.manuscripts.set(name, {
        style: edit.style,
        data: {
          id,
          citation_volume: volumes[id % volumes.length] ?? 1,
          citation_title: edit.title,
          citation_date: '2024-02-29',
          abstract: `<p>New: <em>${edit.title.replace(/[<&]/g, '')}</em>.</p>`,
          keywords: ['new', 'manuscript'],
          document,
          authors: [...new Set(edit.picks.map((p) => authors[p % authors.length]!))].filter(Boolean),
          section: sections[id % Math.max(1, sections.length)] ?? 'Zoology',
        },
      });
      return model;
    }
    case 'delete-manuscript': {
      const found = nth(model.manuscripts, edit.at);
      if (!found) return model;
      const [name, record] = found;
      model.manuscripts.delete(name);
      const document = String(record.data['document']);
      const stillNamed = [...model.manuscripts.values()].some((m) => m.data['document'] === document);
      if (!edit.keepPdf && !stillNamed) model.media.delete(document);
      return model;
    }
    case 'rename-manuscript-file': {
      const found = nth(model.manuscripts, edit.at);
      if (!found) return model;
      const [name, record] = found;
      model.manuscripts.delete(name);
      model.manuscripts.set(
        freeName(edit.name, (n) => model.manuscripts.has(n)),
        record,
      );
      return model;
    }
    case 'replace-manuscript-pdf': {
      const found = nth(model.manuscripts, edit.at);
      if (found) model.media.set(String(found[1].data['document']), pdf(edit.title));
      return model;
    }
    case 'rename-author': {
      const found = nth(model.authors, edit.at);
      if (!found) return model;
      const [key, record] = found;
      const next = freeName(edit.key, (k) => model.authors.has(k));
      model.authors.delete(key);
      model.authors.set(next, record);
      replaceAuthor(model, key, next);
      return model;
    }
    case 'author': {
      const found = nth(model.authors, edit.at);
      if (found) model.authors.set(found[0], edited(found[1], { [edit.field]: edit.value }));
      return model;
    }
    case 'author-order': {
      const found = nth(model.authors, edit.at);
      if (found) model.authors.set(found[0], edited(found[1], { order: edit.value }));
      return model;
    }
    case 'modified': {
      const records = model[edit.collection];
      const found = nth(records, edit.at);
      if (found) records.set(found[0], edited(found[1], { modified: edit.value }));
      return model;
    }
    case 'author-orcid': {
      const found = nth(model.authors, edit.at);
      if (found) model.authors.set(found[0], edited(found[1], { orcid: edit.value }));
      return model;
    }
    case 'add-author': {
      const key = freeName(edit.key, (k) => model.authors.has(k));
      model.authors.set(key, {
        style: 'yaml',
        data: { name: edit.name, surname: edit.surname, institution: edit.institution },
      });
      // Credited on one manuscript, so the new author reaches its page too.
      const credited = nth(model.manuscripts, edit.credit);
      if (credited) {
        const authors = credited[1].data['authors'] as unknown[];
        model.manuscripts.set(credited[0], edited(credited[1], { authors: [...authors, key] }));
      }
      return model;
    }
    case 'delete-author': {
      const found = nth(model.authors, edit.at);
      if (!found || model.authors.size === 1) return model;
      model.authors.delete(found[0]);
      replaceAuthor(model, found[0], undefined);
      return model;
    }
    case 'volume': {
      const found = nth(model.volumes, edit.at);
      if (!found) return model;
      const [name, record] = found;
      const change = edit.change;
      const value =
        change.field === 'citation_journal_title'
          ? freeVolumeLabel(model, change.wanted)
          : change.field === 'last_page'
            ? String(Number(record.data['first_page']) + change.value)
            : change.value;
      if (change.field === 'citation_journal_title')
        // Those that named it by its label or numeral name it by its file name instead: still valid.
        for (const [file, manuscript] of model.manuscripts)
          if (
            manuscript.data['volume'] !== undefined &&
            manuscript.data['volume'] !== name &&
            volumeNamedBy(model, manuscript) === name
          )
            model.manuscripts.set(file, edited(manuscript, { volume: name }));
      model.volumes.set(name, edited(record, { [change.field]: value }));
      return model;
    }
    case 'add-volume': {
      const id = freeNumber(edit.id, numbers(model.volumes, 'id'));
      const name = freeName(`volume-${id}`, (n) => model.volumes.has(n));
      const year = edit.date.slice(0, 4);
      const file = `volumes/pdfs/${year}/${name}.pdf`;
      const label = freeVolumeLabel(model, edit.label);
      model.media.set(file, pdf(label));
      model.volumes.set(name, {
        style: 'yaml',
        data: {
          id,
          citation_journal_title: label,
          udc: '57 59',
          first_page: '1',
          last_page: '64',
          full_date: edit.date,
          pdf: file,
        },
      });
      // One manuscript moves into the new volume, so it is not empty.
      const moved = nth(model.manuscripts, edit.move);
      if (moved) model.manuscripts.set(moved[0], edited(moved[1], toVolumeId(id)));
      return model;
    }
    case 'delete-volume': {
      const found = nth(model.volumes, edit.at);
      if (!found || model.volumes.size === 1) return model;
      const [name, record] = found;
      const named = [...model.manuscripts].filter(([, manuscript]) => volumeNamedBy(model, manuscript) === name);
      model.volumes.delete(name);
      model.media.delete(String(record.data['pdf']));
      const heir = nth(model.volumes, edit.at)![1].data['id'];
      for (const [file, manuscript] of named) model.manuscripts.set(file, edited(manuscript, toVolumeId(heir)));
      return model;
    }
    case 'swap-volumes': {
      const names = [...model.volumes.keys()].sort();
      if (names.length < 2) return model;
      const [a, b] = [names[edit.at % names.length]!, names[(edit.at + 1) % names.length]!];
      const [first, second] = [model.volumes.get(a)!, model.volumes.get(b)!];
      if (edit.what === 'files') {
        model.volumes.set(a, second);
        model.volumes.set(b, first);
      } else {
        const label = (v: RecordFile) => ({ citation_journal_title: v.data['citation_journal_title'] });
        model.volumes.set(a, edited(first, label(second)));
        model.volumes.set(b, edited(second, label(first)));
      }
      return model;
    }
    case 'replace-volume-pdf': {
      const found = nth(model.volumes, edit.at);
      if (found) model.media.set(String(found[1].data['pdf']), pdf(edit.title));
      return model;
    }
    case 'journal-title':
      model.journal = edited(model.journal, { title: edit.value });
      return model;
    case 'journal-publisher':
      model.journal = edited(model.journal, { publisher: edit.value });
      return model;
    case 'journal-scholarly':
      model.journal = edited(model.journal, { [edit.field]: edit.value });
      return model;
    case 'add-section': {
      const sections = sectionsOf(model);
      if (sections.includes(edit.value)) return model;
      model.journal = edited(model.journal, { sections: [...sections, edit.value] });
      const moved = nth(model.manuscripts, edit.move);
      if (moved) model.manuscripts.set(moved[0], edited(moved[1], { section: edit.value }));
      return model;
    }
    case 'rename-section': {
      const sections = sectionsOf(model);
      if (sections.length === 0 || sections.includes(edit.value)) return model;
      const old = sections[edit.at % sections.length]!;
      model.journal = edited(model.journal, { sections: sections.map((s) => (s === old ? edit.value : s)) });
      for (const [name, record] of model.manuscripts)
        if (record.data['section'] === old) model.manuscripts.set(name, edited(record, { section: edit.value }));
      return model;
    }
    case 'reorder-sections': {
      const sections = [...sectionsOf(model)];
      if (sections.length < 2) return model;
      const i = edit.seed % sections.length;
      const j = (i + 1 + (Math.floor(edit.seed / sections.length) % (sections.length - 1))) % sections.length;
      [sections[i], sections[j]] = [sections[j]!, sections[i]!];
      model.journal = edited(model.journal, { sections });
      return model;
    }
    case 'public-file':
      if (edit.text === null) model.publicFiles.delete(edit.file);
      else model.publicFiles.set(edit.file, Buffer.from(edit.text, 'utf8'));
      return model;
    case 'restyle': {
      const records = model[edit.collection];
      const found = nth(records, edit.at);
      if (found) records.set(found[0], { style: edit.style, data: found[1].data });
      return model;
    }
    case 'restyle-all': {
      const records = model[edit.collection];
      for (const [name, record] of records)
        if (record.raw !== undefined || record.style !== edit.style)
          records.set(name, { style: edit.style, data: record.data });
      return model;
    }
    case 'touch':
      // Same records, same bytes: only the stamps change (`syncFiles` writes nothing for it; see `touchFiles`).
      return model;
  }
}

function manuscriptFields(model: JournalModel, record: RecordFile, edit: ManuscriptField): Record<string, unknown> {
  switch (edit.field) {
    case 'keywords':
      return {
        keywords: edit.asString ? `${edit.value.join(', ').replace(/\.$/, '')}.` : edit.value,
      };
    case 'section': {
      const sections = sectionsOf(model);
      return sections.length === 0 ? {} : { section: sections[edit.pick % sections.length] };
    }
    case 'authors': {
      const keys = [...model.authors.keys()].sort();
      const authors: unknown[] = [...new Set(edit.picks.map((p) => keys[p % keys.length]!))];
      if (edit.asPublished !== undefined) authors.splice(authors.length >> 1, 0, { as_published: edit.asPublished });
      return { authors };
    }
    case 'id':
      return { id: freeNumber(edit.value, numbers(model.manuscripts, 'id')) };
    case 'document': {
      const name = [...model.manuscripts].find(([, r]) => r === record)![0];
      return { document: edit.remote ? `https://cdn.example.org/media/pdfs/${name}.pdf` : `pdfs/${name}.pdf` };
    }
    case 'pages': {
      if (edit.first === undefined) return { first_page: undefined, last_page: undefined };
      const last = edit.first + edit.span;
      return edit.asNumbers
        ? { first_page: edit.first, last_page: last }
        : { first_page: String(edit.first), last_page: String(last) };
    }
    case 'citation_volume': {
      const ids = [...model.volumes.values()].map((v) => Number(v.data['id'])).sort((a, b) => a - b);
      const id = ids[edit.pick % ids.length];
      return id === undefined ? {} : toVolumeId(id);
    }
    case 'volume': {
      const names = [...model.volumes.keys()].sort();
      if (names.length === 0) return {};
      return { volume: volumeKeyOf(model, names[edit.pick % names.length]!, edit.form), citation_volume: undefined };
    }
    default:
      return { [edit.field]: edit.value };
  }
}

/**
 * The journal with the optional scholarly fields on every other record (a DOI, pages and a licence
 * on manuscripts, an ORCID iD on authors), from the start: records the build cache restores
 * unchanged then carry them, and a page rendered again from such a record must still show them.
 */
export function withScholarlyFields(before: JournalModel): JournalModel {
  const model = copy(before);
  const ORCIDS = ['0000-0002-1825-0097', '0000-0002-9079-593X', '0000-0003-1234-5674'];
  [...model.authors.keys()].sort().forEach((key, i) => {
    if (i % 2 === 0) model.authors.set(key, edited(model.authors.get(key)!, { orcid: ORCIDS[i % ORCIDS.length] }));
  });
  [...model.manuscripts.keys()].sort().forEach((name, i) => {
    if (i % 2 === 1) return;
    const fields = { doi: `10.5555/bench.${i}`, first_page: String(i + 1), last_page: String(i + 9) };
    const license = i % 4 === 0 ? { license: 'https://creativecommons.org/licenses/by-sa/4.0/' } : {};
    model.manuscripts.set(name, edited(model.manuscripts.get(name)!, { ...fields, ...license }));
  });
  return model;
}

/**
 * The journal with an OAI-PMH repository (docs/oai-pmh.md), and a `modified` date on some authors,
 * volumes and manuscripts: the datestamps of every record then depend on its authors and volume.
 */
export function withOai(before: JournalModel): JournalModel {
  const model = copy(before);
  model.journal = edited(model.journal, { oai: { admin_email: 'editor@journal.example.org' } });
  for (const collection of ['authors', 'volumes', 'manuscripts'] as const) {
    const records = model[collection];
    [...records.keys()].sort().forEach((key, i) => {
      if (i % 3 === 1) records.set(key, edited(records.get(key)!, { modified: `2030-0${1 + (i % 9)}-15` }));
    });
  }
  return model;
}

/** The file of the record an edit of kind `touch` names, relative to the project root. */
export function touchedFile(model: JournalModel, edit: Extract<Edit, { kind: 'touch' }>): string | undefined {
  const found = nth(model[edit.collection], edit.at);
  return found && `content/${edit.collection}/${found[0]}.${extension(found[1].style)}`;
}

// ---------------------------------------------------------------------------------------------
// Invalid content

/** Mistakes an editor makes; each must fail the build and leave the output as it was. */
export const DEFECTS = [
  'yaml-syntax',
  'unknown-author',
  'duplicate-id',
  'impossible-date',
  'unknown-volume',
  'missing-pdf',
  'not-a-pdf',
  'unknown-section',
  'script-in-abstract',
  'journal-without-title',
  'public-claims-generated-path',
  'referenced-author-deleted',
  'duplicate-volume-label',
] as const;
export type Defect = (typeof DEFECTS)[number];

/** The files of `model` with one mistake in them, picked by `at` where a record is needed. */
export function brokenFiles(model: JournalModel, defect: Defect, at: number): Map<string, Uint8Array> {
  const broken = copy(model);
  const manuscript = nth(broken.manuscripts, at);
  const editManuscript = (fields: Record<string, unknown>) => {
    if (manuscript) broken.manuscripts.set(manuscript[0], edited(manuscript[1], fields));
  };
  switch (defect) {
    case 'yaml-syntax':
      if (manuscript)
        broken.manuscripts.set(manuscript[0], { style: 'yaml', data: {}, raw: 'id: [1\ncitation_title: "x\n' });
      break;
    case 'unknown-author':
      editManuscript({ authors: ['nobody-has-this-key'] });
      break;
    case 'duplicate-id': {
      const other = nth(broken.manuscripts, at + 1);
      if (other && other[0] !== manuscript?.[0]) editManuscript({ id: other[1].data['id'] });
      else editManuscript({ id: 'not a number' });
      break;
    }
    case 'impossible-date':
      editManuscript({ citation_date: '2023-02-30' });
      break;
    case 'unknown-volume':
      editManuscript(toVolumeId(9999));
      break;
    case 'missing-pdf':
    case 'not-a-pdf': {
      const local = [...broken.manuscripts.values()]
        .map((m) => String(m.data['document']))
        .filter((document) => broken.media.has(document))
        .sort();
      const document = local[at % Math.max(1, local.length)];
      if (document === undefined) editManuscript({ citation_date: '2023-02-30' });
      else if (defect === 'missing-pdf') broken.media.delete(document);
      else broken.media.set(document, Buffer.from('<html>not a PDF</html>'));
      break;
    }
    case 'unknown-section':
      editManuscript({ section: 'A section the journal does not have' });
      break;
    case 'script-in-abstract':
      editManuscript({ abstract: '<p>Hello <script>alert(1)</script></p>' });
      break;
    case 'journal-without-title':
      broken.journal = edited(broken.journal, { title: undefined });
      break;
    case 'public-claims-generated-path':
      broken.publicFiles.set('sitemap.xml', Buffer.from('<urlset/>\n'));
      break;
    case 'referenced-author-deleted': {
      const named = [...broken.manuscripts.values()].flatMap((m) => m.data['authors'] as unknown[]);
      const key = [...broken.authors.keys()].sort().find((k) => named.includes(k));
      if (key) broken.authors.delete(key);
      else editManuscript({ authors: ['nobody-has-this-key'] });
      break;
    }
    case 'duplicate-volume-label': {
      const volumes = [...broken.volumes.keys()].sort();
      if (volumes.length >= 2) {
        const [first, second] = [volumes[at % volumes.length]!, volumes[(at + 1) % volumes.length]!];
        broken.volumes.set(
          second,
          edited(broken.volumes.get(second)!, {
            citation_journal_title: broken.volumes.get(first)!.data['citation_journal_title'],
          }),
        );
      } else {
        editManuscript({ citation_date: '2023-02-30' });
      }
      break;
    }
  }
  return journalFiles(broken);
}
