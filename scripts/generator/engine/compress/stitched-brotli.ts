/**
 * Brotli in segments that join into one stream (issue 4), as the lists' gzip is (segmented-twins.ts):
 * after an edit, only the segment that changed is compressed again, instead of the whole 216 MB
 * manuscripts list (3.3 s, the longest task of such a build).
 *
 * Brotli 1.1.0 can do it: an encoder told how many bytes of the stream came before it
 * (BROTLI_PARAM_STREAM_OFFSET) writes no stream header and never refers past its own start, and a
 * segment ended by a flush ends on a byte boundary. Segments so made, in order, followed by an empty
 * last meta-block, are one ordinary brotli stream that every decoder reads.
 *
 * Node's zlib checks brotli parameters against a list that stops before that one, so the encoder is
 * driven here through the binding Node's zlib itself uses (node-binding.mjs). Whether the runtime
 * can do it (a newer brotli, the binding as expected) is tried once, by a round trip through Node's
 * own decoder; when it cannot, each list's brotli is one stream, compressed whole by the list
 * writer's thread.
 */
import zlib from 'node:zlib';
import { nodeBinding } from './node-binding.mjs';

/** Not in Node's zlib.constants (brotli's encode.h, since 1.1.0). */
const BROTLI_PARAM_STREAM_OFFSET = 9;
/** An empty meta-block marked last (ISLAST and ISLASTEMPTY set), on a byte of its own after a flush. */
const STREAM_END = Uint8Array.of(0x03);
const DEFAULT_WINDOW_BITS = 22;

/** The parts of Node's zlib binding used here (lib/zlib.js drives the same ones). */
interface EncoderHandle {
  init(params: Uint32Array, writeState: Uint32Array, processed: () => void): void;
  write(
    flush: number,
    input: Uint8Array,
    inOffset: number,
    inLength: number,
    output: Uint8Array,
    outOffset: number,
    outLength: number,
  ): void;
  writeSync(
    flush: number,
    input: Uint8Array,
    inOffset: number,
    inLength: number,
    output: Uint8Array,
    outOffset: number,
    outLength: number,
  ): void;
  close(): void;
  onerror?: (message: string, errno: number) => void;
}

export interface StitchedBrotli {
  /**
   * What a segment's compressed bytes depend on besides its own bytes (`hash`): where it starts,
   * up to the window. Past the window the encoder's only use of the offset, the distance at which
   * the static dictionary begins, stops growing (the tests check it), so an edit that changes the
   * length of one record leaves the keys of the segments after it unchanged.
   */
  key(hash: string, offset: number): string;
  /** A segment's bytes as a piece of the stream that starts at `offset`. */
  compress(segment: Uint8Array, offset: number): Promise<Uint8Array>;
  /** The stream's last bytes, after its last segment. */
  readonly end: Uint8Array;
}

/** Brotli that joins, with these parameters; undefined when this runtime cannot make it. */
export function stitchedBrotli(options: zlib.BrotliOptions): StitchedBrotli | undefined {
  if (!runtimeCanStitch()) return undefined;
  const params = options.params ?? {};
  const windowBits = Number(params[zlib.constants.BROTLI_PARAM_LGWIN] ?? DEFAULT_WINDOW_BITS);
  // BROTLI_MAX_BACKWARD_LIMIT: the farthest an encoder with this window looks back.
  const window = 2 ** windowBits - 16;
  return {
    key: (hash, offset) => `br ${Math.min(offset, window)} ${hash}`,
    compress: (segment, offset) => compressAsync(encoder(params, offset), segment),
    end: STREAM_END,
  };
}

let canStitch: boolean | undefined;

/** Tried once: two segments joined must decode, through Node's public API, to what they were made of. */
function runtimeCanStitch(): boolean {
  if (canStitch !== undefined) return canStitch;
  try {
    const text = Buffer.from('{"title":"Stitched brotli","abstract":"A stream made of two segments."}'.repeat(40));
    const half = text.length >> 1;
    const parts = [text.subarray(0, half), text.subarray(half)].map((part, i) => {
      const made = encoder({}, i * half);
      try {
        return compressSync(made, part);
      } finally {
        made.handle.close();
      }
    });
    canStitch = zlib.brotliDecompressSync(Buffer.concat([...parts, STREAM_END])).equals(text);
  } catch {
    canStitch = false;
  }
  return canStitch;
}

interface Encoder {
  handle: EncoderHandle;
  /** [output space left, input left] after each write (lib/zlib.js's writeState). */
  state: Uint32Array;
  /** Set by `init`'s callback when an asynchronous write is done. */
  processed: () => void;
  /** Called from the binding on an error: it records the error, never throws into the binding. */
  failed: (error: Error) => void;
}

function encoder(params: Record<number, number | boolean>, offset: number): Encoder {
  const binding = nodeBinding('zlib') as { BrotliEncoder: new (mode: number) => EncoderHandle } | undefined;
  if (!binding) throw new Error("Node's zlib binding is not to be used here");
  const handle = new binding.BrotliEncoder(zlib.constants.BROTLI_ENCODE);
  const values = new Uint32Array(BROTLI_PARAM_STREAM_OFFSET + 1).fill(0xffffffff); // unset
  for (const [key, value] of Object.entries(params)) values[Number(key)] = Number(value);
  values[BROTLI_PARAM_STREAM_OFFSET] = offset;
  const made: Encoder = {
    handle,
    state: new Uint32Array(2),
    processed: () => {},
    failed: () => {},
  };
  handle.onerror = (message, errno) => made.failed(Object.assign(new Error(`brotli: ${message}`), { errno }));
  handle.init(values, made.state, () => made.processed());
  return made;
}

/** Output room for one write: brotli grows incompressible input by a few bytes per 64 KB. */
function outputRoom(length: number): number {
  return length + (length >> 10) + 1024;
}

function compressSync(made: Encoder, input: Uint8Array): Uint8Array {
  const { handle, state } = made;
  let failure: Error | undefined;
  made.failed = (error) => (failure = error);
  const out: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const room = Buffer.allocUnsafe(outputRoom(input.length - offset));
    handle.writeSync(zlib.constants.BROTLI_OPERATION_FLUSH, input, offset, input.length - offset, room, 0, room.length);
    if (failure) throw failure;
    out.push(room.subarray(0, room.length - state[0]!));
    offset = input.length - state[1]!;
    if (state[0] !== 0) return Buffer.concat(out);
  }
}

/** Compressed on the thread pool; usually in one write, since the output room fits the whole segment. */
function compressAsync(made: Encoder, input: Uint8Array): Promise<Uint8Array> {
  return new Promise<Uint8Array>((resolve, reject) => {
    const out: Buffer[] = [];
    let offset = 0;
    let room: Buffer;
    const next = () => {
      room = Buffer.allocUnsafe(outputRoom(input.length - offset));
      made.handle.write(
        zlib.constants.BROTLI_OPERATION_FLUSH,
        input,
        offset,
        input.length - offset,
        room,
        0,
        room.length,
      );
    };
    made.failed = (error) => {
      made.handle.close();
      reject(error);
    };
    made.processed = () => {
      // Copied out of the room, which holds a whole segment's worth: a segment waits its turn to be
      // written (segmented-twins.ts), and only its compressed bytes need to wait with it.
      out.push(Buffer.from(room.subarray(0, room.length - made.state[0]!)));
      offset = input.length - made.state[1]!;
      if (made.state[0] === 0) return next();
      made.handle.close();
      resolve(out.length === 1 ? out[0]! : Buffer.concat(out));
    };
    next();
  });
}
