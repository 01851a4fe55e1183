/**
 * journal.yaml: the settings taken from what the lists show (the ISSN and language most volumes
 * give, the PDFs' origin), each with where it came from, so the summary can say which are guesses.
 */
import { journalSchema } from '../generator/model/schema.ts';
import type { Dump } from './dump.ts';
import { originOf } from './plan-media.ts';
import type { Check, Report } from './plan-problems.ts';
import type { Inferences, PlanOptions } from './plan-types.ts';

export const TITLE_PLACEHOLDER = 'Imported journal (set its title in content/journal.yaml)';

export interface JournalPlan {
  data: Record<string, unknown>;
  inferences: Inferences['journal'];
  /** The journal's ISSN and language: records that give the same leave them out. */
  issn: string | undefined;
  language: string;
  /** The origin the PDFs' URLs must have to become files under content/media/. */
  mediaUrl: string | undefined;
}

export function planJournal(dump: Dump, options: PlanOptions, report: Report, check: Check): JournalPlan {
  const issn = inferIssn(dump, report);
  const language = inferLanguage(dump);
  const urls = inferUrls(dump, options, report);
  const title: Inference = {
    field: 'title',
    value: options.title ?? TITLE_PLACEHOLDER,
    from: options.title ? '--title' : 'a placeholder: edit it',
    ...(options.title ? {} : { placeholder: true }),
  };

  const sections = [...new Set(dump.manuscripts.map((m) => m.section))];
  const data: Record<string, unknown> = {
    title: title.value,
    base_url: urls.baseUrl ?? '',
    media_url: urls.mediaUrl ?? '',
    citation_issn: issn.value ?? '',
    citation_language: language.value,
    ...(sections.length ? { sections } : {}),
  };
  // Without a base URL or an ISSN the schema's complaint would only repeat the problem reported.
  if (urls.baseUrl !== undefined && issn.value !== undefined) check('journal', 'journal', journalSchema, data);
  return {
    data,
    inferences: [issn.inference, language.inference, ...urls.inferences, title],
    issn: issn.value,
    language: language.value,
    mediaUrl: urls.mediaUrl,
  };
}

type Inference = Inferences['journal'][number];

/** The volumes' ISSN, which they must all share (SPEC 2.2); the manuscripts' when there are no volumes. */
function inferIssn(dump: Dump, report: Report): { value: string | undefined; inference: Inference } {
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
  return {
    value: issn,
    inference: {
      field: 'citation_issn',
      value: issn ?? '',
      from: dump.volumes.length
        ? `the volumes (${issns.length === 1 ? `all ${dump.volumes.length} agree` : 'they disagree'})`
        : 'the manuscripts (there are no volumes)',
    },
  };
}

/** The most common volume language: the records that give it leave it out. */
function inferLanguage(dump: Dump): { value: string; inference: Inference } {
  const languages = countValues(dump.volumes.map((v) => v.citation_language));
  const language =
    languages[0]?.[0] ?? mostCommon(dump.manuscripts.map((m) => m.citation_language).filter(Boolean)) ?? 'English';
  return {
    value: language,
    inference: {
      field: 'citation_language',
      value: language,
      from: languages.length
        ? `the most common volume language (${languages[0]![1]} of ${dump.volumes.length} volumes)`
        : 'a default: no volume gives one',
      ...(languages.length ? {} : { placeholder: true }),
    },
  };
}

/** media_url from the PDFs' most common origin; base_url from the options, else the same origin. */
function inferUrls(
  dump: Dump,
  options: PlanOptions,
  report: Report,
): { baseUrl: string | undefined; mediaUrl: string | undefined; inferences: Inference[] } {
  const pdfUrls = [...dump.volumes.map((v) => v.pdf), ...dump.manuscripts.map((m) => m.document)];
  const origins = countValues(pdfUrls.map(originOf).filter((o): o is string => o !== undefined));
  const baseUrl = options.baseUrl ?? options.sourceOrigin ?? origins[0]?.[0];
  const mediaUrl = origins[0]?.[0] ?? baseUrl;
  if (baseUrl === undefined)
    report(
      'journal',
      'base_url',
      'import/not-representable',
      'cannot be inferred: the source is a file and no PDF names an origin',
      '--base-url https://journal.example.org',
    );
  return {
    baseUrl,
    mediaUrl,
    inferences: [
      {
        field: 'media_url',
        value: mediaUrl ?? '',
        from: origins.length
          ? `the PDFs' URLs (${origins.length === 1 ? `all ${pdfUrls.length}` : `${origins[0]![1]} of ${pdfUrls.length}`})`
          : 'base_url: no PDF URL to take it from',
      },
      {
        field: 'base_url',
        value: baseUrl ?? '',
        from: options.baseUrl
          ? '--base-url'
          : options.sourceOrigin
            ? 'the source URL'
            : "the PDFs' origin (pass --base-url to set another)",
        ...(options.baseUrl || options.sourceOrigin ? {} : { placeholder: true }),
      },
    ],
  };
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
