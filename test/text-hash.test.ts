/**
 * The one FNV-1a of the project (shared/text-hash.ts), which the listings, the lists' items and the
 * conflict check find texts by: the published test vectors, a slice of a text hashed in place, and a
 * hash continued from the text before it.
 */
import { expect, it } from 'vitest';
import { fnv1a } from '../scripts/shared/text-hash.ts';

it('gives the published FNV-1a values for ASCII, as signed 32-bit integers', () => {
  // The 32-bit FNV-1a test vectors of the algorithm's authors: "" 0x811c9dc5, "a" 0xe40c292c, "foobar" 0xbf9cf968.
  expect(fnv1a('')).toBe(0x811c9dc5 | 0);
  expect(fnv1a('a')).toBe(0xe40c292c | 0);
  expect(fnv1a('foobar')).toBe(0xbf9cf968 | 0);
});

it('hashes a slice of a text as the slice alone, and continues a hash as if the texts were joined', () => {
  const text = 'api/manuscripts/12/index.json\0api/authors/doe-1/index.json';
  expect(fnv1a(text, 30, text.length)).toBe(fnv1a('api/authors/doe-1/index.json'));
  expect(fnv1a('.gz', 0, 3, fnv1a('api/manuscripts/12/index.json'))).toBe(fnv1a('api/manuscripts/12/index.json.gz'));
  expect(fnv1a('Прилог 𝔘')).not.toBe(fnv1a('Прилог 𝔙'));
});
