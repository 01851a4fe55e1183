/**
 * Fields of a record read apart from the rest (read-tracking.ts), so that what read only them is
 * not made again, or not readied, for a change of the others:
 *
 * - an author's name and surname (`n:`), valued by what they hold: they are printed by every file
 *   of each of the author's manuscripts (the API records, the citation files, the volume pages),
 *   the institution only by the landing pages, so that an edit of an institution re-renders those
 *   alone;
 * - a manuscript's fields but its long ones (`s:`, model/records.ts, LONG_FIELDS), valued as the
 *   whole record: a body that read only these (a volume's page lists the titles of up to thousands
 *   of manuscripts) runs again without any manuscript's file being read in for it (prepare,
 *   engine/load/reread.ts).
 *
 * A group's token is its letter, a colon and the record's key (`n:ana-petrovska`), as a record's
 * is its collection's letter (`a:ana-petrovska`), so that both are looked up the same way. A read of
 * any field outside a group notes the record whole, which covers its groups.
 */
import { LONG_FIELDS } from '../../model/records.ts';

/** A group of fields of the records of one collection. */
export interface FieldGroup {
  /** Its tokens' first two characters. */
  readonly prefix: string;
  readonly collection: 'authors' | 'manuscripts';
  /** Whether a read of `property` is one of the group's. */
  has(property: PropertyKey): boolean;
  /**
   * What the group's fields hold: a token's value. JSON, so that no value holds a newline (values
   * are newline-joined, record-values.ts) and two pairs of names never give the same text. None:
   * the group's tokens are valued as the record's.
   */
  readonly value?: (record: object) => string;
}

const NAMES: ReadonlySet<PropertyKey> = new Set(['name', 'surname']);
const authorNames: FieldGroup = {
  prefix: 'n:',
  collection: 'authors',
  has: (property) => NAMES.has(property),
  value: (record) => {
    const { name, surname } = record as { name: string; surname: string };
    return JSON.stringify([name, surname]);
  },
};

const LONG: ReadonlySet<PropertyKey> = new Set(LONG_FIELDS);
/** A symbol (the long fields' JSON among them, render/api.ts) is read as the whole record. */
const manuscriptShortFields: FieldGroup = {
  prefix: 's:',
  collection: 'manuscripts',
  has: (property) => typeof property === 'string' && !LONG.has(property),
};

/** Every group, in the order of RecordValues.groups. */
export const FIELD_GROUPS: readonly FieldGroup[] = [authorNames, manuscriptShortFields];

const BY_FIRST = new Map(FIELD_GROUPS.map((group) => [group.prefix.charCodeAt(0), group]));

/** The group whose tokens start with the character code `first` (followed by a colon). */
export function groupOfToken(first: number): FieldGroup | undefined {
  return BY_FIRST.get(first);
}

/** A record as a read of it knows it: its handler's (read-tracking.ts). */
interface ReadRecord {
  readonly index: number;
  readonly record: { origin: { key: string } };
}

/** A read of a group of one record's fields, noted as the record's handler is for a read of the rest. */
export class GroupRead {
  constructor(
    readonly of: ReadRecord,
    readonly group: FieldGroup,
  ) {}

  get token(): string {
    return this.group.prefix + this.of.record.origin.key;
  }

  /** What the group's fields hold; undefined for a group valued as its record. */
  get value(): string | undefined {
    return this.group.value?.(this.of.record);
  }
}

/**
 * The group reads of one collection's records, each made when first noted and kept (one object per
 * record and group read: a body's reads are noted by identity). Undefined for a collection without
 * groups, whose reads are all of the whole record.
 */
export function groupReadsOf(
  collection: string,
): ((of: ReadRecord, property: PropertyKey) => GroupRead | undefined) | undefined {
  const groups = FIELD_GROUPS.filter((group) => group.collection === collection);
  if (groups.length === 0) return undefined;
  const made = groups.map((): (GroupRead | undefined)[] => []);
  return (of, property) => {
    const g = groups.findIndex((group) => group.has(property));
    if (g < 0) return undefined;
    return (made[g]![of.index] ??= new GroupRead(of, groups[g]!));
  };
}
