/**
 * Manuscripts: author strings matched to records (SPEC-NOTES decision 2), kept as published otherwise.
 */
import { DOCUMENT_PATH } from '../generator/model/formats.ts';
import { manuscriptSchema, type AuthorRef } from '../generator/model/schema.ts';
import type { Dump } from './dump.ts';
import { keyMaker, slug } from './keys.ts';
import { compareManuscriptsByDefault, planOrder, type OrderPlan } from './order.ts';
import type { ToMedia } from './plan-media.ts';
import type { Check, Report } from './plan-problems.ts';
import type { AuthorMatch, Inferences, PlannedFile } from './plan-types.ts';
import type { VolumeIdResult } from './volume-ids.ts';

/** What the manuscripts are planned against: the volumes' ids, the authors' names, the journal's defaults. */
export interface ManuscriptContext {
  volumeIds: VolumeIdResult;
  ids: readonly number[];
  byFullName: ReadonlyMap<string, string[]>;
  language: string;
  issn: string | undefined;
}

export function planManuscripts(
  manuscripts: Dump['manuscripts'],
  { volumeIds, ids, byFullName, language, issn }: ManuscriptContext,
  toMedia: ToMedia,
  report: Report,
  check: Check,
): { files: PlannedFile[]; keys: string[]; order: OrderPlan; authorStrings: Inferences['authorStrings'] } {
  const knownIds = new Set(ids);
  const ambiguous = new Map<string, AuthorMatch>();
  const unmatched = new Map<string, AuthorMatch>();
  let authorStrings = 0;
  let matched = 0;
  const idsSeen = new Map<number, number>();
  const manuscriptKey = keyMaker();
  const manuscriptKeys = manuscripts.map((m) =>
    manuscriptKey(`${m.id}-${slug(m.citation_title, 'manuscript').slice(0, 40).replace(/-+$/, '')}`),
  );
  const manuscriptOrder = planOrder(
    manuscripts.map((m, i) => ({ citation_volume: m.citation_volume, id: m.id, key: manuscriptKeys[i]! })),
    compareManuscriptsByDefault,
  );
  const manuscriptFiles = manuscripts.map((m, i): PlannedFile => {
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
    const comments: Record<number, string> = {};
    const authors = m.authors.map((text, j): AuthorRef => {
      authorStrings++;
      const keys = byFullName.get(text) ?? [];
      if (keys.length === 1) {
        matched++;
        return keys[0]!;
      }
      const table = keys.length ? ambiguous : unmatched;
      const entry = table.get(text) ?? { text, candidates: keys, at: [] };
      entry.at.push(`${at}.authors[${j}]`);
      table.set(text, entry);
      comments[j] = keys.length
        ? `several authors have this name: ${keys.join(', ')}`
        : 'no author record has this name';
      return { as_published: text };
    });
    const data: Record<string, unknown> = {
      id: m.id,
      citation_volume: m.citation_volume,
      citation_title: m.citation_title,
      citation_date: m.citation_date,
      ...(m.citation_language === language ? {} : { citation_language: m.citation_language }),
      ...(m.udc === '' ? {} : { udc: m.udc }),
      ...(m.citation_issn === issn ? {} : { citation_issn: m.citation_issn }),
      authors,
      section: m.section,
      keywords: m.keywords,
      document: toMedia('manuscripts', `${at}.document`, m.document, DOCUMENT_PATH),
      ...(i < manuscriptOrder.count ? { order: i + 1 } : {}),
      abstract: m.abstract,
    };
    check('manuscripts', at, manuscriptSchema, data);
    return {
      path: `manuscripts/${manuscriptKeys[i]}.yaml`,
      data,
      ...(Object.keys(comments).length ? { authorComments: comments } : {}),
    };
  });
  return {
    files: manuscriptFiles,
    keys: manuscriptKeys,
    order: manuscriptOrder,
    authorStrings: {
      total: authorStrings,
      matched,
      ambiguous: [...ambiguous.values()],
      unmatched: [...unmatched.values()],
    },
  };
}
