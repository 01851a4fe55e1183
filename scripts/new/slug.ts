/**
 * File names for new records, made from a title or a name: lower case ASCII letters, digits and
 * hyphens, as a record key must be (model/formats.ts, RECORD_KEY): Cyrillic and Greek are
 * transliterated as the import's keys are (shared/latin-letters.ts), Latin letters lose their
 * accents (č → c), and anything else separates words.
 */
import { latinLetters } from '../shared/latin-letters.ts';

/** Words past this many make a file name too long to read. */
const MAX_WORDS = 8;

export function slugOf(text: string): string {
  const words = latinLetters(text)
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  return words.slice(0, MAX_WORDS).join('-');
}
