/**
 * Renderer: the three lists of the contract (SPEC section 4), as bare JSON arrays.
 * Pure: records in, files out. Each record is serialized on its own and streamed, so the build
 * never holds a second, serialized copy of a whole list in memory; each list is also given as items
 * (list-items.ts), so that a build after an edit renders only the items that changed.
 */
import type { AuthorRecord, ManuscriptRecord, VolumeRecord } from './load.ts';
import type { OutputFile } from '../shared/output-file.ts';
import { listFile } from '../shared/contract.ts';
import { renderedChunks, type ListItems } from './list-items.ts';
import type { ResolvedJournal } from './resolve.ts';
import type { AuthorRef, JournalInput, MediaRef } from './schema.ts';


/**
 * JSON as Django REST Framework's JSONRenderer writes it: compact separators, UTF-8 characters
 * unescaped, and U+2028/U+2029 escaped (DRF does so to keep the output a JavaScript subset).
 */
export function toJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u2028\u2029]/g, (c) => (c === '\u2028' ? '\\u2028' : '\\u2029'));
}

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

/** SPEC 2.3, in the contract's key order. */
export function publishedManuscript(m: ManuscriptRecord, journal: JournalInput, authorNames: ReadonlyMap<string, string>) {
  return {
    id: m.id,
    citation_language: m.citation_language ?? journal.citation_language,
    udc: m.udc ?? '',
    abstract: m.abstract,
    citation_issn: m.citation_issn ?? journal.citation_issn,
    citation_title: m.citation_title,
    citation_date: m.citation_date,
    citation_volume: m.citation_volume,
    keywords: m.keywords,
    document: mediaUrl(m.document, journal),
    authors: m.authors.map((ref) => publishedAuthorName(ref, authorNames)),
    section: m.section,
  };
}

/** SPEC 2.3: `"<name> <surname>"` of the referenced record, or the string kept as published (issue 3). */
export function publishedAuthorName(ref: AuthorRef, authorNames: ReadonlyMap<string, string>): string {
  return typeof ref === 'string' ? authorNames.get(ref) ?? ref : ref.as_published;
}

/** A local file is published under the media URL at the same path it has below `content/media/`. */
export function mediaUrl(ref: MediaRef, journal: JournalInput): string {
  return ref.kind === 'remote' ? ref.url : `${journal.media_url}/media/${ref.path}`;
}

export function renderApi(site: ResolvedJournal): OutputFile[] {
  const { journal, authorNames } = site;
  return [
    jsonArray(listFile('authors'), site.authors, publishedAuthor),
    jsonArray(listFile('volumes'), site.volumes, (v) => publishedVolume(v, journal)),
    jsonArray(listFile('manuscripts'), site.manuscripts, (m) => publishedManuscript(m, journal, authorNames)),
  ];
}

function jsonArray<T>(path: string, records: readonly T[], publish: (record: T) => unknown): OutputFile {
  const items: ListItems = { count: records.length, render: (i) => toJson(publish(records[i]!)) };
  return { path, precompress: true, items, body: () => renderedChunks(items) };
}
