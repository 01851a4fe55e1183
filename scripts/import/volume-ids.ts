/**
 * Volume ids (SPEC-NOTES decision 1). The volumes list carries no id, but manuscripts
 * name their volume by it (`citation_volume`). A deployment means one of two things by it:
 *
 * - the volume's key, by which the original also orders the list: the ids increase down the list
 *   (V, I, II, III, IV are 1 to 5);
 * - the volume's number, as the seed describes the field ("Number of the volume in which the
 *   manuscript appears"): Volume III has 3, whatever the list's order. The list's order is then
 *   kept by the volumes' `order` fields (plan-volumes.ts).
 *
 * The rules are, in turn:
 *
 *   1. `--volume-ids V=1,I=2,...` when given (it must name every volume once, each id once);
 *   2. "position": the n-th volume has id n, when every `citation_volume` is between 1 and the
 *      number of volumes and the manuscripts' years agree with their volume's;
 *   3. "ids in use": when exactly as many ids are in use as there are volumes, they are the
 *      volumes' ids in ascending order, when the years agree;
 *   4. "numerals": each volume's id is its label's numeral (Volume III has 3), when the labels'
 *      numbers are distinct, every `citation_volume` names one of them, and the years agree.
 *
 * A manuscript agrees with a volume when its `citation_date` year is at most one year from the
 * volume's `full_date` year (papers are dated before the issue that prints them). Anything else
 * is ambiguous and reported with the evidence, so the user can pass `--volume-ids`.
 */
import { VOLUME_LABEL } from '../generator/model/formats.ts';

export interface VolumeEvidence {
  label: string;
  full_date: string;
}

export interface ManuscriptEvidence {
  index: number;
  citation_volume: number;
  citation_date: string;
}

export type VolumeIdRule = 'explicit' | 'position' | 'ids in use' | 'numerals';

export type VolumeIdResult =
  | { ok: true; ids: number[]; rule: VolumeIdRule; reasons: string[] }
  | { ok: false; errors: { field: string; message: string; expected: string }[] };

const YEAR_TOLERANCE = 1;

export function inferVolumeIds(
  volumes: readonly VolumeEvidence[],
  manuscripts: readonly ManuscriptEvidence[],
  explicit?: string,
): VolumeIdResult {
  if (explicit !== undefined) return explicitIds(volumes, manuscripts, explicit);
  const used = [...new Set(manuscripts.map((m) => m.citation_volume))].sort((a, b) => a - b);
  const n = volumes.length;
  const tried: string[] = [];

  const position = volumes.map((_, i) => i + 1);
  const outside = used.filter((id) => id > n);
  if (outside.length === 0) {
    const disagree = yearDisagreements(volumes, position, manuscripts);
    if (disagree.length === 0) {
      return {
        ok: true,
        ids: position,
        rule: 'position',
        reasons: [
          n === 0 ? 'there are no volumes' : `ids are the positions in the list, 1 to ${n}`,
          used.length ? `every citation_volume (${range(used)}) names one of them` : 'no manuscript names a volume',
          ...(manuscripts.length
            ? [
                `the citation_date year of all ${manuscripts.length} manuscripts is within ${YEAR_TOLERANCE} year of their volume's full_date`,
              ]
            : []),
        ],
      };
    }
    tried.push(
      `by position, ${disagree.length} manuscript${disagree.length > 1 ? 's are' : ' is'} dated far from their volume (${examples(disagree)})`,
    );
  } else {
    tried.push(`by position the ids would be 1 to ${n}, but manuscripts name ${range(outside)}`);
  }

  if (used.length === n && n > 0 && used.some((id, i) => id !== position[i])) {
    const disagree = yearDisagreements(volumes, used, manuscripts);
    if (disagree.length === 0) {
      return {
        ok: true,
        ids: used,
        rule: 'ids in use',
        reasons: [
          `manuscripts use exactly ${n} volume ids (${range(used)}), one per volume: they are the volumes' ids in list order`,
          `the citation_date year of all ${manuscripts.length} manuscripts is within ${YEAR_TOLERANCE} year of their volume's full_date`,
        ],
      };
    }
    tried.push(
      `taking the ${n} ids in use (${range(used)}) in list order, ${disagree.length} manuscript${disagree.length > 1 ? 's are' : ' is'} dated far from their volume (${examples(disagree)})`,
    );
  } else if (used.length !== n) {
    tried.push(
      `${used.length} volume id${used.length === 1 ? ' is' : 's are'} in use for ${n} volumes, so they cannot simply be taken in list order`,
    );
  }

  // The volume's number: Volume III is 3.
  const numbers = volumes.map((v) => romanValue(numeral(v.label)));
  const known = new Set(numbers);
  if (n > 0 && known.size === n && !known.has(0) && numbers.some((id, i) => id !== position[i])) {
    const unknown = used.filter((id) => !known.has(id));
    const disagree = unknown.length === 0 ? yearDisagreements(volumes, numbers, manuscripts) : [];
    if (unknown.length === 0 && disagree.length === 0) {
      return {
        ok: true,
        ids: numbers,
        rule: 'numerals',
        reasons: [
          `each volume's id is its label's numeral (${volumes.map((v, i) => `${numeral(v.label)}=${numbers[i]}`).join(', ')}): citation_volume is the volume's number`,
          used.length ? `every citation_volume (${range(used)}) names one of them` : 'no manuscript names a volume',
          ...(manuscripts.length
            ? [
                `the citation_date year of all ${manuscripts.length} manuscripts is within ${YEAR_TOLERANCE} year of their volume's full_date`,
              ]
            : []),
        ],
      };
    }
    tried.push(
      unknown.length > 0
        ? `taking each label's numeral as its id, manuscripts name ${range(unknown)}, which no label has`
        : `taking each label's numeral as its id, ${disagree.length} manuscript${disagree.length > 1 ? 's are' : ' is'} dated far from their volume (${examples(disagree)})`,
    );
  }

  const labels = volumes.map((v) => `${numeral(v.label)} (${v.full_date.slice(0, 4)})`).join(', ');
  return {
    ok: false,
    errors: [
      {
        field: 'volumes',
        message: `the volume ids cannot be inferred: ${tried.join('; ')}`,
        expected: `--volume-ids giving each volume's id in list order, e.g. --volume-ids ${volumes.map((v, i) => `${numeral(v.label)}=${i + 1}`).join(',')}; the volumes are ${labels}`,
      },
    ],
  };
}

/**
 * `V=1,I=2` (or `Volume V=1`): every volume once, each id once, in any order: ids that do not
 * increase down the list are kept in the list's order by `order` fields (plan-volumes.ts).
 */
function explicitIds(
  volumes: readonly VolumeEvidence[],
  manuscripts: readonly ManuscriptEvidence[],
  text: string,
): VolumeIdResult {
  const errors: { field: string; message: string; expected: string }[] = [];
  const expected = "V=1,I=2,...: each volume's Roman numeral and its id";
  const byNumeral = new Map<string, number>();
  for (const entry of text
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const match = /^(?:Volume\s+)?([IVXLCDM]+)\s*=\s*([1-9]\d{0,9})$/i.exec(entry);
    if (!match) {
      errors.push({ field: '--volume-ids', message: `"${entry}" is not a numeral=id pair`, expected });
      continue;
    }
    const key = match[1]!.toUpperCase();
    if (byNumeral.has(key)) errors.push({ field: '--volume-ids', message: `names ${key} twice`, expected });
    byNumeral.set(key, Number(match[2]));
  }
  const known = new Set(volumes.map((v) => numeral(v.label)));
  for (const key of byNumeral.keys()) {
    if (!known.has(key))
      errors.push({
        field: '--volume-ids',
        message: `names Volume ${key}, which is not in the volumes list`,
        expected: `only ${[...known].join(', ')}`,
      });
  }
  const ids: number[] = [];
  const holder = new Map<number, string>();
  volumes.forEach((volume, i) => {
    const id = byNumeral.get(numeral(volume.label));
    if (id === undefined) {
      errors.push({ field: `volumes[${i}]`, message: `${volume.label} has no id in --volume-ids`, expected });
      return;
    }
    const other = holder.get(id);
    if (other !== undefined)
      errors.push({
        field: `volumes[${i}]`,
        message: `${volume.label} gets ${id}, the id of ${other} too`,
        expected: 'a different id for each volume: manuscripts name their volume by it',
      });
    else holder.set(id, volume.label);
    ids.push(id);
  });
  if (errors.length > 0) return { ok: false, errors };
  const disagree = yearDisagreements(volumes, ids, manuscripts);
  return {
    ok: true,
    ids,
    rule: 'explicit',
    reasons: [
      'ids as given by --volume-ids',
      ...(disagree.length
        ? [
            `note: ${disagree.length} manuscript${disagree.length > 1 ? 's are' : ' is'} dated more than ${YEAR_TOLERANCE} year from their volume (${examples(disagree)})`,
          ]
        : []),
    ],
  };
}

function yearDisagreements(
  volumes: readonly VolumeEvidence[],
  ids: readonly number[],
  manuscripts: readonly ManuscriptEvidence[],
): ManuscriptEvidence[] {
  const yearById = new Map(ids.map((id, i) => [id, Number(volumes[i]!.full_date.slice(0, 4))]));
  return manuscripts.filter((m) => {
    const year = yearById.get(m.citation_volume);
    // A manuscript whose volume is unknown is reported on its own (plan.ts); here it is no evidence.
    return year !== undefined && Math.abs(Number(m.citation_date.slice(0, 4)) - year) > YEAR_TOLERANCE;
  });
}

export function numeral(label: string): string {
  return VOLUME_LABEL.exec(label)?.[1] ?? label;
}

/** The value of a Roman numeral (III is 3); 0 for anything that is not one. */
function romanValue(text: string): number {
  const values: Record<string, number> = { I: 1, V: 5, X: 10, L: 50, C: 100, D: 500, M: 1000 };
  let total = 0;
  for (let i = 0; i < text.length; i++) {
    const value = values[text[i]!];
    if (value === undefined) return 0;
    const next = values[text[i + 1] ?? ''] ?? 0;
    total += next > value ? -value : value;
  }
  return total;
}

function examples(ms: readonly ManuscriptEvidence[]): string {
  const shown = ms
    .slice(0, 3)
    .map((m) => `manuscripts[${m.index}] of ${m.citation_date} in volume ${m.citation_volume}`);
  return ms.length > 3 ? `${shown.join(', ')}, ...` : shown.join(', ');
}

function range(ids: readonly number[]): string {
  return ids.length > 6 ? `${ids.slice(0, 5).join(', ')}, ..., ${ids[ids.length - 1]}` : ids.join(', ');
}
