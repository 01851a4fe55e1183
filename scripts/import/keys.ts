/**
 * File names for imported records: readable ASCII keys (formats.ts RECORD_KEY) made from the
 * record's own text, unique per collection, assigned in source order so the same dump always gets
 * the same names.
 */

/** Macedonian, Serbian and Russian Cyrillic to Latin, close to the common national schemes. */
const CYRILLIC: Record<string, string> = {
  а: 'a', б: 'b', в: 'v', г: 'g', д: 'd', ѓ: 'gj', ђ: 'dj', е: 'e', ё: 'e', ж: 'zh', з: 'z', ѕ: 'dz', и: 'i',
  й: 'j', ј: 'j', к: 'k', л: 'l', љ: 'lj', м: 'm', н: 'n', њ: 'nj', о: 'o', п: 'p', р: 'r', с: 's', т: 't',
  ќ: 'kj', ћ: 'c', у: 'u', ф: 'f', х: 'h', ц: 'c', ч: 'ch', џ: 'dzh', ш: 'sh', щ: 'shch', ъ: '', ы: 'y',
  ь: '', э: 'e', ю: 'ju', я: 'ja', і: 'i', ї: 'ji', є: 'je', ґ: 'g',
};

const MAX_SLUG = 48;

export function slug(text: string, fallback: string): string {
  const latin = [...text.toLowerCase()].map((c) => CYRILLIC[c] ?? c).join('');
  const ascii = latin.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/ß/g, 'ss').replace(/[æ]/g, 'ae').replace(/[ø]/g, 'o').replace(/[đ]/g, 'dj').replace(/[ł]/g, 'l');
  const cut = ascii.replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, MAX_SLUG).replace(/-+$/, '');
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
