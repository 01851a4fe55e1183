/**
 * A manuscript kept compact in memory ("keep one compact representation per record").
 * At 100,000 manuscripts the abstracts alone take more memory than the rest of the build, and
 * V8 keeps any text with one non-Latin-1 character at two bytes per character. So the long,
 * rarely read fields travel from the load workers as one UTF-8 JSON buffer per record, kept in
 * memory, or for a large journal set aside in a file (set-aside.ts); the fields that the resolve,
 * media, sitemap and key stages read on every record stay plain. Reading a packed field unpacks the
 * record's buffer once and keeps the result in a one-record slot: renderers read one record's
 * fields together.
 *
 * A manuscript restored from the check index by a build (check-index.ts) has no buffer: its long
 * fields are read from its file again when a renderer asks for them (reread.ts), which after an
 * edit is only for the few pages and list items that changed.
 */
import type { SourceFile } from '../../stages/discover.ts';
import { LONG_FIELD_JSON, LONG_FIELDS, type LongField, type ManuscriptRecord } from '../../model/records.ts';
import { parsePackedJson, toJson } from '../../render/json-text.ts';
import { SetAsideFields } from './set-aside.ts';

export { parsePackedJson };

export const PACKED_FIELDS = LONG_FIELDS;
export type PackedField = LongField;
export type PackedValues = Pick<ManuscriptRecord, PackedField>;

/** A manuscript file whose content hash the build cache knows: its long fields are read from it when asked. */
export interface FileBacked {
  source: Pick<SourceFile, 'collection' | 'key' | 'file' | 'absolutePath'>;
  hash: string;
}

/**
 * Where a manuscript's long fields are: its packed buffer, in memory or set aside in a file
 * (set-aside.ts), or its own file.
 */
export type PackedSource = Uint8Array | SetAsideFields | FileBacked;

/** Whether a manuscript's long fields are in its own file only (a record restored from the check index). */
function isFileBacked(packed: PackedSource): packed is FileBacked {
  return !(packed instanceof Uint8Array || packed instanceof SetAsideFields);
}

/** The packed buffer of a source that has one. */
function packedBytes(packed: PackedSource): Uint8Array | undefined {
  return isFileBacked(packed) ? undefined : packed instanceof SetAsideFields ? packed.bytes() : packed;
}

export type SlimManuscript = Omit<ManuscriptRecord, PackedField>;

/** Splits a record into its plain part and its packed fields, each in the record's order. */
export function splitManuscript(record: ManuscriptRecord): { slim: SlimManuscript; values: PackedValues } {
  const values: Partial<PackedValues> = {};
  const slim: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if ((PACKED_FIELDS as readonly string[]).includes(key)) (values as Record<string, unknown>)[key] = value;
    else slim[key] = value;
  }
  return { slim: slim as SlimManuscript, values: values as PackedValues };
}

/**
 * The packed buffer: the UTF-8 JSON object of the packed fields, each value written by toJson
 * (as the lists publish it), then where each value's JSON starts and ends in it, PACKED_FIELDS
 * order, two little-endian 32-bit numbers each (0 and 0 for a field the record leaves out). The
 * manuscripts list takes a value's bytes from there as they are (render/api.ts).
 */
const TRAILER_BYTES = PACKED_FIELDS.length * 8;

/** Splits a record into its plain part and its packed buffer. */
export function packManuscript(record: ManuscriptRecord): { slim: SlimManuscript; packed: Uint8Array } {
  const { slim, values } = splitManuscript(record);
  const ranges: number[] = [];
  let text = '{';
  let bytes = 1;
  for (const field of PACKED_FIELDS) {
    const value = values[field];
    if (value === undefined) {
      ranges.push(0, 0);
      continue;
    }
    const head = `${text === '{' ? '' : ','}${JSON.stringify(field)}:`;
    const json = toJson(value);
    const start = bytes + Buffer.byteLength(head, 'utf8');
    bytes = start + Buffer.byteLength(json, 'utf8');
    ranges.push(start, bytes);
    text += head + json;
  }
  text += '}';
  bytes++;
  // A buffer of its own: a small Buffer.from() is a view on a shared 8 KiB pool, and a view sent
  // to another thread (or kept) carries its whole pool with it.
  const packed = new Uint8Array(bytes + TRAILER_BYTES);
  new TextEncoder().encodeInto(text, packed);
  const trailer = new DataView(packed.buffer, bytes, TRAILER_BYTES);
  ranges.forEach((offset, k) => trailer.setUint32(k * 4, offset, true));
  return { slim, packed };
}

/** The UTF-8 JSON of one packed field's value, as toJson writes it; undefined when the record leaves it out. */
export function packedValueJson(packed: Uint8Array, field: PackedField): Uint8Array | undefined {
  // Read in place: a DataView per call was 500,000 objects in a cold build's manuscripts list.
  const at = packed.byteLength - TRAILER_BYTES + PACKED_FIELDS.indexOf(field) * 8;
  const end = uint32At(packed, at + 4);
  return end === 0 ? undefined : packed.subarray(uint32At(packed, at), end);
}

/** The little-endian 32-bit number at `at`. */
function uint32At(bytes: Uint8Array, at: number): number {
  return (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16)) + bytes[at + 3]! * 0x1000000;
}

/**
 * One build's unpacker: the one-record slot belongs to it, so two builds never share state.
 * `reread` gives a file-backed manuscript's long fields (reread.ts).
 *
 * A packed field is parsed from its own bytes when it is first read, not with the others: a landing
 * page reads the short fields on the main thread and leaves the abstract, most of the bytes, to the
 * thread that writes it (abstract-text.ts).
 */
export function createUnpacker(
  reread: (backed: FileBacked) => PackedValues,
): (slim: SlimManuscript, packed: PackedSource) => ManuscriptRecord {
  const slot: { packed?: PackedSource; bytes?: Uint8Array | undefined; values: Partial<PackedValues> } = { values: {} };
  const unpack = <F extends PackedField>(packed: PackedSource, field: F): PackedValues[F] => {
    if (slot.packed !== packed) {
      slot.bytes = packedBytes(packed);
      slot.values = slot.bytes ? {} : reread(packed as FileBacked);
      slot.packed = packed;
    }
    if (slot.bytes && !(field in slot.values)) {
      const json = packedValueJson(slot.bytes, field);
      slot.values[field] = json === undefined ? undefined : (parsePackedJson(json) as PackedValues[F]);
    }
    return slot.values[field] as PackedValues[F];
  };
  // The slim fields are the record's own properties, in its order; the long ones follow them.
  return (slim, packed) => PackedManuscript.record(packed, unpack, slim);
}

/**
 * Reads the long fields of a manuscript restored from the check index from its file, into memory,
 * before it is rendered: the build does so for the records an output read when it was last
 * rendered, so that rendering it again touches no disk. A plain record, or one whose fields are in
 * memory already, is left as it is.
 */
export function readLongFieldsIn(record: object, reread: (backed: FileBacked) => PackedValues): void {
  if (record instanceof PackedManuscript) PackedManuscript.readIn(record, reread);
}

type Unpack = <F extends PackedField>(packed: PackedSource, field: F) => PackedValues[F];

/**
 * The long fields are the record's own enumerable properties, each read (and unpacked) when it is
 * first asked for: a renderer that spreads, copies, lists or serializes a record sees every field, as
 * it would of a plain one. The getters are shared by every record, so the records share one shape.
 * A field is set as on a plain record: the value then replaces the getter.
 */
class PackedManuscript {
  static readonly #longFields: PropertyDescriptorMap = Object.fromEntries(
    PACKED_FIELDS.map((field) => [
      field,
      {
        enumerable: true,
        configurable: true,
        get(this: PackedManuscript) {
          return this.#unpack(this.#packed, field);
        },
        set(this: PackedManuscript, value: unknown) {
          Object.defineProperty(this, field, { value, writable: true, enumerable: true, configurable: true });
        },
      },
    ]),
  );

  static record(packed: PackedSource, unpack: Unpack, slim: SlimManuscript): ManuscriptRecord {
    const record = Object.assign(new PackedManuscript(packed, unpack), slim);
    return Object.defineProperties(record, PackedManuscript.#longFields) as unknown as ManuscriptRecord;
  }

  static readIn(record: PackedManuscript, reread: (backed: FileBacked) => PackedValues): void {
    const packed = record.#packed;
    if (isFileBacked(packed)) record.#packed = packManuscript(reread(packed) as ManuscriptRecord).packed;
  }

  /** In memory, or where to read it from: a record restored from the check index is read in when rendered. */
  #packed: PackedSource;
  readonly #unpack: Unpack;

  constructor(packed: PackedSource, unpack: Unpack) {
    this.#packed = packed;
    this.#unpack = unpack;
  }

  /** The long fields as the JSON the lists publish, when they are in memory (not for a record read from its file again). */
  [LONG_FIELD_JSON]() {
    const packed = packedBytes(this.#packed);
    return packed ? (field: LongField) => packedValueJson(packed, field) : undefined;
  }
}
