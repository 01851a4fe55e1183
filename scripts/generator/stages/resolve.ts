/**
 * Stage 4: checks that need more than one record (unique ids, in repeated-ids.ts; references; one ISSN) and the
 * documented order of each list. Runs after every file is loaded, as Astro's content layer does.
 */
import { nearest, type Problem } from '../model/problems.ts';
import type { AuthorRef, JournalInput, MediaRef } from '../model/schema.ts';
import type { FoundAuthors } from '../model/records.ts';
import type { Site } from '../model/site.ts';
import { newestPositions } from '../model/newest.ts';
import { compareText } from '../../shared/compare-text.ts';
import { type InvalidRecord, type Records } from './load.ts';
import { resolveVolumeKeys, volumeChecker, type Report } from './volume-references.ts';
import { reportRepeatedIds } from './repeated-ids.ts';
import {
  positionOf,
  type AuthorRecord,
  type ManuscriptRecord,
  type Origin,
  type VolumeRecord,
} from '../model/records.ts';

export interface ResolvedJournal {
  journal: JournalInput;
  /** Each list in its published order (docs/content-model.md, "Order"). */
  authors: AuthorRecord[];
  volumes: VolumeRecord[];
  manuscripts: ManuscriptRecord[];
  /**
   * Each manuscript's authors (in `manuscripts`' order, each in its own order): the author record
   * its key names, or undefined for a name kept as published and for a key no author has (which
   * the reference checks report). Found once: looked up by key at each use (the lists, the pages,
   * the keys), 250,000 references in a map of 150,000 cost a cold build about a second at 100,000
   * manuscripts.
   */
  manuscriptAuthors: readonly FoundAuthors[];
}

/** `manuscripts`' authors as ResolvedJournal holds them. */
export function resolveAuthors(
  authors: readonly AuthorRecord[],
  manuscripts: readonly ManuscriptRecord[],
): (AuthorRecord | undefined)[][] {
  const byKey = new Map<string, AuthorRecord>();
  for (const author of authors) byKey.set(author.origin.key, author);
  return manuscripts.map((m) => m.authors.map((ref) => (typeof ref === 'string' ? byKey.get(ref) : undefined)));
}

/** Above this many unknown references, suggestions are skipped: each one scans every key. */
const SUGGESTION_LIMIT = 50;

/**
 * What the checks across records read (checkReferences, and startMediaCheck in media.ts). A build makes
 * it from its records (referencesOf); `check` reads the references of the manuscripts that did not
 * change from the check index's columns, without making their records (at 100,000
 * manuscripts, the 250,000 records a check held to its end were most of its garbage collection).
 */
export interface CheckedRecords {
  /** The keys of the author files that loaded, valid ones first, then invalid ones: names that exist (for suggestions: made when asked). */
  readonly authorKeys: readonly string[];
  /** Whether an author file of that key loaded, valid or invalid. */
  hasAuthor(key: string): boolean;
  /** How many authors are valid. */
  authors: number;
  volumes: readonly VolumeRecord[];
  /** The valid manuscripts, in discovery order. */
  manuscripts: ManuscriptReferences;
  /** Files that failed validation, as far as other records can still refer to them or check theirs. */
  invalid: readonly InvalidRecord[];
  /**
   * The files new or edited since the build cache was written, when there was one: of two records
   * sharing an id, the one in this set is the new one (repeated-ids.ts).
   */
  changedFiles?: ReadonlySet<string>;
}

/** What the checks read of the valid manuscripts, by position. */
export interface ManuscriptReferences {
  readonly length: number;
  /** Made when asked, for a check asks only for the manuscripts it reports. */
  origin(i: number): Origin;
  id(i: number): number;
  /** The `citation_volume` its file writes; NaN when it writes none (it names its volume by `volume`). */
  volume(i: number): number;
  /** The key its file writes in `volume`, if any (volume-references.ts). */
  volumeKey(i: number): string | undefined;
  date(i: number): string;
  authors(i: number): readonly AuthorRef[];
  section(i: number): string;
  document(i: number): MediaRef;
  /**
   * True when every author manuscript `i` names is known, decided without its keys (check-index.ts,
   * authorRows: 250,000 keys looked up after every edit at 100,000 manuscripts); otherwise its keys decide.
   */
  allAuthorsKnown?(i: number): boolean;
}

/** A build's records as the checks read them. */
export function referencesOf(records: Records): CheckedRecords {
  const manuscripts = records.manuscripts;
  const authorKeys = [
    ...records.authors.map((a) => a.origin.key),
    ...records.invalid.filter((r) => r.collection === 'authors').map((r) => r.origin.key),
  ];
  let known: Set<string> | undefined;
  return {
    authorKeys,
    hasAuthor: (key) => (known ??= new Set(authorKeys)).has(key),
    authors: records.authors.length,
    volumes: records.volumes,
    manuscripts: {
      length: manuscripts.length,
      origin: (i) => manuscripts[i]!.origin,
      id: (i) => manuscripts[i]!.id,
      volume: (i) => statedVolume(manuscripts[i]!),
      volumeKey: (i) => manuscripts[i]!.volume,
      date: (i) => manuscripts[i]!.citation_date,
      authors: (i) => manuscripts[i]!.authors,
      section: (i) => manuscripts[i]!.section,
      document: (i) => manuscripts[i]!.document,
    },
    invalid: records.invalid,
  };
}

/** The `citation_volume` a manuscript's file writes (records.ts): NaN when it names its volume by key alone. */
export function statedVolume(manuscript: ManuscriptRecord): number {
  return manuscript.volume === undefined ? manuscript.citation_volume : (manuscript.stated_volume ?? Number.NaN);
}

/**
 * A build's references, told which manuscripts' authors were all found when the journal was ordered
 * (`site`, made of the same `records`): their keys are not looked up again (250,000 keys in
 * a set of 150,000, in every build at 100,000 manuscripts). The others' keys decide, as in check.
 */
export function withAuthorsFound(checked: CheckedRecords, records: Records, site: ResolvedJournal): CheckedRecords {
  const unfound = new Set<ManuscriptRecord>();
  site.manuscripts.forEach((m, i) => {
    const found = site.manuscriptAuthors[i]!;
    for (let k = 0; k < m.authors.length; k++) {
      if (typeof m.authors[k] === 'string' && found[k] === undefined) {
        unfound.add(m);
        return;
      }
    }
  });
  return {
    ...checked,
    manuscripts: { ...checked.manuscripts, allAuthorsKnown: (i) => !unfound.has(records.manuscripts[i]!) },
  };
}

/**
 * The checks. `check` runs only these, on references that may come from the check index
 * (check-index.ts). A build orders the lists first (orderJournal), so that they can begin.
 */
export function checkReferences(journal: JournalInput, records: CheckedRecords): Problem[] {
  const problems: Problem[] = [];
  const report: Report = (origin, field, code, message, expected, severity) =>
    problems.push({
      code,
      file: origin.file,
      ...positionOf(origin, field),
      field,
      message,
      expected,
      ...(severity ? { severity } : {}),
    });

  // A duplicate id is reported at every file that has it, naming the others, with the next free id
  // for the one that is new (repeated-ids.ts).
  const volumes = records.volumes;
  const volumeIds = {
    length: volumes.length,
    id: (i: number) => volumes[i]!.id,
    origin: (i: number) => volumes[i]!.origin,
  };
  reportRepeatedIds('volume', volumeIds, records.invalid, report, records.changedFiles);
  uniqueBy(
    records.volumes,
    (v) => v.citation_journal_title,
    (v, first) =>
      report(
        v.origin,
        'citation_journal_title',
        'ref/duplicate-label',
        `"${v.citation_journal_title}" is also the label of ${first.origin.file}`,
        'a label no other volume has',
      ),
  );
  const manuscripts = records.manuscripts;
  reportRepeatedIds('manuscript', manuscripts, records.invalid, report, records.changedFiles);

  for (const volume of records.volumes) {
    // SPEC 2.2: the ISSN is the same in every volume: the journal's.
    if (volume.citation_issn !== undefined && volume.citation_issn !== journal.citation_issn) {
      report(
        volume.origin,
        'citation_issn',
        'ref/issn-mismatch',
        `"${volume.citation_issn}" differs from the journal's "${journal.citation_issn}"`,
        'the ISSN in content/journal.yaml, or no citation_issn at all',
      );
    }
    if (Number(volume.last_page) < Number(volume.first_page)) {
      report(
        volume.origin,
        'last_page',
        'schema/format',
        `${volume.last_page} is before first_page ${volume.first_page}`,
        'a last page at or after the first',
      );
    }
  }

  // Records that failed validation still exist: naming them is not a second mistake. Looked up only
  // when a manuscript's authors are not known otherwise (allAuthorsKnown): after an edit, a few keys.
  const sections = journal.sections ? new Set(journal.sections) : undefined;
  let suggestions = 0;
  const suggest = (wanted: string, known: Iterable<string>) =>
    suggestions++ < SUGGESTION_LIMIT ? nearest(wanted, known) : undefined;
  const checkVolume = volumeChecker(
    records.volumes,
    records.invalid.filter((r) => r.collection === 'volumes'),
    report,
    suggest,
    abbreviate,
  );

  // The origin is asked for only when there is something to report.
  const checkManuscript = (
    origin: () => Origin,
    volumeKey: string | undefined,
    stated: number | undefined,
    date: string | undefined,
    authors: readonly AuthorRef[] | undefined,
    section: string | undefined,
  ) => {
    checkVolume.check(origin, volumeKey, stated, date);
    authors?.forEach((key, i) => {
      // An author kept as published names no record.
      if (typeof key !== 'string' || records.hasAuthor(key)) return;
      const guess = suggest(key, records.authorKeys);
      report(
        origin(),
        `authors[${i}]`,
        'ref/unknown-author',
        `no author has the key "${key}"${guess ? `; did you mean "${guess}"?` : ''}`,
        'the file name of an author in content/authors/, without extension',
      );
    });
    if (sections && section !== undefined && !sections.has(section)) {
      // The same letters encoded otherwise (an accent typed as a letter and a combining mark, where
      // the list has the accented letter): both look the same, so the message shows the code points.
      const normal = section.normalize('NFC');
      const same = [...sections].find((listed) => listed.normalize('NFC') === normal);
      if (same !== undefined) {
        report(
          origin(),
          'section',
          'ref/unknown-section',
          `"${section}" is written "${codePoints(section)}": it looks like the section "${same}" ("${codePoints(same)}") but its letters are encoded differently`,
          'the section as content/journal.yaml lists it: type it again, or copy it from there',
        );
        return;
      }
      const guess = suggest(section, sections);
      report(
        origin(),
        'section',
        'ref/unknown-section',
        `"${section}" is not a section of the journal${guess ? `; did you mean "${guess}"?` : ''}`,
        `one of the sections listed in content/journal.yaml: ${abbreviate([...sections])}`,
      );
    }
  };
  for (let i = 0; i < manuscripts.length; i++) {
    const authors = manuscripts.allAuthorsKnown?.(i) ? undefined : manuscripts.authors(i);
    checkManuscript(
      () => manuscripts.origin(i),
      manuscripts.volumeKey(i),
      manuscripts.volume(i),
      manuscripts.date(i),
      authors,
      manuscripts.section(i),
    );
  }
  for (const invalid of records.invalid) {
    if (invalid.collection !== 'manuscripts' || !invalid.references) continue;
    const { volume: key, citation_volume: stated, authors, section } = invalid.references;
    checkManuscript(() => invalid.origin, key, stated, undefined, authors, section);
  }

  checkVolume.finish();
  return problems;
}

/** Each list in its published order (docs/content-model.md, "Order"), and the manuscripts' authors found. */
export function orderJournal(journal: JournalInput, records: Records): ResolvedJournal {
  resolveVolumeKeys(records.volumes, records.manuscripts);
  const manuscripts = sortByOrder(records.manuscripts, (a, b) => a.citation_volume - b.citation_volume || a.id - b.id);
  return {
    journal,
    authors: orderAuthors(records.authors),
    volumes: sortByOrder(records.volumes, (a, b) => a.id - b.id),
    manuscripts,
    manuscriptAuthors: resolveAuthors(records.authors, manuscripts),
  };
}

/**
 * Records that set `order` come first, ascending; the rest follow in the list's default order.
 * Text compares by UTF-16 code units, never by locale, so the order is the same on every machine.
 */
function sortByOrder<T extends { order?: number | undefined; origin: Origin }>(
  records: readonly T[],
  byDefault: (a: T, b: T) => number,
): T[] {
  return [...records].sort((a, b) => {
    if (a.order !== undefined || b.order !== undefined) {
      if (a.order === undefined) return 1;
      if (b.order === undefined) return -1;
      if (a.order !== b.order) return a.order - b.order;
    }
    return byDefault(a, b) || compareText(a.origin.key, b.origin.key);
  });
}

/**
 * The authors in their published order: those with an `order` first (sortByOrder), then the rest by
 * institution, then key. The rest (nearly always all of them) are sorted by one number each, their
 * institution's rank and their key's, with no comparison of texts per step: at 150,000 authors, 2.6
 * million calls of a comparison took a build 0.15 s. The keys are ranked by a sort of
 * their own, quick on the order they come in: sorted by file name, nearly the keys' order.
 */
function orderAuthors(authors: readonly AuthorRecord[]): AuthorRecord[] {
  const byDefault = (a: AuthorRecord, b: AuthorRecord) =>
    compareText(a.institution, b.institution) || compareText(a.origin.key, b.origin.key);
  const ordered = authors.filter((author) => author.order !== undefined);
  const rest = ordered.length === 0 ? authors : authors.filter((author) => author.order === undefined);
  const count = rest.length;
  const byKey = Array.from({ length: count }, (_, i) => i).sort(
    (a, b) => compareText(rest[a]!.origin.key, rest[b]!.origin.key) || a - b,
  );
  const keyRank = new Float64Array(count);
  byKey.forEach((i, rank) => (keyRank[i] = rank));
  const institutionRank = new Map<string, number>();
  for (const author of rest) institutionRank.set(author.institution, 0);
  [...institutionRank.keys()].sort(compareText).forEach((institution, rank) => institutionRank.set(institution, rank));
  // Exact in a double: fewer institutions than authors, so every number is below count².
  const places = new Float64Array(count);
  for (let i = 0; i < count; i++) places[i] = institutionRank.get(rest[i]!.institution)! * count + keyRank[i]!;
  places.sort();
  const sorted = sortByOrder(ordered, byDefault);
  for (const place of places) sorted.push(rest[byKey[place % count]!]!);
  return sorted;
}

function uniqueBy<T, K>(
  items: readonly T[],
  keyOf: (item: T) => K,
  onDuplicate: (item: T, first: T) => void,
): Map<K, T> {
  const seen = new Map<K, T>();
  for (const item of items) {
    const key = keyOf(item);
    const first = seen.get(key);
    if (first) onDuplicate(item, first);
    else seen.set(key, item);
  }
  return seen;
}

/** A text with every character outside ASCII written as its `\\u` escape (UTF-16 units, as JSON writes them). */
function codePoints(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function abbreviate(values: string[], max = 10): string {
  return values.length <= max ? values.join(', ') : `${values.slice(0, max).join(', ')}, ... (${values.length} in all)`;
}

/** The site renderers read, over a resolved journal as it is: the plain path, with nothing noted. */
export function siteOf(resolved: ResolvedJournal): Site {
  const volumes = new Map(resolved.volumes.map((v) => [v.id, v]));
  const authorsAt = new Map(resolved.manuscripts.map((m, i) => [m, resolved.manuscriptAuthors[i]!]));
  const members = new Map<number, ManuscriptRecord[]>();
  for (const m of resolved.manuscripts) {
    const list = members.get(m.citation_volume);
    if (list) list.push(m);
    else members.set(m.citation_volume, [m]);
  }
  return {
    journal: resolved.journal,
    authors: resolved.authors,
    volumes: resolved.volumes,
    manuscripts: resolved.manuscripts,
    volume: (id) => volumes.get(id),
    authorsOf: (manuscript) => authorsAt.get(manuscript) ?? resolveAuthors(resolved.authors, [manuscript])[0]!,
    manuscriptsIn: (volume) => members.get(volume.id) ?? [],
    newestManuscripts: (count) => newestPositions(resolved.manuscripts, count).map((i) => resolved.manuscripts[i]!),
  };
}
