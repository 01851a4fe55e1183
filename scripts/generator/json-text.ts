/**
 * JSON as Django REST Framework's JSONRenderer writes it: compact separators, UTF-8 characters
 * unescaped, and U+2028/U+2029 escaped (DRF does so to keep the output a JavaScript subset).
 * Its own module because the load workers write manuscripts' long fields in it once
 * (packed-manuscript.ts), and the lists publish those bytes as they are (render-api.ts).
 */
export function toJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u2028\u2029]/g, (c) => (c === '\u2028' ? '\\u2028' : '\\u2029'));
}
