/**
 * A resolved journal built in memory, for the page and sitemap renderers: they are pure, so their
 * tests can state every record literally (or generate a hundred thousand) without touching disk.
 */
import type { AuthorRecord, ManuscriptRecord, VolumeRecord } from '../../scripts/generator/model/records.ts';
import { resolveAuthors, siteOf } from '../../scripts/generator/stages/resolve.ts';
import type { Site } from '../../scripts/generator/model/site.ts';
import type { JournalInput } from '../../scripts/generator/model/schema.ts';
import type { OutputFile } from '../../scripts/shared/output-file.ts';

const origin = (file: string, key: string) => ({ file, key, at: { '': { line: 1, column: 1 } } });

export const JOURNAL: JournalInput = {
  title: 'Bulletin of the "Test" Society & <Friends>',
  base_url: 'https://journal.example.org',
  media_url: 'https://media.example.org',
  citation_issn: '1857 - 9639',
  citation_language: 'English',
  publisher: 'Test Society, Skopje',
  sections: ['Zoology', 'Botany'],
} as JournalInput;

export function author(key: string, name: string, surname: string, institution: string): AuthorRecord {
  return { name, surname, institution, origin: origin(`content/authors/${key}.yaml`, key) } as AuthorRecord;
}

export function volume(id: number, label: string, fullDate: string): VolumeRecord {
  return {
    id,
    citation_journal_title: label,
    udc: '57 59',
    first_page: '1',
    last_page: '120',
    full_date: fullDate,
    pdf: { kind: 'local', path: `volumes/pdfs/${fullDate.slice(0, 4)}/volume-${id}.pdf` },
    origin: origin(`content/volumes/volume-${id}.yaml`, `volume-${id}`),
  } as VolumeRecord;
}

export function manuscript(id: number, fields: Partial<ManuscriptRecord> = {}): ManuscriptRecord {
  return {
    id,
    citation_volume: 1,
    citation_title: `Manuscript ${id}`,
    citation_date: '2021-03-04',
    abstract: '<p>An abstract.</p>',
    keywords: 'one, two.',
    document: { kind: 'local', path: `pdfs/m-${id}.pdf` },
    authors: [],
    section: 'Zoology',
    ...fields,
    origin: origin(`content/manuscripts/m-${id}.yaml`, `m-${id}`),
  } as ManuscriptRecord;
}

export function site(parts: {
  authors?: AuthorRecord[];
  volumes?: VolumeRecord[];
  manuscripts?: ManuscriptRecord[];
  journal?: Partial<JournalInput>;
}): Site {
  const authors = parts.authors ?? [];
  const manuscripts = parts.manuscripts ?? [];
  return siteOf({
    journal: { ...JOURNAL, ...parts.journal } as JournalInput,
    authors,
    volumes: parts.volumes ?? [],
    manuscripts,
    manuscriptAuthors: resolveAuthors(authors, manuscripts),
  });
}

/** A rendered file's content as text, whatever form the renderer gave it. */
export function bodyText(output: OutputFile | undefined): string {
  if (!output) throw new Error('no such output');
  const body = output.body;
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return Buffer.from(body).toString('utf8');
  return [...body()].join('');
}
