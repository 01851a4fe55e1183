/** FNV-1a's offset basis: the hash of no text. */
const FNV_OFFSET_BASIS = 0x811c9dc5;

/**
 * FNV-1a over the UTF-16 code units of `text` from `start` to `end`, as a signed 32-bit integer.
 * From `from`, the hash of the text that comes before, it is the hash of the two joined, with no
 * text made. For the hash tables that find a name or a key among many in place.
 */
export function fnv1a(text: string, start = 0, end = text.length, from = FNV_OFFSET_BASIS): number {
  let hash = from;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash | 0;
}
