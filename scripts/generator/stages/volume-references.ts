/**
 * A manuscript's volume, by key or by id (docs/content-model.md, "Naming the volume"): the keys are
 * resolved to ids once every volume is loaded (model/volume-keys.ts), and the checks across records
 * (resolve.ts, checkReferences) report a key that names no volume or two, a `citation_volume` that
 * disagrees with the key beside it, and warn where an editor may have been misled: a
 * `citation_volume` whose number is not its volume's numeral, a date more than a year from its
 * volume's.
 */
import type { ProblemCode } from '../model/problems.ts';
import { countText } from '../../shared/count-text.ts';
import type { ManuscriptRecord, Origin, VolumeRecord } from '../model/records.ts';
import { volumeKeys, volumeNumeral, yearsFrom, type VolumeKeys, type VolumeMatch } from '../model/volume-keys.ts';
import { isCanonicalRoman, numberToRoman, romanToNumber } from '../model/formats.ts';

/**
 * The volume number a key gives, if it gives one: `7`, `VII`, `Volume VII`, `volume-7`, `vol. 7`
 * (as volume-keys.ts reads a numeral, and as file names are written).
 */
function numeralIn(key: string): number | undefined {
  const written = /^\s*(?:vol(?:ume)?\.?[\s_-]*)?([0-9]+|[ivxlcdm]+)\s*$/i.exec(key)?.[1];
  if (written === undefined) return undefined;
  if (/^[0-9]+$/.test(written)) return Number(written) > 0 && Number(written) < 4000 ? Number(written) : undefined;
  const roman = written.toUpperCase();
  return isCanonicalRoman(roman) ? romanToNumber(roman) : undefined;
}

/**
 * Sets each manuscript that names its volume by `volume` to the id of the volume its key names as
 * the volumes are now (NaN for a key that names none, or two: the checks report it). Set again at
 * every build, so an unchanged manuscript follows a volume renamed or re-labelled.
 */
export function resolveVolumeKeys(volumes: readonly VolumeRecord[], manuscripts: readonly ManuscriptRecord[]): void {
  let keys: VolumeKeys<VolumeRecord> | undefined;
  // Keys repeat (a journal has few volumes): each spelling is looked up once.
  const ids = new Map<string, number>();
  for (const manuscript of manuscripts) {
    const key = manuscript.volume;
    if (key === undefined) continue;
    let id = ids.get(key);
    if (id === undefined) {
      const match = (keys ??= volumeKeys(volumes)).find(key);
      ids.set(key, (id = match && 'volume' in match ? match.volume.id : Number.NaN));
    }
    manuscript.citation_volume = id;
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

/** Checks one manuscript's volume; `finish` reports what was held back. */
export interface VolumeCheck {
  check(origin: () => Origin, key: string | undefined, stated: number | undefined, date: string | undefined): void;
  finish(): void;
}

/**
 * Warnings of one kind reported one by one, at their files' lines; the rest are counted in one
 * more. A journal written before `volume` whose ids are not its numerals warns for every
 * manuscript, and locating each warning reads its file again (a parse per file, at 100,000
 * manuscripts many seconds of every build).
 */
export const WARNINGS_SHOWN = 20;

/**
 * What the checks know of a valid volume, made once: a check after an edit runs them for every
 * manuscript (100,000), so nothing is worked out again per manuscript.
 */
interface VolumeFacts {
  volume: VolumeRecord;
  /** Its label's numeral as a number; undefined for none. */
  numeral: number | undefined;
  /** Its date a year before and a year after, as text: a manuscript's date is compared as text (same shape). */
  earliest: string;
  latest: string;
}

/**
 * The checks of manuscripts' volumes against `volumes` (the valid ones) and what is known of the
 * invalid volume files (their keys, ids and labels: naming one is not a second mistake). The
 * checker takes a manuscript's `volume` key, the `citation_volume` it writes (NaN or undefined for
 * none) and its date (undefined for a file that failed validation, which gets no warnings: its
 * errors come first).
 */
export function volumeChecker(
  volumes: readonly VolumeRecord[],
  invalid: readonly { origin: Origin; id?: number | undefined; label?: string | undefined }[],
  report: Report,
  suggest: (wanted: string, known: Iterable<string>) => string | undefined,
  abbreviate: (values: string[]) => string,
): VolumeCheck {
  const factsOf = new Map<VolumeRecord, VolumeFacts>();
  const byId = new Map<number, VolumeFacts>();
  for (const volume of volumes) {
    const facts: VolumeFacts = {
      volume,
      numeral: volumeNumeral(volume.citation_journal_title),
      earliest: yearsFrom(volume.full_date, -1),
      latest: yearsFrom(volume.full_date, 1),
    };
    factsOf.set(volume, facts);
    if (!byId.has(volume.id)) byId.set(volume.id, facts);
  }
  const invalidIds = new Set(invalid.flatMap((v) => (v.id === undefined ? [] : [v.id])));
  // What is known of the invalid volumes, to tell a key that names one of them.
  const invalidKeys = volumeKeys(
    invalid.map((v) => ({ id: v.id ?? Number.NaN, citation_journal_title: v.label ?? '', origin: v.origin })),
  );
  const someLabelUnknown = invalid.some((v) => v.label === undefined);
  const keys = volumeKeys(volumes);
  // Keys repeat (a journal has few volumes): each spelling is looked up once.
  const found = new Map<string, VolumeMatch<VolumeRecord>>();
  const keyList = () =>
    abbreviate(
      [...volumes]
        .sort((a, b) => (a.origin.key < b.origin.key ? -1 : a.origin.key > b.origin.key ? 1 : 0))
        .map((v) => `${v.origin.key} (${v.citation_journal_title})`),
    );
  const label = (volume: VolumeRecord) => `${volume.citation_journal_title} (${volume.origin.file})`;

  const byKey = (origin: () => Origin, key: string, stated: number | undefined): VolumeFacts | undefined => {
    let match = found.get(key);
    if (match === undefined && !found.has(key)) found.set(key, (match = keys.find(key)));
    if (match === undefined) {
      // A volume that failed validation may be the one meant: its mistakes are reported at it.
      if (invalidKeys.find(key) || someLabelUnknown) return undefined;
      // A key that gives a number names that volume or none: "did you mean Volume II?" for
      // Volume VII would send the manuscript to the wrong volume.
      const numeral = numeralIn(key);
      const guess = numeral === undefined ? suggest(key, keys.names) : undefined;
      report(
        origin(),
        'volume',
        'ref/unknown-volume',
        `no volume has the key "${key}"${numeral !== undefined ? `: there is no Volume ${numberToRoman(numeral)}` : guess ? `; did you mean "${guess}"?` : ''}`,
        volumes.length
          ? `a volume's file name in content/volumes/ without extension, or its label: ${keyList()}`
          : 'a volume in content/volumes/',
      );
      return undefined;
    }
    if ('ambiguous' in match) {
      // Two volumes with one label: the one mistake is the label, reported at the volume.
      if (new Set(match.ambiguous.map((v) => v.citation_journal_title)).size === 1) return undefined;
      report(
        origin(),
        'volume',
        'ref/ambiguous-volume',
        `"${key}" names more than one volume: ${match.ambiguous.map(label).join(' and ')}`,
        `the file name of the one meant: ${match.ambiguous.map((v) => `volume: ${v.origin.key}`).join(' or ')}`,
      );
      return undefined;
    }
    const volume = match.volume;
    if (stated !== undefined && !Number.isNaN(stated) && stated !== volume.id) {
      const other = byId.get(stated)?.volume;
      report(
        origin(),
        'citation_volume',
        'ref/volume-disagrees',
        `${stated} is not the id of ${label(volume)}, which volume: ${key} names (its id is ${volume.id})${other ? `; ${stated} is the id of ${other.citation_journal_title}` : ''}`,
        `volume alone: the published citation_volume is then ${volume.id}, the id of the volume it names`,
      );
      return undefined;
    }
    return factsOf.get(volume);
  };

  const byStatedId = (origin: () => Origin, stated: number, date: string | undefined): VolumeFacts | undefined => {
    const facts = byId.get(stated);
    if (!facts) {
      if (invalidIds.has(stated)) return undefined;
      const known = [...new Set([...byId.keys(), ...invalidIds])].sort((a, b) => a - b);
      report(
        origin(),
        'citation_volume',
        'ref/unknown-volume',
        `no volume has the id ${stated}`,
        known.length ? `one of the volume ids: ${abbreviate(known.map(String))}` : 'a volume in content/volumes/',
      );
      return undefined;
    }
    if (facts.numeral !== stated && date !== undefined) {
      const volume = facts.volume;
      warn(
        origin(),
        'citation_volume',
        'warn/volume-id',
        `${stated} is the id of ${label(volume)}, not its number: the manuscript is published in ${volume.citation_journal_title}`,
        `the volume by a key that says which it is: volume: ${volume.origin.key}, instead of citation_volume: ${stated}`,
      );
    }
    return facts;
  };

  const warned = new Map<ProblemCode, number>();
  const warn: Report = (origin, field, code, message, expected) => {
    const count = (warned.get(code) ?? 0) + 1;
    warned.set(code, count);
    if (count <= WARNINGS_SHOWN) report(origin, field, code, message, expected, 'warning');
  };
  const check: VolumeCheck['check'] = (origin, key, stated, date) => {
    const facts =
      key !== undefined
        ? byKey(origin, key, stated)
        : stated !== undefined && !Number.isNaN(stated)
          ? byStatedId(origin, stated, date)
          : undefined;
    if (facts === undefined || date === undefined) return;
    if (date < facts.earliest || date > facts.latest) {
      const volume = facts.volume;
      warn(
        origin(),
        'citation_date',
        'warn/volume-date',
        `${date} is more than a year from the date of ${volume.citation_journal_title}, ${volume.full_date}`,
        `a date within a year of its volume's full_date: is ${volume.citation_journal_title} the volume meant, and the date right?`,
      );
    }
  };
  const more: Record<string, string> = {
    'warn/volume-id': 'name their volume by an id that is not its numeral',
    'warn/volume-date': "are dated more than a year from their volume's date",
  };
  return {
    check,
    finish() {
      for (const [code, count] of warned) {
        if (count <= WARNINGS_SHOWN) continue;
        const origin: Origin = { file: 'content/manuscripts', key: '', at: { '': { line: 0, column: 0 } } };
        report(
          origin,
          '',
          code,
          `${countText(count - WARNINGS_SHOWN)} more manuscripts ${more[code] ?? 'have this warning'} besides the ${WARNINGS_SHOWN} shown`,
          code === 'warn/volume-id'
            ? "volume: with the volume's file name in each, as the warnings shown say"
            : 'each date checked against its volume',
          'warning',
        );
      }
    },
  };
}
