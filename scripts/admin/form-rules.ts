/**
 * What the web editor's form decides for itself, as plain functions (the browser runs them through
 * editor-script.ts; the tests call them directly): a new record's file name, a new record's id,
 * the keywords typed in one box, and which volume a typed name means.
 */
import { isCanonicalRoman, numberToRoman, romanToNumber, VOLUME_LABEL } from '../generator/model/formats.ts';
import { slugOf } from '../new/slug.ts';

/** The name of the editor's record format (record-file.ts), which the configuration's collections use. */
export const RECORD_FORMAT = 'record-yaml';
/** The editor's own widgets (editor-browser.ts), which the configuration names. */
export const ID_WIDGET = 'record-id';
export const VOLUME_WIDGET = 'volume-choice';
/** Where the CMS takes a new record's file name from (the collections' `slug`); never written (record-file.ts). */
export const FILE_NAME = '__file_name';

export type Collection = 'authors' | 'volumes' | 'manuscripts';

/**
 * A new record's file name without extension, as `npm run new` makes it (new/slug.ts: Cyrillic
 * and Greek transliterated, accents dropped): authors `name-surname`, the author's key; volumes
 * their label (`volume-vi`); manuscripts their title. A name with no letter the transliteration
 * knows falls back to the collection and the id, which the check accepts as a key too.
 */
export function fileNameOf(collection: Collection, data: Record<string, unknown>): string {
  const text = (...fields: string[]) =>
    fields
      .map((field) => data[field])
      .filter((value) => typeof value === 'string' || typeof value === 'number')
      .join(' ');
  const name =
    collection === 'authors'
      ? slugOf(text('name', 'surname'))
      : collection === 'volumes'
        ? slugOf(text('citation_journal_title'))
        : slugOf(text('citation_title'));
  if (name) return name;
  const singular = { authors: 'author', volumes: 'volume', manuscripts: 'manuscript' }[collection];
  return typeof data['id'] === 'number' ? `${singular}-${data['id']}` : singular;
}

/** The id a new record is offered: one past the highest, as `npm run new` and the check's hint give. */
export function nextFreeId(ids: readonly number[]): number {
  return Math.max(0, ...ids.filter(Number.isInteger)) + 1;
}

/**
 * Keywords as typed in the form's one box: the box splits at commas; a `;` (how older issues
 * separated them) splits too, since the build takes no keyword with one in it.
 */
export function splitKeywords(items: readonly string[]): string[] {
  return items
    .flatMap((item) => item.split(/[;,]/))
    .map((item) => item.trim())
    .filter(Boolean);
}

/** The text the volume list is searched with: a number typed (`6`) as the numeral the labels hold (`VI`). */
export function volumeSearchTerm(term: string): string {
  const typed = term.trim();
  return /^\d{1,4}$/.test(typed) && Number(typed) > 0 && Number(typed) < 4000 ? numberToRoman(Number(typed)) : term;
}

/** One volume as the search lists it: its file name and its record. */
export interface VolumeHit {
  slug: string;
  data: Record<string, unknown>;
}

/**
 * The search's hits with the volume the typed text names exactly first: by its label
 * (`Volume VI`), its numeral (`VI`, `vi`), its number (`6`) or its file name (`volume-vi`), as a
 * manuscript's `volume` may name it (docs/content-model.md). The fuzzy search alone ranks `Volume I`
 * above `Volume VI` for `VI`, and Enter takes the first.
 */
export function rankVolumeHits<H extends VolumeHit>(term: string, hits: readonly H[]): H[] {
  const typed = term.trim().toLowerCase().replace(/\s+/g, ' ');
  if (!typed) return [...hits];
  const names = (hit: H): string[] => {
    const label = typeof hit.data['citation_journal_title'] === 'string' ? hit.data['citation_journal_title'] : '';
    const numeral = VOLUME_LABEL.exec(label)?.[1];
    return [
      label,
      hit.slug,
      ...(numeral && isCanonicalRoman(numeral) ? [numeral, String(romanToNumber(numeral))] : []),
    ].map((name) => name.toLowerCase());
  };
  const exact = hits.filter((hit) => names(hit).includes(typed));
  return [...exact, ...hits.filter((hit) => !exact.includes(hit))];
}
