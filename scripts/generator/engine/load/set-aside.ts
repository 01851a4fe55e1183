/**
 * The packed long fields of a large journal's manuscripts (packed-manuscript.ts), set aside in a
 * file instead of held in memory. At 100,000 manuscripts they are 194 MB that a cold build holds
 * from loading to its end, while most records are read two or three times in all; in a file, they
 * are the kernel's page cache, which the build's peak does not count and the system can give back.
 *
 * The file is in the build cache's folder and is unlinked as soon as it is open: nothing is left
 * behind by a build that ends in any way, a kill included, and its space goes when the last record
 * that names it is gone. Where a file cannot be unlinked while open, or cannot be written, the
 * fields stay in memory as before.
 */
import { closeSync, mkdirSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

/** A manuscript's packed buffer, in a file set aside: read again whole when its record is rendered. */
export class SetAsideFields {
  readonly #file: SetAsideFile;
  readonly #at: number;
  readonly #length: number;

  constructor(file: SetAsideFile, at: number, length: number) {
    this.#file = file;
    this.#at = at;
    this.#length = length;
  }

  /** The packed buffer, as it was set aside: a buffer of its own (it may be sent to another thread). */
  bytes(): Uint8Array {
    return this.#file.read(this, this.#at, this.#length);
  }
}

/** Writes are gathered to this size: 100,000 writes of 2 KB each cost a second of system time. */
const WRITE_BATCH = 1 << 20;

/** Closes a file set aside once nothing names it any more. */
const closing = new FinalizationRegistry<number>((fd) => closeSync(fd));

let opened = 0;

export class SetAsideFile {
  readonly #fd: number;
  /** Bytes written to the file so far; what follows is in `#batch`. */
  #written = 0;
  #batch = new Uint8Array(WRITE_BATCH);
  #batched = 0;
  /** Set once a write failed: the buffers are kept in memory from then on, and so is the batch that failed. */
  #failed: { at: number; bytes: Uint8Array } | undefined;
  /** The last buffer read, for the renderers that read one record's fields one after another. */
  #last: { of: SetAsideFields; bytes: Uint8Array } | undefined;

  /** A new file in `dir`, or undefined where one cannot be made and unlinked while open. */
  static open(dir: string): SetAsideFile | undefined {
    let fd: number | undefined;
    try {
      mkdirSync(dir, { recursive: true });
      const name = path.join(dir, `long-fields.${process.pid}.${opened++}.tmp`);
      fd = openSync(name, 'w+', 0o600);
      try {
        rmSync(name);
      } catch {
        closeSync(fd);
        rmSync(name, { force: true });
        return undefined;
      }
      return new SetAsideFile(fd);
    } catch {
      return undefined;
    }
  }

  private constructor(fd: number) {
    this.#fd = fd;
    closing.register(this, fd, this);
  }

  /** Closes the file now rather than once nothing names it: nothing set aside in it can be read after. */
  close(): void {
    if (closing.unregister(this)) closeSync(this.#fd);
  }

  /** Sets `packed` aside; gives it back as it is once the file cannot be written. */
  keep(packed: Uint8Array): SetAsideFields | Uint8Array {
    if (this.#failed) return packed;
    if (this.#batched + packed.byteLength > this.#batch.byteLength) this.#flush();
    if (this.#failed) return packed;
    if (packed.byteLength > this.#batch.byteLength) this.#batch = new Uint8Array(packed.byteLength);
    this.#batch.set(packed, this.#batched);
    const fields = new SetAsideFields(this, this.#written + this.#batched, packed.byteLength);
    this.#batched += packed.byteLength;
    return fields;
  }

  read(of: SetAsideFields, at: number, length: number): Uint8Array {
    if (this.#last?.of === of) return this.#last.bytes;
    const bytes = new Uint8Array(length);
    if (at >= this.#written) {
      this.#flush();
      const failed = this.#failed;
      if (failed && at >= failed.at) {
        bytes.set(failed.bytes.subarray(at - failed.at, at - failed.at + length));
        return this.#remember(of, bytes);
      }
    }
    let done = 0;
    while (done < length) {
      const count = readSync(this.#fd, bytes, done, length - done, at + done);
      if (count === 0) throw new Error('a file set aside by the build was cut short');
      done += count;
    }
    return this.#remember(of, bytes);
  }

  #remember(of: SetAsideFields, bytes: Uint8Array): Uint8Array {
    this.#last = { of, bytes };
    return bytes;
  }

  #flush(): void {
    if (this.#batched === 0 || this.#failed) return;
    try {
      let done = 0;
      while (done < this.#batched)
        done += writeSync(this.#fd, this.#batch, done, this.#batched - done, this.#written + done);
      this.#written += this.#batched;
      this.#batched = 0;
    } catch {
      // No space left, most likely: what is in the batch stays in memory, and so does what follows.
      this.#failed = { at: this.#written, bytes: this.#batch.slice(0, this.#batched) };
      this.#batched = 0;
    }
  }
}
