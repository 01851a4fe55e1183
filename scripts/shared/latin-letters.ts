/**
 * Names and titles in lower-case Latin letters, for file names and citation keys: one
 * transliteration for every place that needs one (the import's keys, new records' file names,
 * citation keys), so the same name is spelt the same way in each.
 */

/**
 * Macedonian, Serbian and Russian Cyrillic to Latin, close to the common national schemes. The
 * synthetic PDFs' text starts from it too (synthetic/minimal-pdf.ts).
 */
export const CYRILLIC_LATIN: Readonly<Record<string, string>> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  д: 'd',
  ѓ: 'gj',
  ђ: 'dj',
  е: 'e',
  ё: 'e',
  ж: 'zh',
  з: 'z',
  ѕ: 'dz',
  и: 'i',
  й: 'j',
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
  ќ: 'kj',
  ћ: 'c',
  у: 'u',
  ф: 'f',
  х: 'h',
  ц: 'c',
  ч: 'ch',
  џ: 'dzh',
  ш: 'sh',
  щ: 'shch',
  ъ: '',
  ы: 'y',
  ь: '',
  э: 'e',
  ю: 'ju',
  я: 'ja',
};

/**
 * Cyrillic (Ukrainian too) and Greek to Latin, close to the common national schemes, plus the
 * Latin letters that do not decompose into a base letter and a mark.
 */
const TRANSLITERATION: Record<string, string> = {
  ...CYRILLIC_LATIN,
  і: 'i',
  ї: 'ji',
  є: 'je',
  ґ: 'g',
  α: 'a',
  β: 'v',
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
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'dj',
  ł: 'l',
  þ: 'th',
  ı: 'i',
};

/**
 * `text` in lower case with Cyrillic and Greek letters written in Latin ones and marks dropped
 * (é, ǧ, ά and compatibility forms such as 𝔄 become their base letters); other characters are kept.
 */
export function latinLetters(text: string): string {
  return [...text.toLowerCase()]
    .map((c) => {
      const direct = TRANSLITERATION[c];
      if (direct !== undefined) return direct;
      const base = c.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
      return [...base].map((b) => TRANSLITERATION[b] ?? b).join('');
    })
    .join('');
}
