/**
 * Stage 4: checks that need more than one record (unique ids, references, one ISSN) and the
 * documented order of each list. Runs after every file is loaded, as Astro's content layer does.
 */
import { nearest, type Problem, type ProblemCode } from './problems.ts';
import type { JournalInput } from './schema.ts';
import { positionOf, type AuthorRecord, type ManuscriptRecord, type Origin, type Records, type VolumeRecord } from './load.ts';

export interface ResolvedJournal {
  journal: JournalInput;
  /** Each list in its published order (docs/content-model.md, "Order"). */
  authors: AuthorRecord[];
  volumes: VolumeRecord[];
  manuscripts: ManuscriptRecord[];
  /** Author key → the published `"<name> <surname>"` (SPEC 2.3). */
  authorNames: Map<string, string>;
}

/** Above this many unknown references, suggestions are skipped: each one scans every key. */
const SUGGESTION_LIMIT = 50;

/**
 * The checks. `check` runs only these, on records that may come from the check index
 * (check-index.ts): they read an author's key, a volume, and a manuscript's id, citation_volume,
 * authors and section, nothing else. A build then orders the lists (orderJournal).
 */
export function checkReferences(journal: JournalInput, records: Records): Problem[] {
  const problems: Problem[] = [];
  const report = (origin: Origin, field: string, code: ProblemCode, message: string, expected: string) =>
    problems.push({ code, file: origin.file, ...positionOf(origin, field), field, message, expected });

  const volumesById = uniqueBy(records.volumes, (v) => v.id, (v, first) =>
    report(v.origin, 'id', 'ref/duplicate-id', `${v.id} is also the id of ${first.origin.file}`, 'an id no other volume has'));
  uniqueBy(records.volumes, (v) => v.citation_journal_title, (v, first) =>
    report(v.origin, 'citation_journal_title', 'ref/duplicate-label', `"${v.citation_journal_title}" is also the label of ${first.origin.file}`, 'a label no other volume has'));
  uniqueBy(records.manuscripts, (m) => m.id, (m, first) =>
    report(m.origin, 'id', 'ref/duplicate-id', `${m.id} is also the id of ${first.origin.file}`, 'an id no other manuscript has'));

  for (const volume of records.volumes) {
    // SPEC 2.2: the ISSN is the same in every volume: the journal's.
    if (volume.citation_issn !== undefined && volume.citation_issn !== journal.citation_issn) {
      report(volume.origin, 'citation_issn', 'ref/issn-mismatch', `"${volume.citation_issn}" differs from the journal's "${journal.citation_issn}"`, 'the ISSN in content/journal.yaml, or no citation_issn at all');
    }
    if (Number(volume.last_page) < Number(volume.first_page)) {
      report(volume.origin, 'last_page', 'schema/format', `${volume.last_page} is before first_page ${volume.first_page}`, 'a last page at or after the first');
    }
  }

  // Records that failed validation still exist: naming them is not a second mistake.
  const authorKeys = new Set([...records.authors.map((a) => a.origin.key), ...records.invalid.filter((r) => r.collection === 'authors').map((r) => r.origin.key)]);
  const volumeIds = new Set([...volumesById.keys(), ...records.invalid.flatMap((r) => (r.collection === 'volumes' && r.id !== undefined ? [r.id] : []))]);
  const sections = journal.sections ? new Set(journal.sections) : undefined;
  let suggestions = 0;
  const suggest = (wanted: string, known: Iterable<string>) =>
    suggestions++ < SUGGESTION_LIMIT ? nearest(wanted, known) : undefined;

  const invalidManuscripts = records.invalid.filter((r) => r.collection === 'manuscripts' && r.references);
  for (const manuscript of [...records.manuscripts, ...invalidManuscripts.map((r) => ({ origin: r.origin, ...r.references }))]) {
    if (manuscript.citation_volume !== undefined && !volumeIds.has(manuscript.citation_volume)) {
      const ids = [...volumeIds].sort((a, b) => a - b);
      report(manuscript.origin, 'citation_volume', 'ref/unknown-volume', `no volume has the id ${manuscript.citation_volume}`,
        ids.length ? `one of the volume ids: ${abbreviate(ids.map(String))}` : 'a volume in content/volumes/');
    }
    manuscript.authors?.forEach((key, i) => {
      // An author kept as published (issue 3) names no record.
      if (typeof key !== 'string' || authorKeys.has(key)) return;
      const guess = suggest(key, authorKeys);
      report(manuscript.origin, `authors[${i}]`, 'ref/unknown-author', `no author has the key "${key}"${guess ? `; did you mean "${guess}"?` : ''}`,
        'the file name of an author in content/authors/, without extension');
    });
    if (sections && manuscript.section !== undefined && !sections.has(manuscript.section)) {
      const guess = suggest(manuscript.section, sections);
      report(manuscript.origin, 'section', 'ref/unknown-section', `"${manuscript.section}" is not a section of the journal${guess ? `; did you mean "${guess}"?` : ''}`,
        `one of the sections listed in content/journal.yaml: ${abbreviate([...sections])}`);
    }
  }

  return problems;
}

/** Each list in its published order (docs/content-model.md, "Order"), and the authors' published names. */
export function orderJournal(journal: JournalInput, records: Records): ResolvedJournal {
  const authorNames = new Map<string, string>();
  for (const author of records.authors) authorNames.set(author.origin.key, `${author.name} ${author.surname}`);
  return {
    journal,
    authors: sortByOrder(records.authors, (a, b) => compareText(a.institution, b.institution) || compareText(a.origin.key, b.origin.key)),
    volumes: [...records.volumes].sort((a, b) => a.id - b.id),
    manuscripts: sortByOrder(records.manuscripts, (a, b) => a.citation_volume - b.citation_volume || a.id - b.id),
    authorNames,
  };
}

/**
 * Records that set `order` come first, ascending; the rest follow in the list's default order.
 * Text compares by UTF-16 code units, never by locale, so the order is the same on every machine.
 */
function sortByOrder<T extends { order?: number | undefined; origin: Origin }>(records: readonly T[], byDefault: (a: T, b: T) => number): T[] {
  return [...records].sort((a, b) => {
    if (a.order !== undefined || b.order !== undefined) {
      if (a.order === undefined) return 1;
      if (b.order === undefined) return -1;
      if (a.order !== b.order) return a.order - b.order;
    }
    return byDefault(a, b) || compareText(a.origin.key, b.origin.key);
  });
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function uniqueBy<T, K>(items: readonly T[], keyOf: (item: T) => K, onDuplicate: (item: T, first: T) => void): Map<K, T> {
  const seen = new Map<K, T>();
  for (const item of items) {
    const key = keyOf(item);
    const first = seen.get(key);
    if (first) onDuplicate(item, first);
    else seen.set(key, item);
  }
  return seen;
}

function abbreviate(values: string[], max = 10): string {
  return values.length <= max ? values.join(', ') : `${values.slice(0, max).join(', ')}, ... (${values.length} in all)`;
}

