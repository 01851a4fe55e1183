/**
 * File names for imported records: readable ASCII keys (formats.ts RECORD_KEY) made from the
 * record's own text, unique per collection, assigned in source order so the same dump always gets
 * the same names.
 */

/**
 * Macedonian, Serbian, Russian and Ukrainian Cyrillic and Greek to Latin, close to the common
 * national schemes, plus the Latin letters that do not decompose into a base letter and a mark.
 */
const TRANSLITERATION: Record<string, string> = {
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

const MAX_SLUG = 48;

export function slug(text: string, fallback: string): string {
  const latin = [...text.toLowerCase()]
    .map((c) => {
      const direct = TRANSLITERATION[c];
      if (direct !== undefined) return direct;
      // Letters with marks (é, ǧ, ά) and compatibility forms (𝔄) become their base letters first.
      const base = c.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
      return [...base].map((b) => TRANSLITERATION[b] ?? b).join('');
    })
    .join('');
  const cut = latin
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_SLUG)
    .replace(/-+$/, '');
  return cut || fallback;
}

/** Hands out unique keys: the first `ana-petrovska`, the next `ana-petrovska-2`, ... */
export function keyMaker(): (base: string) => string {
  const taken = new Set<string>();
  return (base) => {
    let key = base;
    for (let n = 2; taken.has(key); n++) key = `${base}-${n}`;
    taken.add(key);
    return key;
  };
}
