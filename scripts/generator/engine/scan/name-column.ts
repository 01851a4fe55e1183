import { positionInSorted, type Names } from '../../stages/listing.ts';
import { nameAt, startsInJoined } from './stat-walk.mjs';
import { fnv1a } from '../../../shared/text-hash.ts';

/**
 * A folder's names in order, kept as the one NUL-joined string a stat worker sends: a name, or
 * every name as a string, is made when asked (a check after one edit at 100,000
 * manuscripts reads a handful of 350,000 names, and splitting them all, then collecting them, cost
 * its main thread a tenth of its second).
 */
export class NameColumn implements Names {
  readonly length: number;
  #joined: string | undefined;
  #starts: Int32Array | undefined;
  #all: readonly string[] | undefined;
  /** Each name's position + 1 in the slot its hash leads to (0: an empty slot); made by `find`. */
  #slots: Int32Array | undefined;

  private constructor(
    length: number,
    joined: string | undefined,
    all: readonly string[] | undefined,
    starts?: Int32Array,
  ) {
    this.length = length;
    this.#joined = joined;
    this.#all = all;
    this.#starts = starts;
  }

  /** `count` names joined by NUL (and, when known, where each starts: stat-walk.mjs, startsOf). */
  static fromJoined(joined: string, count: number, starts?: Int32Array): NameColumn {
    return new NameColumn(count, joined, count === 0 ? [] : undefined, starts);
  }

  static fromNames(names: readonly string[]): NameColumn {
    return new NameColumn(names.length, undefined, names);
  }

  /** The names joined by NUL: one string to compare a whole listing with (check-index.ts). */
  get joined(): string {
    return (this.#joined ??= this.#all!.join('\0'));
  }

  at(i: number): string {
    return this.#all ? this.#all[i]! : nameAt(this.#joined!, this.#startsOf(), i);
  }

  /** Whether name `i` is `text` from `from` on, compared in place (no string made). */
  matches(i: number, text: string, from = 0): boolean {
    if (i < 0 || i >= this.length) return false;
    if (this.#all) {
      const name = this.#all[i]!;
      return name.length === text.length - from && text.endsWith(name);
    }
    const starts = this.#startsOf();
    const start = starts[i]!;
    const length = starts[i + 1]! - 1 - start;
    if (length !== text.length - from) return false;
    const joined = this.#joined!;
    for (let k = 0; k < length; k++) if (joined.charCodeAt(start + k) !== text.charCodeAt(from + k)) return false;
    return true;
  }

  #startsOf(): Int32Array {
    return (this.#starts ??= startsInJoined(this.#joined!, this.length)!);
  }

  /** Every name, as strings (made once). */
  all(): readonly string[] {
    return (this.#all ??= this.#joined!.split('\0'));
  }

  /**
   * The position of the name that is `text` from `from` on, if there is one: by a table of the
   * names' hashes, made the first time (8 to 16 bytes a name), and a comparison in place. Outputs
   * looked up in an order other than the listing's (a manuscript's citation files in the order of
   * the manuscripts, listed in the order of their names) made a map of every name: at 100,000
   * manuscripts, 300,000 strings in a map, and the listing split, held to the end of the build.
   */
  find(text: string, from = 0): number | undefined {
    const slots = (this.#slots ??= this.#hashSlots());
    const mask = slots.length - 1;
    for (let slot = fnv1a(text, from) & mask; ; slot = (slot + 1) & mask) {
      const i = slots[slot]! - 1;
      if (i < 0) return undefined;
      if (this.matches(i, text, from)) return i;
    }
  }

  #hashSlots(): Int32Array {
    const slots = new Int32Array(2 ** Math.ceil(Math.log2(Math.max(2, this.length * 2))));
    const mask = slots.length - 1;
    const starts = this.#all ? undefined : this.#startsOf();
    for (let i = 0; i < this.length; i++) {
      const name = this.#all?.[i];
      const hash = name === undefined ? fnv1a(this.#joined!, starts![i]!, starts![i + 1]! - 1) : fnv1a(name);
      let slot = hash & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = i + 1;
    }
    return slots;
  }

  /**
   * The position of `name`, if it is there: a binary search, as the names are sorted by code units
   * (as `<` compares): no map of 100,000 names.
   */
  position(name: string): number | undefined {
    return positionInSorted(this, name);
  }
}
