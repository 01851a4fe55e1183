/**
 * How a manuscript names its volume with `volume:` (docs/content-model.md, "Naming the volume"): by
 * a key an editor can read, never by the volume's id, whose number may differ from the volume's
 * numeral (SPEC-NOTES 1: Volume V has id 1 in the original deployment). The key is resolved to the
 * id after every file is loaded (stages/volume-references.ts), so renaming or re-labelling a volume
 * is picked up without the manuscript changing.
 *
 * A key names a volume when, compared without regard to case, with leading and trailing spaces
 * dropped and runs of spaces read as one, it is:
 *   - the volume file's name without its extension (`volume-v`);
 *   - its label (`Volume V`), or the label with the numeral in Arabic digits (`Volume 5`);
 *   - the label's numeral, in Roman (`V`) or Arabic (`5`) numerals: the volume's number, not its id.
 * A key that names two volumes (a file named `ii.yaml` that holds Volume I, beside Volume II) is
 * ambiguous, and refused.
 */
import { VOLUME_LABEL, numberToRoman, romanToNumber } from './formats.ts';

/** What the keys are read from: a volume record, or what the checks know of one. */
export interface NamedVolume {
  id: number;
  citation_journal_title: string;
  origin: { key: string; file: string };
}

export const VOLUME_KEY_DESCRIPTION =
  "the manuscript's volume: the volume's file name in content/volumes/ without extension (volume-v), its label (Volume V) or the label's numeral (V, or 5)";

/** The number a volume's label gives it ("Volume V" → 5); undefined for a label of another shape. */
export function volumeNumeral(label: string): number | undefined {
  const numeral = VOLUME_LABEL.exec(label)?.[1];
  return numeral === undefined ? undefined : romanToNumber(numeral);
}

/** A key as it is compared: trimmed, one space for a run of them, lower case. */
function normalVolumeKey(key: string): string {
  return key.trim().replace(/\s+/g, ' ').toLowerCase();
}

export type VolumeMatch<V> = { volume: V } | { ambiguous: readonly V[] } | undefined;

export interface VolumeKeys<V> {
  /** The volume a key names; `ambiguous` when it names more than one; undefined when none. */
  find(key: string): VolumeMatch<V>;
  /** What an editor may write, for "did you mean": each volume's file name and label. */
  readonly names: readonly string[];
}

export function volumeKeys<V extends NamedVolume>(volumes: readonly V[]): VolumeKeys<V> {
  const byKey = new Map<string, V[]>();
  const add = (key: string, volume: V) => {
    const normal = normalVolumeKey(key);
    const named = byKey.get(normal);
    if (!named) byKey.set(normal, [volume]);
    else if (!named.includes(volume)) named.push(volume);
  };
  for (const volume of volumes) {
    add(volume.origin.key, volume);
    add(volume.citation_journal_title, volume);
    const number = volumeNumeral(volume.citation_journal_title);
    if (number === undefined) continue;
    add(String(number), volume);
    add(numberToRoman(number), volume);
    add(`Volume ${number}`, volume);
  }
  return {
    find(key) {
      const named = byKey.get(normalVolumeKey(key));
      if (!named) return undefined;
      return named.length === 1 ? { volume: named[0]! } : { ambiguous: named };
    },
    names: volumes.flatMap((v) => [v.origin.key, v.citation_journal_title]),
  };
}

/** `date` shifted by `years` whole years, as YYYY-MM-DD text (compared as text: same shape). */
export function yearsFrom(date: string, years: number): string {
  const year = Number(date.slice(0, 4)) + years;
  return `${String(year).padStart(4, '0')}${date.slice(4)}`;
}
