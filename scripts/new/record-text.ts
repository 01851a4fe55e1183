/**
 * The text of a new record file. Its first line names the editors' JSON Schema (the YAML
 * extension of VS Code and other editors completes and checks fields with it); comments list what
 * the editor chooses from. Every field the command knows is filled in; a field only the editor can
 * fill is left as a placeholder marked TODO that `npm run check` refuses with its own line and
 * message, so a record cannot be published half-made.
 */
import { stringify } from 'yaml';
import type { JournalFacts } from './journal-facts.ts';

/** A value as one YAML line (quoted when it must be). */
const yamlValue = (value: unknown) => stringify(value, { lineWidth: 0, flowCollectionPadding: false }).trimEnd();

const schemaLine = (schema: string) => `# yaml-language-server: $schema=../schemas/${schema}.schema.json`;

function volumesComment(facts: JournalFacts): string[] {
  if (facts.volumes.length === 0) return ['# No volume yet: add one first (npm run new -- volume).'];
  return [
    '# Volumes (a manuscript names its volume by the file name):',
    ...facts.volumes.map((v) => `#   ${v.key}: ${v.label}${v.fullDate ? ` (${v.fullDate})` : ''}`),
  ];
}

export interface ManuscriptFields {
  id: number;
  /** The volume's file name without extension. */
  volume: string | undefined;
  title: string;
  date: string;
  authors: string[];
  section: string | undefined;
  slug: string;
}

export function manuscriptText(facts: JournalFacts, m: ManuscriptFields): string {
  return [
    schemaLine('manuscript'),
    '# A new manuscript: replace each TODO; `npm run check` names every one still left.',
    ...volumesComment(facts),
    `# Sections: ${facts.sections.join(', ') || '(none in content/journal.yaml)'}`,
    `id: ${m.id}`,
    m.volume === undefined ? 'volume: "" # TODO the file name of its volume (above)' : `volume: ${yamlValue(m.volume)}`,
    `citation_title: ${yamlValue(m.title)}`,
    `citation_date: ${m.date}`,
    m.authors.length > 0
      ? ['authors:', ...m.authors.map((key) => `  - ${key}`)].join('\n')
      : "authors: [] # TODO the authors' keys (file names in content/authors/, without extension)",
    m.section === undefined ? 'section: "" # TODO one of the sections above' : `section: ${yamlValue(m.section)}`,
    'keywords: [] # TODO e.g. [distribution, new records]',
    `document: pdfs/${m.slug}.pdf # TODO put the PDF at content/media/pdfs/${m.slug}.pdf`,
    'abstract: "" # TODO the abstract (paragraphs as <p>...</p>)',
    '',
  ].join('\n');
}

export interface AuthorFields {
  name: string;
  surname: string;
  institution: string | undefined;
}

export function authorText(a: AuthorFields): string {
  return [
    schemaLine('author'),
    "# A new author: manuscripts name them by this file's name, without extension.",
    `name: ${yamlValue(a.name)}`,
    `surname: ${yamlValue(a.surname)}`,
    a.institution === undefined
      ? 'institution: "" # TODO the institution, optionally with its postal address'
      : `institution: ${yamlValue(a.institution)}`,
    '',
  ].join('\n');
}

export interface VolumeFields {
  id: number;
  label: string;
  date: string;
  udc: string;
  pdf: string;
}

export function volumeText(facts: JournalFacts, v: VolumeFields): string {
  return [
    schemaLine('volume'),
    '# A new volume: replace each TODO; `npm run check` names every one still left.',
    ...volumesComment(facts),
    `id: ${v.id}`,
    `citation_journal_title: ${v.label}`,
    v.udc ? `udc: ${yamlValue(v.udc)}` : 'udc: "" # TODO UDC numbers separated by one space, e.g. 57 59',
    'first_page: "1"',
    'last_page: "" # TODO the last page',
    `full_date: ${v.date}`,
    `pdf: ${v.pdf} # TODO put the PDF at content/media/${v.pdf}`,
    '',
  ].join('\n');
}
