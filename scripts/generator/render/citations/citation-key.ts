/**
 * The citation key of a manuscript: the first author's family name in ASCII letters, the year, a
 * hyphen and the manuscript's id, e.g. `petrovska2021-7` (docs/indexing.md, "Citation files").
 *
 * - Unique in the journal: the id is. The same content gives the same key on every build; it
 *   changes only when the first author's family name, the year or the id does.
 * - Safe everywhere a key goes: `[a-z0-9-]` only, which BibTeX, biber, LaTeX's `\cite` and CSL
 *   processors all take. BibTeX reads a key with non-ASCII letters byte by byte, so the name's
 *   letters are folded to ASCII: accents dropped, Cyrillic and Greek letters written with Latin
 *   ones, as the import spells keys (shared/latin-letters.ts).
 * - No author, or no letter left (another script): `ms` stands for the name.
 */
import { latinLetters } from '../../../shared/latin-letters.ts';

/**
 * The key of a manuscript by its first author's family name (undefined: no author), its year and
 * its id. A name kept as published is given whole: it is written "Given Family" most of the time,
 * so its last word is taken.
 */
export function citationKey(
  first: { family: string } | { literal: string } | undefined,
  year: number,
  id: number,
): string {
  const family = first === undefined ? '' : 'family' in first ? first.family : (first.literal.split(' ').at(-1) ?? '');
  return `${asciiLetters(family) || 'ms'}${year}-${id}`;
}

/** The name's letters, lower case, folded to ASCII; other characters dropped. */
export function asciiLetters(name: string): string {
  // Greek ου is one sound, written ou.
  return latinLetters(name.normalize('NFD').toLowerCase().replaceAll('ου', 'ou')).replace(/[^a-z0-9]/g, '');
}
