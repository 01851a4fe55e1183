import { bufferView } from '../../shared/movable-bytes.ts';

/**
 * JSON as Django REST Framework's JSONRenderer writes it: compact separators, UTF-8 characters
 * unescaped, and U+2028/U+2029 escaped (DRF does so to keep the output a JavaScript subset).
 * Its own module because the load workers write manuscripts' long fields in it once
 * (packed-manuscript.ts), and the lists publish those bytes as they are (render/api.ts).
 */
export function toJson(value: unknown): string {
  const json = JSON.stringify(value);
  // Tested first: the separators are rare, and a replace that finds none still scans and calls
  // (a third of the time of 700,000 short values, a cold build's list items).
  return LINE_SEPARATOR.test(json)
    ? json.replace(LINE_SEPARATORS, (c) => (c === '\u2028' ? '\\u2028' : '\\u2029'))
    : json;
}

const LINE_SEPARATORS = /[\u2028\u2029]/g;
/** The same characters, for a test (a global pattern's test would move its lastIndex). */
const LINE_SEPARATOR = new RegExp(LINE_SEPARATORS.source);

/** A packed value parsed from its UTF-8 JSON (a long field's JSON, as a compact record keeps it). */
export function parsePackedJson(json: Uint8Array): unknown {
  return JSON.parse(bufferView(json).toString('utf8'));
}
