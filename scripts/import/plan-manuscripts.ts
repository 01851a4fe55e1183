/**
 * Manuscripts: the author strings as matched (plan-author-strings.ts), the journal's ISSN and
 * language left out where they are the journal's, `order` only where the source differs from the
 * default order.
 */
import { DOCUMENT_PATH } from '../generator/model/formats.ts';
import { manuscriptSchema } from '../generator/model/schema.ts';
import type { Dump } from './dump.ts';
import { keyMaker, slug } from './keys.ts';
import { planManuscriptOrder, type OrderInference } from './order.ts';
import type { AuthorStrings } from './plan-author-strings.ts';
import type { ToMedia } from './plan-media.ts';
import type { Check, Report } from './plan-problems.ts';
import type { PlannedFile } from './plan-types.ts';
import type { VolumeIdResult } from './volume-ids.ts';

/** What the manuscripts are planned against: the volumes' ids, the matched authors, the journal's defaults. */
export interface ManuscriptContext {
  volumeIds: VolumeIdResult;
  ids: readonly number[];
  /** Each volume's file name without extension, by its id: manuscripts name their volume by it. */
  volumeKeys: ReadonlyMap<number, string>;
  authorStrings: Pick<AuthorStrings, 'refs' | 'comments'>;
  language: string;
  issn: string | undefined;
}

export function planManuscripts(
  manuscripts: Dump['manuscripts'],
  { volumeIds, ids, volumeKeys, authorStrings, language, issn }: ManuscriptContext,
  toMedia: ToMedia,
  report: Report,
  check: Check,
): { files: PlannedFile[]; order: OrderInference } {
  const knownIds = new Set(ids);
  const idsSeen = new Map<number, number>();
  const manuscriptKey = keyMaker();
  const keys = manuscripts.map((m) =>
    manuscriptKey(`${m.id}-${slug(m.citation_title, 'manuscript').slice(0, 40).replace(/-+$/, '')}`),
  );
  const order = planManuscriptOrder(manuscripts, keys);
  const files = manuscripts.map((m, i): PlannedFile => {
    const at = `manuscripts[${i}]`;
    const first = idsSeen.get(m.id);
    if (first !== undefined)
      report(
        'manuscripts',
        `${at}.id`,
        'import/not-representable',
        `${m.id} is also the id of manuscripts[${first}]`,
        'an id no other manuscript has',
      );
    else idsSeen.set(m.id, i);
    if (volumeIds.ok && !knownIds.has(m.citation_volume)) {
      report(
        'manuscripts',
        `${at}.citation_volume`,
        'import/volume-ids',
        `names the volume ${m.citation_volume}, which no volume has (the volume ids are ${[...knownIds].join(', ') || 'none'}; rule: ${volumeIds.rule})`,
        'the id of one of the volumes in the list, or --volume-ids naming it',
      );
    }
    const comments = authorStrings.comments[i];
    const data: Record<string, unknown> = {
      id: m.id,
      // By the volume's file name (docs/content-model.md): the build publishes the volume's id, as
      // the source did. A volume that no file holds is reported above; the id stays as it was.
      ...(volumeKeys.has(m.citation_volume)
        ? { volume: volumeKeys.get(m.citation_volume) }
        : { citation_volume: m.citation_volume }),
      citation_title: m.citation_title,
      citation_date: m.citation_date,
      ...(m.citation_language === language ? {} : { citation_language: m.citation_language }),
      ...(m.udc === '' ? {} : { udc: m.udc }),
      ...(m.citation_issn === issn ? {} : { citation_issn: m.citation_issn }),
      authors: authorStrings.refs[i],
      section: m.section,
      keywords: m.keywords,
      document: toMedia('manuscripts', `${at}.document`, m.document, DOCUMENT_PATH),
      ...(i < order.count ? { order: i + 1 } : {}),
      abstract: m.abstract,
    };
    check('manuscripts', at, manuscriptSchema, data);
    return { path: `manuscripts/${keys[i]}.yaml`, data, ...(comments ? { authorComments: comments } : {}) };
  });
  return { files, order };
}
