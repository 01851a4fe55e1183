/**
 * One volume's Crossref deposit (schema 5.3.1, docs/crossref.md): the journal, the volume as an
 * issue, and each of its manuscripts that has a DOI as a journal article. Pure: the Site and the
 * settings in, the problems or the XML out; the command (command.ts) finds the lines and writes.
 *
 * The values are the ones the landing pages and citation files give (render/citations/citation.ts,
 * render/citation-values.ts): the same title, authors and ORCID iDs, pages, date, licence and page
 * URL, so a DOI resolves to a page that says what Crossref says.
 */
import type { ProblemCode } from '../generator/model/problems.ts';
import type { ManuscriptRecord, VolumeRecord } from '../generator/model/records.ts';
import type { Site } from '../generator/model/site.ts';
import { CROSSREF_SETTINGS, type CrossrefSettingName } from '../generator/model/crossref-settings.ts';
import { citationOf } from '../generator/render/citations/citation.ts';
import { pageAuthors, standardIssn, type PageAuthor } from '../generator/render/citation-values.ts';
import { xmlText } from '../generator/render/feed.ts';
import { volumeNumber } from '../generator/render/page-paths.ts';
import { faceMarkupTitle, jatsAbstract } from './markup.ts';

export const SCHEMA_VERSION = '5.3.1';

/** A value the deposit needs and the content does not give, before its line is found (command.ts). */
export interface DepositProblem {
  code: ProblemCode;
  /** Relative to the project's root, as a record's origin gives it. */
  file: string;
  /** The field, as a path into the file's data: its line is found from it. */
  path: (string | number)[];
  /** The field is not in the file: the problem points at the key of the mapping it belongs in (or the file's start). */
  absent?: true;
  message: string;
  expected: string;
}

export interface DepositRequest {
  site: Site;
  volume: VolumeRecord;
  /** The journal's settings file, relative to the project's root. */
  journalFile: string;
  /** Crossref's `<timestamp>`: digits, greater than that of any earlier deposit of the same DOIs. */
  timestamp: string;
}

/** The volume's manuscripts that are deposited: the ones with a DOI, in published order. */
export function depositedManuscripts(site: Site, volume: VolumeRecord): ManuscriptRecord[] {
  return site.manuscriptsIn(volume).filter((m) => m.doi !== undefined);
}

const SETTING_NAMES = Object.keys(CROSSREF_SETTINGS) as CrossrefSettingName[];

/** Crossref's pattern for a given name and a surname (crossref5.3.1.xsd), with its length. */
const NAME_PATTERN = /^[^\p{Nd}?]*[^?\s]+[^\p{Nd}]*$/u;
const NAME_EXPECTED =
  'at most 60 characters, with no question mark and no digit at either end, as Crossref accepts a name';

function nameMistake(name: string): string | undefined {
  const collapsed = name.replace(/\s+/g, ' ').trim();
  if (collapsed.length > 60) return `has ${collapsed.length} characters`;
  if (!NAME_PATTERN.test(collapsed)) return `${JSON.stringify(name)} is not a name Crossref accepts`;
  return undefined;
}

/** Everything the deposit needs and does not find, all of it, in one list. */
export function depositProblems({ site, volume, journalFile }: Omit<DepositRequest, 'timestamp'>): DepositProblem[] {
  const problems: DepositProblem[] = [];
  const settings = site.journal.crossref ?? {};
  for (const name of SETTING_NAMES) {
    if (settings[name] === undefined)
      problems.push({
        code: 'crossref/missing',
        file: journalFile,
        path: ['crossref', name],
        absent: true,
        message: 'is missing',
        expected: `${CROSSREF_SETTINGS[name]}; a deposit needs it`,
      });
  }
  const prefix = settings.doi_prefix;
  const seen = new Map<string, ManuscriptRecord>();
  for (const m of depositedManuscripts(site, volume)) {
    const doi = m.doi!;
    // DOIs are compared without regard to case (Crossref's own rule).
    if (prefix !== undefined && !doi.toLowerCase().startsWith(`${prefix.toLowerCase()}/`))
      problems.push({
        code: 'crossref/doi-prefix',
        file: m.origin.file,
        path: ['doi'],
        message: `${doi} is not under the journal's DOI prefix ${prefix}`,
        expected: `a DOI that starts with ${prefix}/, the crossref.doi_prefix of ${journalFile}`,
      });
    const twin = seen.get(doi.toLowerCase());
    if (twin)
      problems.push({
        code: 'crossref/duplicate-doi',
        file: m.origin.file,
        path: ['doi'],
        message: `${doi} is also the DOI of ${twin.origin.file}`,
        expected: 'a DOI of its own for each manuscript',
      });
    else seen.set(doi.toLowerCase(), m);
    const found = site.authorsOf(m);
    m.authors.forEach((ref, k) => {
      const author = found[k];
      const checks: [string | undefined, string, (string | number)[]][] =
        typeof ref === 'string'
          ? author
            ? [
                [author.name, author.origin.file, ['name']],
                [author.surname, author.origin.file, ['surname']],
              ]
            : []
          : [[ref.as_published, m.origin.file, ['authors', k, 'as_published']]];
      for (const [value, file, path] of checks) {
        const mistake = value === undefined ? undefined : nameMistake(value);
        if (mistake) problems.push({ code: 'crossref/name', file, path, message: mistake, expected: NAME_EXPECTED });
      }
    });
  }
  return problems;
}

/** `YYYY-MM-DD` as Crossref's `<publication_date>`: month, day, year. */
function publicationDate(date: string, media: 'print' | 'online'): string {
  const [year, month, day] = date.split('-');
  return `<publication_date media_type="${media}"><month>${month}</month><day>${day}</day><year>${year}</year></publication_date>`;
}

function contributor(author: PageAuthor, index: number): string {
  const sequence = index === 0 ? 'first' : 'additional';
  // A name kept as published is one string: Crossref requires a surname, and it is that.
  const name =
    author.surname === undefined
      ? `<surname>${xmlText(author.display)}</surname>`
      : `<given_name>${xmlText(author.name!)}</given_name><surname>${xmlText(author.surname)}</surname>`;
  const affiliation = author.institution
    ? `<affiliations><institution><institution_name>${xmlText(author.institution)}</institution_name></institution></affiliations>`
    : '';
  const orcid = author.orcid ? `<ORCID>https://orcid.org/${author.orcid}</ORCID>` : '';
  return `<person_name sequence="${sequence}" contributor_role="author">${name}${affiliation}${orcid}</person_name>`;
}

function article(site: Site, m: ManuscriptRecord): string {
  const citation = citationOf(site, m);
  const authors = pageAuthors(m, site.authorsOf(m));
  const language = citation.language && /^[a-z]{2}$/.test(citation.language.code) ? citation.language.code : undefined;
  const lines = [
    `<journal_article publication_type="full_text"${language ? ` language="${language}"` : ''}>`,
    `<titles><title>${faceMarkupTitle(m.citation_title)}</title></titles>`,
    authors.length ? `<contributors>${authors.map(contributor).join('')}</contributors>` : '',
    jatsAbstract(m.abstract) ?? '',
    publicationDate(m.citation_date, 'online'),
    citation.pages
      ? `<pages><first_page>${citation.pages.first}</first_page>${citation.pages.last ? `<last_page>${citation.pages.last}</last_page>` : ''}</pages>`
      : '',
    citation.license
      ? `<ai:program name="AccessIndicators"><ai:license_ref applies_to="vor">${xmlText(citation.license)}</ai:license_ref></ai:program>`
      : '',
    `<doi_data><doi>${xmlText(m.doi!)}</doi><resource>${xmlText(citation.url)}</resource></doi_data>`,
    '</journal_article>',
  ];
  return lines.filter((line) => line !== '').join('\n');
}

/** The deposit file. Only for a request depositProblems found nothing wrong with. */
export function renderDeposit({ site, volume, timestamp }: DepositRequest): string {
  const { journal } = site;
  const settings = journal.crossref!;
  const number = volumeNumber(volume);
  const issns = [
    `<issn media_type="print">${standardIssn(journal.citation_issn)}</issn>`,
    journal.online_issn ? `<issn media_type="electronic">${standardIssn(journal.online_issn)}</issn>` : '',
  ];
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<doi_batch xmlns="http://www.crossref.org/schema/${SCHEMA_VERSION}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:jats="http://www.ncbi.nlm.nih.gov/JATS1" xmlns:ai="http://www.crossref.org/AccessIndicators.xsd" xmlns:xlink="http://www.w3.org/1999/xlink" version="${SCHEMA_VERSION}" xsi:schemaLocation="http://www.crossref.org/schema/${SCHEMA_VERSION} https://www.crossref.org/schemas/crossref${SCHEMA_VERSION}.xsd">`,
    '<head>',
    // Names the volume and the run: unique for each deposit, and readable in Crossref's submission log.
    `<doi_batch_id>volume-${number}-${timestamp}</doi_batch_id>`,
    `<timestamp>${timestamp}</timestamp>`,
    `<depositor><depositor_name>${xmlText(settings.depositor_name!)}</depositor_name><email_address>${xmlText(settings.depositor_email!)}</email_address></depositor>`,
    `<registrant>${xmlText(settings.registrant!)}</registrant>`,
    '</head>',
    '<body>',
    '<journal>',
    `<journal_metadata><full_title>${xmlText(journal.title)}</full_title>${journal.abbreviation ? `<abbrev_title>${xmlText(journal.abbreviation)}</abbrev_title>` : ''}${issns.join('')}</journal_metadata>`,
    `<journal_issue>${publicationDate(volume.full_date, 'print')}<journal_volume><volume>${number}</volume></journal_volume></journal_issue>`,
    ...depositedManuscripts(site, volume).map((m) => article(site, m)),
    '</journal>',
    '</body>',
    '</doi_batch>',
    '',
  ];
  return lines.join('\n');
}
