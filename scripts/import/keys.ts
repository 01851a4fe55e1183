/**
 * File names for imported records: readable ASCII keys (formats.ts RECORD_KEY) made from the
 * record's own text, unique per collection, assigned in source order so the same dump always gets
 * the same names.
 */
import { latinLetters } from '../shared/latin-letters.ts';

const MAX_SLUG = 48;

export function slug(text: string, fallback: string): string {
  const latin = latinLetters(text);
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
