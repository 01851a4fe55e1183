/**
 * A manuscript's volume, by key or by id (docs/content-model.md, "Naming the volume"): the keys are
 * resolved to ids once every volume is loaded (model/volume-keys.ts), and the checks across records
 * (resolve.ts, checkReferences) report a key that names no volume or two, a `citation_volume` that
 * disagrees with the key beside it, and warn where an editor may have been misled: a
 * `citation_volume` whose number is not its volume's numeral, a date more than a year from its
 * volume's.
 */
import type { ProblemCode } from '../model/problems.ts';
import type { ManuscriptRecord, Origin, VolumeRecord } from '../model/records.ts';
import { volumeKeys, volumeNumeral, yearsFrom, type VolumeKeys } from '../model/volume-keys.ts';

/**
 * Sets each manuscript that names its volume by `volume` to the id of the volume its key names as
 * the volumes are now (NaN for a key that names none, or two: the checks report it). Set again at
 * every build, so an unchanged manuscript follows a volume renamed or re-labelled.
 */
export function resolveVolumeKeys(volumes: readonly VolumeRecord[], manuscripts: readonly ManuscriptRecord[]): void {
  let keys: VolumeKeys<VolumeRecord> | undefined;
  for (const manuscript of manuscripts) {
    if (manuscript.volume === undefined) continue;
    keys ??= volumeKeys(volumes);
    const match = keys.find(manuscript.volume);
    manuscript.citation_volume = match && 'volume' in match ? match.volume.id : Number.NaN;
  }
}

export type Report = (
  origin: Origin,
  field: string,
  code: ProblemCode,
  message: string,
  expected: string,
  severity?: 'warning',
) => void;

/** How a manuscript names its volume, as the checks read it. */
export interface VolumeNamed {
  /** The key it writes in `volume`, if any. */
  key: string | undefined;
  /** The number it writes in `citation_volume`; NaN or undefined when it writes none. */
  stated: number | undefined;
  /** Its `citation_date`; undefined for a file that failed validation, which gets no warnings (its errors come first). */
  date: string | undefined;
}

/**
 * The checks of manuscripts' volumes against `volumes` (the valid ones) and what is known of the
 * invalid volume files (their keys and ids: naming one is not a second mistake).
 */
export function volumeChecker(
  volumes: readonly VolumeRecord[],
  invalid: readonly { origin: Origin; id?: number | undefined; label?: string | undefined }[],
  report: Report,
  suggest: (wanted: string, known: Iterable<string>) => string | undefined,
  abbreviate: (values: string[]) => string,
): (origin: () => Origin, named: VolumeNamed) => void {
  const byId = new Map<number, VolumeRecord>();
  for (const volume of volumes) if (!byId.has(volume.id)) byId.set(volume.id, volume);
  const ids = new Set([...byId.keys(), ...invalid.flatMap((v) => (v.id === undefined ? [] : [v.id]))]);
  // What is known of the invalid volumes, to tell a key that names one of them.
  const invalidKeys = volumeKeys(
    invalid.map((v) => ({ id: v.id ?? Number.NaN, citation_journal_title: v.label ?? '', origin: v.origin })),
  );
  const someLabelUnknown = invalid.some((v) => v.label === undefined);
  let keys: VolumeKeys<VolumeRecord> | undefined;
  const keysNow = () => (keys ??= volumeKeys(volumes));
  // A volume's date bounds, as text: a manuscript's date is compared with them as text (same shape).
  const bounds = new Map<VolumeRecord, [string, string]>();
  const boundsOf = (volume: VolumeRecord) => {
    let known = bounds.get(volume);
    if (!known) bounds.set(volume, (known = [yearsFrom(volume.full_date, -1), yearsFrom(volume.full_date, 1)]));
    return known;
  };
  const keyList = () =>
    abbreviate(
      [...volumes]
        .sort((a, b) => (a.origin.key < b.origin.key ? -1 : a.origin.key > b.origin.key ? 1 : 0))
        .map((v) => `${v.origin.key} (${v.citation_journal_title})`),
    );
  const label = (volume: VolumeRecord) => `${volume.citation_journal_title} (${volume.origin.file})`;

  return (origin, { key, stated, date }) => {
    const states = stated !== undefined && !Number.isNaN(stated);
    let volume: VolumeRecord | undefined;
    if (key !== undefined) {
      const match = keysNow().find(key);
      if (match === undefined) {
        // A volume that failed validation may be the one meant: its mistakes are reported at it.
        if (invalidKeys.find(key) || someLabelUnknown) return;
        const guess = suggest(key, keysNow().names);
        report(
          origin(),
          'volume',
          'ref/unknown-volume',
          `no volume has the key "${key}"${guess ? `; did you mean "${guess}"?` : ''}`,
          volumes.length
            ? `a volume's file name in content/volumes/ without extension, or its label: ${keyList()}`
            : 'a volume in content/volumes/',
        );
        return;
      }
      if ('ambiguous' in match) {
        // Two volumes with one label: the one mistake is the label, reported at the volume.
        if (new Set(match.ambiguous.map((v) => v.citation_journal_title)).size === 1) return;
        report(
          origin(),
          'volume',
          'ref/ambiguous-volume',
          `"${key}" names more than one volume: ${match.ambiguous.map(label).join(' and ')}`,
          `the file name of the one meant: ${match.ambiguous.map((v) => `volume: ${v.origin.key}`).join(' or ')}`,
        );
        return;
      }
      volume = match.volume;
      if (states && stated !== volume.id) {
        const other = byId.get(stated);
        report(
          origin(),
          'citation_volume',
          'ref/volume-disagrees',
          `${stated} is not the id of ${label(volume)}, which volume: ${key} names (its id is ${volume.id})${other ? `; ${stated} is the id of ${other.citation_journal_title}` : ''}`,
          `volume alone: the published citation_volume is then ${volume.id}, the id of the volume it names`,
        );
        return;
      }
    } else if (states) {
      if (!ids.has(stated)) {
        const known = [...ids].sort((a, b) => a - b);
        report(
          origin(),
          'citation_volume',
          'ref/unknown-volume',
          `no volume has the id ${stated}`,
          known.length ? `one of the volume ids: ${abbreviate(known.map(String))}` : 'a volume in content/volumes/',
        );
        return;
      }
      volume = byId.get(stated);
      const number = volume && volumeNumeral(volume.citation_journal_title);
      if (volume && number !== stated && date !== undefined) {
        report(
          origin(),
          'citation_volume',
          'warn/volume-id',
          `${stated} is the id of ${label(volume)}, not its number: the manuscript is published in ${volume.citation_journal_title}`,
          `the volume by a key that says which it is: volume: ${volume.origin.key}, instead of citation_volume: ${stated}`,
          'warning',
        );
      }
    }
    if (!volume || date === undefined) return;
    const [earliest, latest] = boundsOf(volume);
    if (date < earliest || date > latest) {
      report(
        origin(),
        'citation_date',
        'warn/volume-date',
        `${date} is more than a year from the date of ${volume.citation_journal_title}, ${volume.full_date}`,
        `a date within a year of its volume's full_date: is ${volume.citation_journal_title} the volume meant, and the date right?`,
        'warning',
      );
    }
  };
}
