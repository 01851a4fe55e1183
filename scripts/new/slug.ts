/**
 * File names for new records, made from a title or a name: lower case ASCII letters, digits and
 * hyphens, as a record key must be (model/formats.ts, RECORD_KEY). Cyrillic is transliterated by
 * the table below (the journal's authors write Macedonian, Serbian, Bulgarian and Russian); Latin
 * letters lose their accents (č → c); anything else separates words.
 */

/** Cyrillic letters, lower case, to Latin; Macedonian and Serbian letters as their official Latin forms. */
// prettier-ignore
const CYRILLIC: Record<string, string> = {
  а: 'a', б: 'b', в: 'v', г: 'g', д: 'd', ѓ: 'gj', ђ: 'dj', е: 'e', ё: 'yo', ж: 'zh', з: 'z', ѕ: 'dz',
  и: 'i', й: 'y', ј: 'j', к: 'k', л: 'l', љ: 'lj', м: 'm', н: 'n', њ: 'nj', о: 'o', п: 'p', р: 'r',
  с: 's', т: 't', ќ: 'kj', ћ: 'c', у: 'u', ў: 'u', ф: 'f', х: 'h', ц: 'c', ч: 'ch', џ: 'dzh', ш: 'sh',
  щ: 'sht', ъ: 'a', ы: 'y', ь: '', э: 'e', ю: 'yu', я: 'ya', є: 'ye', і: 'i', ї: 'yi', ґ: 'g',
};

/** Words past this many make a file name too long to read. */
const MAX_WORDS = 8;

export function slugOf(text: string): string {
  const latin = [...text.toLowerCase()].map((letter) => CYRILLIC[letter] ?? letter).join('');
  const words = latin
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[đ]/g, 'dj')
    .replace(/[ß]/g, 'ss')
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  return words.slice(0, MAX_WORDS).join('-');
}
