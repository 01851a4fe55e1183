/**
 * Records that share an id (stage 4, resolve.ts): each is reported at the file that sorts later,
 * naming the other and the next free id.
 */
import type { Origin } from '../model/records.ts';
import type { ProblemCode } from '../model/problems.ts';
import { compareText } from '../../shared/compare-text.ts';
import type { InvalidRecord } from './load.ts';

/** The valid records of a collection, as the checks read them (ManuscriptReferences has this shape). */
export interface IdentifiedRecords {
  readonly length: number;
  id(i: number): number;
  origin(i: number): Origin;
}

/**
 * Reports each record whose id another has, at the one whose file sorts later, naming the other
 * file and the next free id (one above the highest, so ids keep growing as editors expect). Records
 * of the collection that failed validation keep their ids (InvalidRecord), so a duplicate is
 * reported in the same run as their other mistakes.
 */
export function reportRepeatedIds(
  kind: 'volume' | 'manuscript',
  valid: IdentifiedRecords,
  invalid: readonly InvalidRecord[],
  report: (origin: Origin, field: string, code: ProblemCode, message: string, expected: string) => void,
): void {
  const collection = kind === 'volume' ? 'volumes' : 'manuscripts';
  const others = invalid.filter((r) => r.collection === collection && r.id !== undefined);
  const count = valid.length + others.length;
  const idAt = (i: number) => (i < valid.length ? valid.id(i) : others[i - valid.length]!.id!);
  const originAt = (i: number) => (i < valid.length ? valid.origin(i) : others[i - valid.length]!.origin);
  let nextFree: number | undefined;
  forEachRepeatedId(count, idAt, (i, first) => {
    if (nextFree === undefined) {
      let highest = 0;
      for (let k = 0; k < count; k++) highest = Math.max(highest, idAt(k));
      nextFree = highest + 1;
    }
    let [later, earlier] = [originAt(i), originAt(first)];
    if (compareText(later.file, earlier.file) < 0) [later, earlier] = [earlier, later];
    report(
      later,
      'id',
      'ref/duplicate-id',
      `${idAt(i)} is also the id of ${earlier.file}`,
      `an id no other ${kind} has: the next free id is ${nextFree}`,
    );
  });
}

/**
 * Calls `repeated` for each of `count` positions whose id (`idAt`) an earlier one has, with the
 * first that has it. Ids are whole numbers, nearly always below a few times their count: then by a
 * table indexed by id, not a map of 100,000 numbers (`check` after every edit).
 */
function forEachRepeatedId(
  count: number,
  idAt: (i: number) => number,
  repeated: (i: number, first: number) => void,
): void {
  const limit = count * 4 + 1024;
  let small = true;
  for (let i = 0; i < count && small; i++) {
    const id = idAt(i);
    small = Number.isInteger(id) && id >= 0 && id < limit;
  }
  const table = small ? new Int32Array(limit).fill(-1) : undefined;
  const byId = small ? undefined : new Map<number, number>();
  for (let i = 0; i < count; i++) {
    const id = idAt(i);
    const first = table ? table[id]! : (byId!.get(id) ?? -1);
    if (first >= 0) repeated(i, first);
    else if (table) table[id] = i;
    else byId!.set(id, i);
  }
}
