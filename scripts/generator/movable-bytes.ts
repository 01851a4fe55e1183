/**
 * Bytes that can move to another thread (transferred, not copied): a whole buffer of their own. A
 * view on part of a buffer (Node's shared pool for small Buffers, a packed manuscript's fields)
 * must not move: moving detaches the whole buffer, and whatever else it holds, from this thread.
 * The file writers and the list writer hand bytes over this way (issue 4).
 */
export function ownsItsBuffer(bytes: Uint8Array): boolean {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
}
