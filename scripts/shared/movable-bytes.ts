/**
 * Bytes and the buffers under them (packed fields, batches and chunks are views on larger buffers,
 * passed between threads).
 *
 * Bytes that can move to another thread (transferred, not copied): a whole buffer of their own. A
 * view on part of a buffer (Node's shared pool for small Buffers, a packed manuscript's fields)
 * must not move: moving detaches the whole buffer, and whatever else it holds, from this thread.
 * The file writers and the list writer hand bytes over this way.
 */
export function ownsItsBuffer(bytes: Uint8Array): boolean {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
}

/** The same bytes as a Buffer (for its `indexOf`, `toString`), without copying them. */
export function bufferView(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
