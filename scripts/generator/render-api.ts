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
import { toJson } from './json-text.ts';
import { packedSourceOf, packedValueJson } from './packed-manuscript.ts';


export { toJson };

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
    list(listFile('manuscripts'), site.manuscripts, (m) => manuscriptItem(m, journal, authorNames)),
  ];
}

function jsonArray<T>(path: string, records: readonly T[], publish: (record: T) => unknown): OutputFile {
  return list(path, records, (record) => toJson(publish(record)));
}

function list<T>(path: string, records: readonly T[], render: (record: T) => ReturnType<ListItems['render']>): OutputFile {
  const items: ListItems = { count: records.length, render: (i) => render(records[i]!) };
  return { path, precompress: true, items, body: () => renderedChunks(items) };
}

/**
 * A manuscript's item, toJson(publishedManuscript(...)) byte for byte, in pieces: its long fields
 * (packed-manuscript.ts) are taken as the UTF-8 JSON the load workers wrote, not parsed, serialized
 * and encoded again (issue 4: the abstracts are most of the 216 MB list at 100,000 manuscripts; this
 * cost the main thread about 3 s of a cold build, and their garbage). Keys in publishedManuscript's
 * order; test/list-items.test.ts holds the two to the same bytes.
 */
function manuscriptItem(m: ManuscriptRecord, journal: JournalInput, authorNames: ReadonlyMap<string, string>): ReturnType<ListItems['render']> {
  const packed = packedSourceOf(m);
  const abstract = packed instanceof Uint8Array ? packedValueJson(packed, 'abstract') : undefined;
  const keywords = packed instanceof Uint8Array ? packedValueJson(packed, 'keywords') : undefined;
  if (!(packed instanceof Uint8Array) || !abstract || !keywords) return toJson(publishedManuscript(m, journal, authorNames));
  return [
    `{"id":${toJson(m.id)},"citation_language":`, packedValueJson(packed, 'citation_language') ?? toJson(journal.citation_language),
    ',"udc":', packedValueJson(packed, 'udc') ?? '""',
    ',"abstract":', abstract,
    ',"citation_issn":', packedValueJson(packed, 'citation_issn') ?? toJson(journal.citation_issn),
    `,"citation_title":${toJson(m.citation_title)},"citation_date":${toJson(m.citation_date)},"citation_volume":${toJson(m.citation_volume)},"keywords":`, keywords,
    `,"document":${toJson(mediaUrl(m.document, journal))},"authors":${toJson(m.authors.map((ref) => publishedAuthorName(ref, authorNames)))},"section":${toJson(m.section)}}`,
  ];
}
