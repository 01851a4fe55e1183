/**
 * The heart of the import, pure: the checked dump in, the content files (as data), the PDFs to
 * fetch, every inference and every record that cannot be represented out. Nothing here touches
 * the disk or the network, so tests call it directly and the command writes only what it planned.
 *
 * Each record is checked with the build's own schemas (scripts/generator/model/schema.ts), so a value
 * the build would refuse is reported here, with its list, index and field, instead of being changed.
 */
import type { z } from 'zod';
import { DOCUMENT_PATH, VOLUME_PDF_PATH, absoluteMediaPath } from '../generator/model/formats.ts';
import type { Problem } from '../generator/model/problems.ts';
import type { ApiList } from '../shared/contract.ts';
import {
  authorSchema,
  journalSchema,
  manuscriptSchema,
  volumeSchema,
  type AuthorRef,
  type IssueParams,
} from '../generator/model/schema.ts';
import { fieldName } from '../generator/stages/validate.ts';
import type { Dump } from './dump.ts';
import { keyMaker, slug } from './keys.ts';
import { compareAuthorsByDefault, compareManuscriptsByDefault, planOrder, type OrderPlan } from './order.ts';
import { inferVolumeIds, numeral, type VolumeIdRule } from './volume-ids.ts';

export interface PlanOptions {
  /** `--volume-ids V=1,I=2,...` */
  volumeIds?: string;
  title?: string;
  baseUrl?: string;
  /** The origin the lists were fetched from, when the source was a URL. */
  sourceOrigin?: string;
  /** Switch every PDF to a file under content/media/ (`--download-media`). */
  localMedia: boolean;
}

export type Collection = 'authors' | 'volumes' | 'manuscripts';

export interface PlannedFile {
  /** Relative to content/, forward slashes. */
  path: string;
  data: Record<string, unknown>;
  /** Comments for items of the manuscript's `authors` list, by position (why it is kept as published). */
  authorComments?: Record<number, string>;
}

export interface PlannedMedia {
  url: string;
  /** Relative to content/media/, e.g. `pdfs/x.pdf`. */
  path: string;
  /** The records that name it, e.g. `manuscripts[3].document`. */
  usedBy: string[];
}

export interface AuthorMatch {
  text: string;
  /** Keys of the records with that full name: several (ambiguous) or none. */
  candidates: string[];
  at: string[];
}

export interface Inferences {
  volumeIds: { rule: VolumeIdRule; reasons: string[]; ids: { label: string; id: number }[] };
  authorStrings: { total: number; matched: number; ambiguous: AuthorMatch[]; unmatched: AuthorMatch[] };
  order: Record<'authors' | 'manuscripts', OrderPlan & { total: number; rule: string; firstDifferenceKey?: string }>;
  journal: { field: string; value: string; from: string; placeholder?: boolean }[];
  /** Values the contract allows and the import keeps as they are. */
  kept: { label: string; count: number }[];
  omitted: { label: string; count: number }[];
}

export interface Plan {
  journal: PlannedFile;
  files: Record<Collection, PlannedFile[]>;
  media: PlannedMedia[];
  inferences: Inferences;
}

export const TITLE_PLACEHOLDER = 'Imported journal (set its title in content/journal.yaml)';

export function planImport(
  dump: Dump,
  labels: Record<ApiList, string>,
  options: PlanOptions,
): { plan?: Plan; problems: Problem[] } {
  const problems: Problem[] = [];
  const report = (
    list: ApiList | 'journal',
    field: string,
    code: Problem['code'],
    message: string,
    expected?: string,
  ) =>
    problems.push({
      code,
      file: list === 'journal' ? 'content/journal.yaml' : labels[list],
      line: 0,
      column: 0,
      field,
      message,
      ...(expected ? { expected } : {}),
    });
  const check = (list: ApiList | 'journal', at: string, schema: z.ZodType, data: unknown) => {
    const result = schema.safeParse(data);
    if (result.success) return;
    for (const issue of result.error.issues) {
      const params = (issue as { params?: Partial<IssueParams> }).params;
      report(
        list,
        fieldName([at, ...issue.path]).replace(/^journal\./, ''),
        'import/not-representable',
        `${issue.message}: the build would refuse it`,
        params?.expected,
      );
    }
  };

  // journal.yaml: settings taken from what the lists show.
  const journalInferences: Inferences['journal'] = [];
  const issns = countValues(dump.volumes.map((v) => v.citation_issn));
  const issn = issns[0]?.[0] ?? mostCommon(dump.manuscripts.map((m) => m.citation_issn).filter(Boolean));
  if (issns.length > 1) {
    dump.volumes.forEach((v, i) => {
      if (v.citation_issn !== issn)
        report(
          'volumes',
          `volumes[${i}].citation_issn`,
          'import/not-representable',
          `"${v.citation_issn}" differs from "${issn}" (${issns[0]![1]} volumes)`,
          'the same ISSN in every volume (SPEC 2.2)',
        );
    });
  }
  if (issn === undefined)
    report(
      'volumes',
      'volumes',
      'import/not-representable',
      'no volume or manuscript gives an ISSN',
      "at least one volume, whose citation_issn becomes the journal's",
    );
  journalInferences.push({
    field: 'citation_issn',
    value: issn ?? '',
    from: dump.volumes.length
      ? `the volumes (${issns.length === 1 ? `all ${dump.volumes.length} agree` : 'they disagree'})`
      : 'the manuscripts (there are no volumes)',
  });

  const languages = countValues(dump.volumes.map((v) => v.citation_language));
  const language =
    languages[0]?.[0] ?? mostCommon(dump.manuscripts.map((m) => m.citation_language).filter(Boolean)) ?? 'English';
  journalInferences.push({
    field: 'citation_language',
    value: language,
    from: languages.length
      ? `the most common volume language (${languages[0]![1]} of ${dump.volumes.length} volumes)`
      : 'a default: no volume gives one',
    ...(languages.length ? {} : { placeholder: true }),
  });

  const pdfUrls = [...dump.volumes.map((v) => v.pdf), ...dump.manuscripts.map((m) => m.document)];
  const origins = countValues(pdfUrls.map(originOf).filter((o): o is string => o !== undefined));
  const baseUrl = options.baseUrl ?? options.sourceOrigin ?? origins[0]?.[0];
  const mediaUrl = origins[0]?.[0] ?? baseUrl;
  journalInferences.push({
    field: 'media_url',
    value: mediaUrl ?? '',
    from: origins.length
      ? `the PDFs' URLs (${origins.length === 1 ? `all ${pdfUrls.length}` : `${origins[0]![1]} of ${pdfUrls.length}`})`
      : 'base_url: no PDF URL to take it from',
  });
  journalInferences.push({
    field: 'base_url',
    value: baseUrl ?? '',
    from: options.baseUrl
      ? '--base-url'
      : options.sourceOrigin
        ? 'the source URL'
        : "the PDFs' origin (pass --base-url to set another)",
    ...(options.baseUrl || options.sourceOrigin ? {} : { placeholder: true }),
  });
  if (baseUrl === undefined)
    report(
      'journal',
      'base_url',
      'import/not-representable',
      'cannot be inferred: the source is a file and no PDF names an origin',
      '--base-url https://journal.example.org',
    );
  journalInferences.push({
    field: 'title',
    value: options.title ?? TITLE_PLACEHOLDER,
    from: options.title ? '--title' : 'a placeholder: edit it',
    ...(options.title ? {} : { placeholder: true }),
  });

  const sections = [...new Set(dump.manuscripts.map((m) => m.section))];
  const journalData: Record<string, unknown> = {
    title: options.title ?? TITLE_PLACEHOLDER,
    base_url: baseUrl ?? '',
    media_url: mediaUrl ?? '',
    citation_issn: issn ?? '',
    citation_language: language,
    ...(sections.length ? { sections } : {}),
  };
  if (baseUrl !== undefined && issn !== undefined) check('journal', 'journal', journalSchema, journalData);

  // Volumes: ids inferred (volume-ids.ts), the rest copied; the journal's ISSN and language are
  // left out where they are the journal's (the build fills them in, docs/content-model.md).
  const volumeIds = inferVolumeIds(
    dump.volumes.map((v) => ({ label: v.citation_journal_title, full_date: v.full_date })),
    dump.manuscripts.map((m, index) => ({ index, citation_volume: m.citation_volume, citation_date: m.citation_date })),
    options.volumeIds,
  );
  if (!volumeIds.ok)
    for (const e of volumeIds.errors) report('volumes', e.field, 'import/volume-ids', e.message, e.expected);
  const ids = volumeIds.ok ? volumeIds.ids : dump.volumes.map((_, i) => i + 1);
  const media = new Map<string, PlannedMedia>();
  const toMedia = (list: ApiList, at: string, url: string, shape: RegExp): string => {
    if (!options.localMedia) return url;
    const local = absoluteMediaPath(url);
    if (
      local === undefined ||
      originOf(url) !== mediaUrl ||
      url !== `${mediaUrl}/media/${local}` ||
      !shape.test(local)
    ) {
      report(
        list,
        at,
        'import/media',
        `${JSON.stringify(url)} cannot become a file under content/media/`,
        `a URL ${mediaUrl}/media/<path> whose path is letters, digits, ".", "_" and "-" (or import without --download-media and keep the URL)`,
      );
      return url;
    }
    const entry = media.get(local) ?? { url, path: local, usedBy: [] };
    entry.usedBy.push(at);
    media.set(local, entry);
    return local;
  };

  const volumeKey = keyMaker();
  const labelsSeen = new Map<string, number>();
  const volumeFiles = dump.volumes.map((v, i): PlannedFile => {
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
    return {
      path: `volumes/${volumeKey(slug(`volume ${numeral(v.citation_journal_title)}`, `volume-${ids[i]}`))}.yaml`,
      data,
    };
  });

  // Authors: keys from the names; `order` only where the source differs from the default order.
  const authorKey = keyMaker();
  const authorKeys = dump.authors.map((a) => authorKey(slug(`${a.name} ${a.surname}`, 'author')));
  const authorOrder = planOrder(
    dump.authors.map((a, i) => ({ institution: a.institution, key: authorKeys[i]! })),
    compareAuthorsByDefault,
  );
  const byFullName = new Map<string, string[]>();
  const authorFiles = dump.authors.map((a, i): PlannedFile => {
    const key = authorKeys[i]!;
    const full = `${a.name} ${a.surname}`;
    byFullName.set(full, [...(byFullName.get(full) ?? []), key]);
    const data: Record<string, unknown> = {
      name: a.name,
      surname: a.surname,
      institution: a.institution,
      ...(i < authorOrder.count ? { order: i + 1 } : {}),
    };
    check('authors', `authors[${i}]`, authorSchema, data);
    return { path: `authors/${key}.yaml`, data };
  });

  // Manuscripts: author strings matched to records (SPEC-NOTES decision 2), kept as published otherwise.
  const knownIds = new Set(ids);
  const ambiguous = new Map<string, AuthorMatch>();
  const unmatched = new Map<string, AuthorMatch>();
  let authorStrings = 0;
  let matched = 0;
  const idsSeen = new Map<number, number>();
  const manuscriptKey = keyMaker();
  const manuscriptKeys = dump.manuscripts.map((m) =>
    manuscriptKey(`${m.id}-${slug(m.citation_title, 'manuscript').slice(0, 40).replace(/-+$/, '')}`),
  );
  const manuscriptOrder = planOrder(
    dump.manuscripts.map((m, i) => ({ citation_volume: m.citation_volume, id: m.id, key: manuscriptKeys[i]! })),
    compareManuscriptsByDefault,
  );
  const manuscriptFiles = dump.manuscripts.map((m, i): PlannedFile => {
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

  if (problems.length > 0) return { problems };
  const orderInfo = <T>(plan: OrderPlan, total: number, rule: string, keys: readonly T[]) => ({
    ...plan,
    total,
    rule,
    ...(plan.firstDifference !== undefined ? { firstDifferenceKey: String(keys[plan.firstDifference]) } : {}),
  });
  return {
    plan: {
      journal: { path: 'journal.yaml', data: journalData },
      files: { authors: authorFiles, volumes: volumeFiles, manuscripts: manuscriptFiles },
      media: [...media.values()],
      inferences: {
        volumeIds: {
          rule: volumeIds.ok ? volumeIds.rule : 'position',
          reasons: volumeIds.ok ? volumeIds.reasons : [],
          ids: dump.volumes.map((v, i) => ({ label: v.citation_journal_title, id: ids[i]! })),
        },
        authorStrings: {
          total: authorStrings,
          matched,
          ambiguous: [...ambiguous.values()],
          unmatched: [...unmatched.values()],
        },
        order: {
          authors: orderInfo(authorOrder, dump.authors.length, 'institution, then key', authorKeys),
          manuscripts: orderInfo(manuscriptOrder, dump.manuscripts.length, 'volume id, then id', manuscriptKeys),
        },
        journal: journalInferences,
        kept: keptValues(dump),
        omitted: [
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
        ].filter((o) => o.count > 0),
      },
    },
    problems,
  };
}

/** Values worth a line in the summary: allowed, unusual, and kept exactly. */
function keptValues(dump: Dump): { label: string; count: number }[] {
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

function originOf(url: string): string | undefined {
  try {
    return /^https?:\/\//.test(url) ? new URL(url).origin : undefined;
  } catch {
    return undefined;
  }
}

/** Distinct values, most common first; ties keep the order of first appearance. */
function countValues(values: readonly string[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1]);
}

function mostCommon(values: readonly string[]): string | undefined {
  return countValues(values)[0]?.[0];
}
