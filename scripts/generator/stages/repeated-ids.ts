/**
 * Records that share an id (stage 4, resolve.ts): each is reported at every file that has it,
 * naming the others; the new one is told the next free id.
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
 * Reports each id that several records have, at each of their files (an editor and a pull
 * request's annotations see it on both), naming the others. Which is the new one is told by
 * `changedFiles` (the files new or edited since the build cache was written): it is given the
 * next free id (one above the highest, so ids keep growing as editors expect), and the others
 * are told to keep theirs. A file name says nothing about age (the web editor names a new
 * manuscript `7-...`, which sorts before older files), so without that knowledge, or when all or
 * none changed, every file is given the next free id for whichever was added. Records of the
 * collection that failed validation keep their ids (InvalidRecord), so a duplicate is reported in
 * the same run as their other mistakes.
 */
export function reportRepeatedIds(
  kind: 'volume' | 'manuscript',
  valid: IdentifiedRecords,
  invalid: readonly InvalidRecord[],
  report: (origin: Origin, field: string, code: ProblemCode, message: string, expected: string) => void,
  changedFiles?: ReadonlySet<string>,
): void {
  const collection = kind === 'volume' ? 'volumes' : 'manuscripts';
  const others = invalid.filter((r) => r.collection === collection && r.id !== undefined);
  const count = valid.length + others.length;
  const idAt = (i: number) => (i < valid.length ? valid.id(i) : others[i - valid.length]!.id!);
  const originAt = (i: number) => (i < valid.length ? valid.origin(i) : others[i - valid.length]!.origin);
  const sharing = new Map<number, number[]>();
  forEachRepeatedId(count, idAt, (i, first) => {
    const group = sharing.get(first);
    if (group) group.push(i);
    else sharing.set(first, [first, i]);
  });
  if (sharing.size === 0) return;
  let nextFree = 0;
  for (let k = 0; k < count; k++) nextFree = Math.max(nextFree, idAt(k));
  nextFree++;
  const groups = [...sharing.values()]
    .map((group) => ({ id: idAt(group[0]!), origins: group.map(originAt).sort((a, b) => compareText(a.file, b.file)) }))
    .sort((a, b) => a.id - b.id);
  const rule = `an id no other ${kind} has`;
  for (const { id, origins } of groups) {
    const added = changedFiles ? origins.filter((o) => changedFiles.has(o.file)) : [];
    const known = added.length > 0 && added.length < origins.length;
    const firstFree = nextFree;
    if (known) nextFree += added.length;
    for (const origin of origins) {
      const rest = origins.filter((o) => o !== origin).map((o) => o.file);
      const at = added.indexOf(origin);
      if (!known) {
        report(
          origin,
          'id',
          'ref/duplicate-id',
          `${id} is also the id of ${listed(rest)}`,
          `${rule}: give the ${kind} you added the next free id, ${firstFree}`,
        );
      } else if (at >= 0) {
        report(
          origin,
          'id',
          'ref/duplicate-id',
          `${id} is also the id of ${listed(rest)}, which had it before this file`,
          `${rule}: the next free id is ${firstFree + at}`,
        );
      } else {
        const newer = added.map((o) => o.file);
        report(
          origin,
          'id',
          'ref/duplicate-id',
          `${id} is also the id of ${listed(newer)}, new or edited since the last check or build`,
          `this file keeps its id: change the one in ${listed(newer)}, to the next free id, ${firstFree}`,
        );
      }
    }
  }
}

function listed(files: readonly string[]): string {
  return files.length === 1 ? files[0]! : `${files.slice(0, -1).join(', ')} and ${files.at(-1)}`;
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
