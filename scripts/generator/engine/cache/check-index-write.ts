/** Writing the check index (check-index.ts): each collection's files, as columns or kept whole. */

import { writeFrames, type CacheWarning, type RecordEntry } from './cache.ts';
import { type Discovery } from '../../stages/discover.ts';

import { type AuthorRecord, type ManuscriptRecord } from '../../model/records.ts';

import { COLLECTION_NAMES, type CollectionName } from '../../model/schema.ts';
import {
  AS_PUBLISHED_ROW,
  HASH_LENGTH,
  INDEX_FILE,
  UNKNOWN_AUTHOR_ROW,
  sharedColumn,
  type IndexFrame,
} from './check-index.ts';

/** Writes the index of `entries` (the load stage's, in discovery order; whole records or skeletons). */
export function writeCheckIndex(
  dir: string,
  fingerprint: string,
  found: Discovery,
  entries: readonly RecordEntry[],
): CacheWarning {
  const frames: IndexFrame[] = [];
  const sources = found.files;
  const authors = sources.range('authors');
  const authorRow = new Map<string, number>();
  for (let i = authors.start; i < authors.end; i++) authorRow.set(sources.key(i), i - authors.start);
  for (const collection of COLLECTION_NAMES) {
    const { start, end, filePrefix, names } = sources.range(collection);
    const fileNames = found.listed[collection] ?? names.joined;
    frames.push({ ...indexFrame(collection, entries.slice(start, end), authorRow), folder: filePrefix, fileNames });
  }
  return writeFrames(dir, INDEX_FILE, fingerprint, frames);
}

function indexFrame(
  collection: CollectionName,
  entries: readonly RecordEntry[],
  authorRow: ReadonlyMap<string, number>,
): Omit<IndexFrame, 'folder' | 'fileNames'> {
  const hashes: string[] = [];
  const stamps = new Float64Array(entries.length * 3).fill(Number.NaN);
  const isManuscripts = collection === 'manuscripts';
  const isAuthors = collection === 'authors';
  const numbers = new Float64Array(isManuscripts ? entries.length * 2 : 0).fill(Number.NaN);
  const orders = new Float64Array(entries.length).fill(Number.NaN);
  // A collection's columns have a row per file, empty where the file's form has no such field (made
  // at its length and filled in place: 250,000 rows at 100,000 manuscripts); another
  // collection's columns have none (megabytes of the index that every check and build reads).
  const column = (has: boolean) => (has ? new Array<string>(entries.length).fill('') : []);
  const [sections, documents, authors, titles, dates, dois, firstPages, lastPages, licenses, volumeKeys] = [
    column(isManuscripts),
    column(isManuscripts),
    column(isManuscripts),
    column(isManuscripts),
    column(isManuscripts),
    column(isManuscripts),
    column(isManuscripts),
    column(isManuscripts),
    column(isManuscripts),
    column(isManuscripts),
  ];
  const [names, surnames, institutions, orcids] = [
    column(isAuthors),
    column(isAuthors),
    column(isAuthors),
    column(isAuthors),
  ];
  const modified = column(isManuscripts || isAuthors);
  const whole: IndexFrame['whole'] = [];
  const authorRows: number[] = [];
  const authorStarts = new Uint32Array(isManuscripts ? entries.length + 1 : 0);
  const noHash = ' '.repeat(HASH_LENGTH);
  entries.forEach((entry, i) => {
    const stamp = entry.stamp;
    if (stamp) {
      stamps[i * 3] = stamp.size;
      stamps[i * 3 + 1] = stamp.mtimeMs;
      stamps[i * 3 + 2] = stamp.ino;
    }
    const record = entry.loaded.record;
    const inColumns =
      entry.hash.length === HASH_LENGTH &&
      record &&
      entry.loaded.problems.length === 0 &&
      !entry.loaded.invalid &&
      ((collection === 'authors' && authorFitsColumns(record as AuthorRecord)) ||
        (collection === 'manuscripts' && fitsColumns(record as ManuscriptRecord)));
    hashes.push(inColumns ? entry.hash : noHash);
    if (!inColumns) {
      whole.push([i, entry.hash, entry.loaded]);
    } else if (collection === 'manuscripts') {
      const manuscript = record as ManuscriptRecord;
      numbers[i * 2] = manuscript.id;
      // As the file writes it: a volume named by key is resolved at every build (volume-references.ts).
      numbers[i * 2 + 1] = manuscript.volume === undefined ? manuscript.citation_volume : Number.NaN;
      volumeKeys[i] = manuscript.volume ?? '';
      if (manuscript.order !== undefined) orders[i] = manuscript.order;
      sections[i] = manuscript.section;
      documents[i] = (manuscript.document as { path: string }).path;
      // The authors as rows of the authors' frame; as text only those with no row there (a key that
      // no author file had, an author kept as published): the keys are the authors' frame's file
      // names otherwise (megabytes less to read).
      const texts: string[] = [];
      for (const ref of manuscript.authors) {
        const row = typeof ref === 'string' ? authorRow.get(ref) : AS_PUBLISHED_ROW;
        authorRows.push(row ?? UNKNOWN_AUTHOR_ROW);
        if (row === undefined || row === AS_PUBLISHED_ROW) texts.push(typeof ref === 'string' ? ref : ref.as_published);
      }
      authors[i] = texts.join('\t');
      titles[i] = manuscript.citation_title;
      dates[i] = manuscript.citation_date;
      dois[i] = manuscript.doi ?? '';
      firstPages[i] = manuscript.first_page ?? '';
      lastPages[i] = manuscript.last_page ?? '';
      licenses[i] = manuscript.license ?? '';
      modified[i] = manuscript.modified ?? '';
    } else {
      const author = record as AuthorRecord;
      if (author.order !== undefined) orders[i] = author.order;
      names[i] = author.name;
      surnames[i] = author.surname;
      institutions[i] = author.institution;
      orcids[i] = author.orcid ?? '';
      modified[i] = author.modified ?? '';
    }
    if (isManuscripts) authorStarts[i + 1] = authorRows.length;
  });
  const joined = (column: string[]) => column.join('\n');
  return {
    collection,
    stamps,
    hashes: hashes.join(''),
    numbers,
    sections: sharedColumn(sections),
    documents: joined(documents),
    authors: joined(authors),
    authorRows: Int32Array.from(authorRows),
    authorStarts,
    orders,
    names: sharedColumn(names),
    surnames: sharedColumn(surnames),
    institutions: sharedColumn(institutions),
    titles: joined(titles),
    dates: sharedColumn(dates),
    dois: joined(dois),
    firstPages: joined(firstPages),
    lastPages: joined(lastPages),
    licenses: sharedColumn(licenses),
    volumeKeys: sharedColumn(volumeKeys),
    orcids: joined(orcids),
    modified: sharedColumn(modified),
    whole,
  };
}

/**
 * Whether the columns can hold a manuscript exactly: a local PDF, one-line texts, and authors kept
 * as published without a tab (which joins a row's authors).
 */
function fitsColumns(manuscript: ManuscriptRecord): boolean {
  return (
    manuscript.document.kind === 'local' &&
    !/[\n\t]/.test(manuscript.document.path) &&
    !/\n/.test(manuscript.section) &&
    !/\n/.test(manuscript.citation_title) &&
    !/\n/.test(manuscript.citation_date) &&
    // A key and the id beside it are kept whole: few files write both.
    manuscript.stated_volume === undefined &&
    manuscript.authors.every((ref) => typeof ref === 'string' || !/[\n\t]/.test(ref.as_published))
  );
}

function authorFitsColumns(author: AuthorRecord): boolean {
  return !/\n/.test(author.name) && !/\n/.test(author.surname) && !/\n/.test(author.institution);
}
