/**
 * The citation key of a manuscript: the first author's family name in ASCII letters, the year, a
 * hyphen and the manuscript's id, e.g. `petrovska2021-7` (docs/indexing.md, "Citation files").
 *
 * - Unique in the journal: the id is. The same content gives the same key on every build; it
 *   changes only when the first author's family name, the year or the id does.
 * - Safe everywhere a key goes: `[a-z0-9-]` only, which BibTeX, biber, LaTeX's `\cite` and CSL
 *   processors all take. BibTeX reads a key with non-ASCII letters byte by byte, so the name's
 *   letters are folded to ASCII: accents dropped, Cyrillic and Greek letters written with Latin
 *   ones. The letters are a hint for a reader, not a standard transliteration.
 * - No author, or no letter left (another script): `ms` stands for the name.
 */
const LETTERS: Record<string, string> = {
  // Cyrillic (after NFD has taken the marks off ѓ, ќ, й, ё, ї, ў)
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  ґ: 'g',
  д: 'd',
  ђ: 'dj',
  е: 'e',
  є: 'je',
  ж: 'zh',
  з: 'z',
  ѕ: 'dz',
  и: 'i',
  і: 'i',
  ј: 'j',
  к: 'k',
  л: 'l',
  љ: 'lj',
  м: 'm',
  н: 'n',
  њ: 'nj',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  ћ: 'c',
  у: 'u',
  ф: 'f',
  х: 'h',
  ц: 'c',
  ч: 'ch',
  џ: 'dzh',
  ш: 'sh',
  щ: 'sht',
  ъ: 'a',
  ы: 'y',
  ь: '',
  э: 'e',
  ю: 'ju',
  я: 'ja',
  // Greek (after NFD has taken the accents off)
  α: 'a',
  β: 'b',
  γ: 'g',
  δ: 'd',
  ε: 'e',
  ζ: 'z',
  η: 'i',
  θ: 'th',
  ι: 'i',
  κ: 'k',
  λ: 'l',
  μ: 'm',
  ν: 'n',
  ξ: 'x',
  ο: 'o',
  π: 'p',
  ρ: 'r',
  σ: 's',
  ς: 's',
  τ: 't',
  υ: 'y',
  φ: 'f',
  χ: 'ch',
  ψ: 'ps',
  ω: 'o',
  // Latin letters that NFD does not split
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ł: 'l',
  þ: 'th',
  ð: 'd',
  ı: 'i',
};

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
  let ascii = '';
  // Greek ου is one sound, written ou.
  for (const c of name.normalize('NFD').toLowerCase().replaceAll('ου', 'ou')) {
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) ascii += c;
    else ascii += LETTERS[c] ?? '';
  }
  return ascii;
}
