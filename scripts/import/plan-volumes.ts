/**
 * Volumes: ids inferred (volume-ids.ts), the rest copied; the journal's ISSN and language are
 * left out where they are the journal's (the build fills them in, docs/content-model.md); `order`
 * only where the ids do not follow the source's order (a deployment whose citation_volume is the
 * volume's number, listed V, I, II, III, IV).
 */
import { VOLUME_PDF_PATH } from '../generator/model/formats.ts';
import { volumeSchema } from '../generator/model/schema.ts';
import type { Dump } from './dump.ts';
import { keyMaker, slug } from './keys.ts';
import type { ToMedia } from './plan-media.ts';
import type { Check, Report } from './plan-problems.ts';
import { planVolumeOrder, type OrderInference } from './order.ts';
import type { Inferences, PlannedFile } from './plan-types.ts';
import { inferVolumeIds, numeral, type VolumeIdResult } from './volume-ids.ts';

export function planVolumeIds(
  dump: Dump,
  explicit: string | undefined,
  report: Report,
): { result: VolumeIdResult; ids: number[]; inference: Inferences['volumeIds'] } {
  const result = inferVolumeIds(
    dump.volumes.map((v) => ({ label: v.citation_journal_title, full_date: v.full_date })),
    dump.manuscripts.map((m, index) => ({ index, citation_volume: m.citation_volume, citation_date: m.citation_date })),
    explicit,
  );
  if (!result.ok) for (const e of result.errors) report('volumes', e.field, 'import/volume-ids', e.message, e.expected);
  // Positions stand in for ids that cannot be inferred, so every volume is still planned and checked.
  const ids = result.ok ? result.ids : dump.volumes.map((_, i) => i + 1);
  return {
    result,
    ids,
    inference: {
      rule: result.ok ? result.rule : 'position',
      reasons: result.ok ? result.reasons : [],
      ids: dump.volumes.map((v, i) => ({ label: v.citation_journal_title, id: ids[i]! })),
    },
  };
}

export function planVolumes(
  volumes: Dump['volumes'],
  ids: readonly number[],
  language: string,
  toMedia: ToMedia,
  report: Report,
  check: Check,
): { files: PlannedFile[]; order: OrderInference; keyById: Map<number, string> } {
  const volumeKey = keyMaker();
  const keys = volumes.map((v, i) =>
    volumeKey(slug(`volume ${numeral(v.citation_journal_title)}`, `volume-${ids[i]}`)),
  );
  const order = planVolumeOrder(ids, keys);
  const labelsSeen = new Map<string, number>();
  const files = volumes.map((v, i): PlannedFile => {
    const at = `volumes[${i}]`;
    const first = labelsSeen.get(v.citation_journal_title);
    if (first !== undefined)
      report(
        'volumes',
        `${at}.citation_journal_title`,
        'import/not-representable',
        `"${v.citation_journal_title}" is also the label of volumes[${first}]`,
        'a label no other volume has',
      );
    else labelsSeen.set(v.citation_journal_title, i);
    const data: Record<string, unknown> = {
      id: ids[i],
      citation_journal_title: v.citation_journal_title,
      ...(v.citation_language === language ? {} : { citation_language: v.citation_language }),
      udc: v.udc,
      first_page: v.first_page,
      last_page: v.last_page,
      full_date: v.full_date,
      pdf: toMedia('volumes', `${at}.pdf`, v.pdf, VOLUME_PDF_PATH),
      ...(i < order.count ? { order: i + 1 } : {}),
    };
    check('volumes', at, volumeSchema, data);
    if (/^\d+$/.test(v.first_page) && /^\d+$/.test(v.last_page) && Number(v.last_page) < Number(v.first_page)) {
      report(
        'volumes',
        `${at}.last_page`,
        'import/not-representable',
        `${v.last_page} is before first_page ${v.first_page}: the build would refuse it`,
        'a last page at or after the first',
      );
    }
    return { path: `volumes/${keys[i]}.yaml`, data };
  });
  // The first volume of an id, when two share one (reported as a duplicate by the build).
  const keyById = new Map<number, string>();
  ids.forEach((id, i) => keyById.has(id) || keyById.set(id, keys[i]!));
  return { files, order, keyById };
}
