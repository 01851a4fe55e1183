/**
 * Renderer: the three lists of the contract (SPEC section 4), as bare JSON arrays.
 * Pure: records in, files out. Each record is serialized on its own and streamed, so the build
 * never holds a second, serialized copy of a whole list in memory; each list is also given as items
 * (list-items.ts), so that a build after an edit renders only the items that changed.
 */
import type { AuthorRecord, ManuscriptRecord, VolumeRecord } from '../model/records.ts';
import { framingOf, type ListItems, type OutputFile } from '../../shared/output-file.ts';
import { listFile } from '../../shared/contract.ts';
import type { Site } from '../model/site.ts';
import { publishedJsonOf, type FoundAuthors, type LongField } from '../model/records.ts';
import type { AuthorRef, JournalInput, MediaRef } from '../model/schema.ts';
import { toJson } from './json-text.ts';

/** SPEC 2.1, in the contract's key order. */
export function publishedAuthor(a: AuthorRecord) {
  return { name: a.name, surname: a.surname, institution: a.institution };
}

/** SPEC 2.2, in the contract's key order. The volume's id is never published (SPEC-NOTES 1). */
export function publishedVolume(v: VolumeRecord, journal: JournalInput) {
  return {
    citation_language: v.citation_language ?? journal.citation_language,
    citation_journal_title: v.citation_journal_title,
    udc: v.udc,
    citation_issn: v.citation_issn ?? journal.citation_issn,
    first_page: v.first_page,
    last_page: v.last_page,
    pdf: mediaUrl(v.pdf, journal),
    full_date: v.full_date,
  };
}

/**
 * SPEC 2.3's fields, in the contract's key order, once for both ways of publishing a manuscript
 * (publishedManuscript, manuscriptItem). A field kept packed (packed-manuscript.ts) names its packed
 * field and what it is when the record leaves it out (nothing: the key is left out, as
 * JSON.stringify leaves out an undefined value).
 */
type ManuscriptField = { key: string } & (
  | { packed: LongField; otherwise?: (journal: JournalInput) => string }
  | { value: (m: ManuscriptRecord, journal: JournalInput, authors: FoundAuthors) => unknown }
);
const MANUSCRIPT_FIELDS: readonly ManuscriptField[] = [
  { key: 'id', value: (m) => m.id },
  { key: 'citation_language', packed: 'citation_language', otherwise: (journal) => journal.citation_language },
  { key: 'udc', packed: 'udc', otherwise: () => '' },
  { key: 'abstract', packed: 'abstract' },
  { key: 'citation_issn', packed: 'citation_issn', otherwise: (journal) => journal.citation_issn },
  { key: 'citation_title', value: (m) => m.citation_title },
  { key: 'citation_date', value: (m) => m.citation_date },
  { key: 'citation_volume', value: (m) => m.citation_volume },
  { key: 'keywords', packed: 'keywords' },
  { key: 'document', value: (m, journal) => mediaUrl(m.document, journal) },
  { key: 'authors', value: (m, _, authors) => m.authors.map((ref, k) => publishedAuthorName(ref, authors[k])) },
  { key: 'section', value: (m) => m.section },
];
/** Each field's key as it opens the field in an item: `"id":`. */
const FIELD_KEYS = MANUSCRIPT_FIELDS.map((field) => `${JSON.stringify(field.key)}:`);

/** SPEC 2.3, in the contract's key order; `authors`: the records its authors' keys name. */
export function publishedManuscript(
  m: ManuscriptRecord,
  journal: JournalInput,
  authors: FoundAuthors,
): Record<string, unknown> {
  const published: Record<string, unknown> = {};
  for (const field of MANUSCRIPT_FIELDS) {
    published[field.key] =
      'packed' in field ? (m[field.packed] ?? field.otherwise?.(journal)) : field.value(m, journal, authors);
  }
  return published;
}

/** SPEC 2.3: `"<name> <surname>"` of the referenced record (`found`), or the string kept as published. */
export function publishedAuthorName(ref: AuthorRef, found: AuthorRecord | undefined): string {
  if (typeof ref !== 'string') return ref.as_published;
  // A key no author has is reported by the reference checks, and nothing is published.
  return found ? `${found.name} ${found.surname}` : ref;
}

/** A local file is published under the media URL at the same path it has below `content/media/`. */
export function mediaUrl(ref: MediaRef, journal: JournalInput): string {
  return ref.kind === 'remote' ? ref.url : `${journal.media_url}/media/${ref.path}`;
}

export function renderApi(site: Site): OutputFile[] {
  const { journal } = site;
  return [
    jsonArray(listFile('authors'), site.authors, publishedAuthor),
    jsonArray(listFile('volumes'), site.volumes, (v) => publishedVolume(v, journal)),
    list(listFile('manuscripts'), site.manuscripts, (m) => manuscriptItem(m, journal, site.authorsOf(m))),
  ];
}

function jsonArray<T extends object>(path: string, records: readonly T[], publish: (record: T) => unknown): OutputFile {
  return list(path, records, (record) => toJson(publish(record)));
}

/** A list given item by item (each item is about one record), and as a whole. */
function list<T extends object>(
  path: string,
  records: readonly T[],
  render: (record: T) => ReturnType<ListItems['render']>,
): OutputFile {
  const items: ListItems = {
    count: records.length,
    render: (i) => render(records[i]!),
    subject: (i) => records[i]!,
  };
  return { path, precompress: true, items, body: () => listBody(items) };
}

/**
 * A list's body, item by item, in its framing: the bytes the write stage makes of its items. The
 * lists above name none, and are bare JSON arrays (SPEC 4, rule 1).
 */
export function* listBody(items: ListItems): Generator<string> {
  const { open, separator, close } = framingOf(items);
  const decoder = new TextDecoder();
  yield open;
  for (let i = 0; i < items.count; i++) yield (i > 0 ? separator : '') + itemText(items.render(i), decoder);
  yield close;
}

/** An item's JSON as one text: its pieces joined, the UTF-8 ones decoded. */
export function itemText(item: ReturnType<ListItems['render']>, decoder = new TextDecoder()): string {
  return typeof item === 'string'
    ? item
    : item.map((piece) => (typeof piece === 'string' ? piece : decoder.decode(piece))).join('');
}

/**
 * A manuscript's item, toJson(publishedManuscript(...)) byte for byte, in pieces: its long fields
 * (packed-manuscript.ts) are taken as the UTF-8 JSON the load workers wrote, not parsed, serialized
 * and encoded again (the abstracts are most of the 216 MB list at 100,000 manuscripts; this
 * cost the main thread about 3 s of a cold build, and their garbage). test/list-items.test.ts holds
 * the two to the same bytes.
 */
export function manuscriptItem(
  m: ManuscriptRecord,
  journal: JournalInput,
  authors: FoundAuthors,
): ReturnType<ListItems['render']> {
  const longJson = publishedJsonOf(m);
  if (!longJson) return toJson(publishedManuscript(m, journal, authors));
  const pieces: (string | Uint8Array)[] = [];
  let text = '';
  MANUSCRIPT_FIELDS.forEach((field, k) => {
    let json: string | Uint8Array | undefined;
    if ('packed' in field) {
      json = longJson(field.packed);
      if (json === undefined && field.otherwise) json = toJson(field.otherwise(journal));
    } else {
      const value = field.value(m, journal, authors);
      if (value !== undefined) json = toJson(value);
    }
    if (json === undefined) return;
    text += (text === '' && pieces.length === 0 ? '{' : ',') + FIELD_KEYS[k]!;
    if (typeof json === 'string') {
      text += json;
      return;
    }
    pieces.push(text, json);
    text = '';
  });
  pieces.push(`${text === '' && pieces.length === 0 ? '{' : text}}`);
  return pieces;
}
