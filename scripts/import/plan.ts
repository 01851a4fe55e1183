/**
 * The heart of the import, pure: the checked dump in, the content files (as data), the PDFs to
 * fetch, every inference and every record that cannot be represented out. Nothing here touches
 * the disk or the network, so tests call it directly and the command writes only what it planned.
 *
 * Each record is checked with the build's own schemas (scripts/generator/model/schema.ts), so a value
 * the build would refuse is reported here, with its list, index and field, instead of being changed.
 */
import type { Problem } from '../generator/model/problems.ts';
import type { ApiList } from '../shared/contract.ts';
import type { Dump } from './dump.ts';
import { matchAuthorStrings } from './plan-author-strings.ts';
import { planAuthors } from './plan-authors.ts';
import { planJournal } from './plan-journal.ts';
import { planManuscripts } from './plan-manuscripts.ts';
import { mediaPlanner } from './plan-media.ts';
import { problemReporter } from './plan-problems.ts';
import type { Inferences, Plan, PlanOptions } from './plan-types.ts';
import { planVolumeIds, planVolumes } from './plan-volumes.ts';

export type {
  AuthorMatch,
  Collection,
  Inferences,
  Plan,
  PlanOptions,
  PlannedFile,
  PlannedMedia,
} from './plan-types.ts';

export function planImport(
  dump: Dump,
  labels: Record<ApiList, string>,
  options: PlanOptions,
): { plan?: Plan; problems: Problem[] } {
  const problems: Problem[] = [];
  // A value the build refuses does not stop the import: the record is written as it is, and the
  // build names it at its file and line (docs/importing.md, "Values that cannot be imported").
  const refused: Problem[] = [];
  const { report, check } = problemReporter(problems, labels, refused);

  // Each step needs what an earlier one found (the journal's language, ISSN and media origin, the
  // volume ids, the authors' keys), and the problems come in the order the steps run.
  const journal = planJournal(dump, options, report, check);
  const volumeIds = planVolumeIds(dump, options.volumeIds, report);
  const media = mediaPlanner(options.localMedia, journal.mediaUrl, report);
  const volumes = planVolumes(dump.volumes, volumeIds.ids, journal.language, media.toMedia, report, check);
  const authors = planAuthors(dump.authors, check);
  const authorStrings = matchAuthorStrings(dump.manuscripts, dump.authors, authors.keys);
  const manuscripts = planManuscripts(
    dump.manuscripts,
    {
      volumeIds: volumeIds.result,
      ids: volumeIds.ids,
      volumeKeys: volumes.keyById,
      authorStrings,
      language: journal.language,
      issn: journal.issn,
    },
    media.toMedia,
    report,
    check,
  );
  if (problems.length > 0) return { problems };

  return {
    plan: {
      journal: { path: 'journal.yaml', data: journal.data },
      files: { authors: authors.files, volumes: volumes.files, manuscripts: manuscripts.files },
      media: media.planned,
      refused,
      inferences: {
        volumeIds: volumeIds.inference,
        authorStrings: authorStrings.inference,
        order: { authors: authors.order, volumes: volumes.order, manuscripts: manuscripts.order },
        journal: journal.inferences,
        kept: keptValues(dump),
        omitted: omittedValues(dump, journal.language, journal.issn),
      },
    },
    problems,
  };
}

/** Values the records leave out: the journal's own (the build fills them in) and empty UDCs. */
function omittedValues(dump: Dump, language: string, issn: string | undefined): Inferences['omitted'] {
  return [
    {
      label: "volume languages equal to the journal's",
      count: dump.volumes.filter((v) => v.citation_language === language).length,
    },
    {
      label: "manuscript languages equal to the journal's",
      count: dump.manuscripts.filter((m) => m.citation_language === language).length,
    },
    {
      label: "manuscript ISSNs equal to the journal's",
      count: dump.manuscripts.filter((m) => m.citation_issn === issn).length,
    },
    { label: 'empty manuscript UDCs', count: dump.manuscripts.filter((m) => m.udc === '').length },
  ].filter((o) => o.count > 0);
}

/** Values worth a line in the summary: allowed, unusual, and kept exactly. */
function keptValues(dump: Dump): Inferences['kept'] {
  const strings = (record: object) =>
    Object.values(record)
      .flatMap((v) => (Array.isArray(v) ? v : [v]))
      .filter((v): v is string => typeof v === 'string');
  const all = [...dump.authors, ...dump.volumes, ...dump.manuscripts];
  const count = (test: (s: string) => boolean) => all.filter((r) => strings(r).some(test)).length;
  return [
    {
      label: 'manuscripts with an empty citation_language',
      count: dump.manuscripts.filter((m) => m.citation_language === '').length,
    },
    {
      label: 'manuscripts with an empty citation_issn',
      count: dump.manuscripts.filter((m) => m.citation_issn === '').length,
    },
    { label: 'abstracts with markup', count: dump.manuscripts.filter((m) => /<\/?[A-Za-z]/.test(m.abstract)).length },
    { label: 'records with U+2028 or U+2029', count: count((s) => /[\u2028\u2029]/.test(s)) },
    { label: 'records with characters outside the BMP', count: count((s) => /[\uD800-\uDBFF]/.test(s)) },
    { label: 'records with combining marks', count: count((s) => /\p{M}/u.test(s)) },
    {
      label: 'records with right-to-left text',
      count: count((s) => /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/.test(s)),
    },
  ].filter((k) => k.count > 0);
}
