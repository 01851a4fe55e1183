/**
 * The landing pages read by a third party: `html-metadata`, the scraper behind Wikipedia's
 * citation tool (Citoid), parses the Highwire Press (`citation_*`) tags that Google Scholar reads.
 * What it returns is what a citation built from our page would contain.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderPages } from '../scripts/generator/render/pages.ts';
import { createWorkspace, type Workspace } from './helpers/workspace.ts';
import { author, bodyText, manuscript, site, volume } from './helpers/synthetic-site.ts';

interface Scraped {
  highwirePress?: Record<string, string | string[]>;
  general?: Record<string, string>;
}
// A CommonJS package without type declarations.
const htmlMetadata = createRequire(import.meta.url)('html-metadata') as {
  loadFromString(html: string): Promise<Scraped>;
};

describe('landing pages as a citation scraper reads them', () => {
  let workspace: Workspace;
  beforeAll(async () => {
    workspace = await createWorkspace();
    expect((await workspace.build()).problems).toEqual([]);
  });
  afterAll(() => workspace.dispose());

  it('yields the full record of a built landing page', async () => {
    const html = await readFile(path.join(workspace.paths.out, 'manuscripts/7.html'), 'utf8');
    const scraped = await htmlMetadata.loadFromString(html);
    expect(scraped.highwirePress).toEqual({
      title: 'Distribution of the fire salamander in the Jakupica mountains',
      author: ['Петровска, Ана', 'Doe, Jane'],
      author_institution: [
        'Институт за биологија, Архимедова 3, 1000 Скопје, Северна Македонија.',
        'Department of Zoology, University of Oxford, 11a Mansfield Road, Oxford OX1 3SZ, United Kingdom',
      ],
      publication_date: '2021/03/04',
      journal_title: 'Bulletin of the Test Society',
      volume: '1',
      issn: '1857-9639',
      language: 'en',
      keywords: ['Salamandra salamandra', 'distribution', 'Macedonia'],
      pdf_url: 'https://media.example.org/media/pdfs/salamanders.pdf',
      abstract_html_url: 'https://journal.example.org/manuscripts/7',
    });
    expect(scraped.general).toMatchObject({
      canonical: 'https://journal.example.org/manuscripts/7',
      title: 'Distribution of the fire salamander in the Jakupica mountains | Bulletin of the Test Society',
      lang: 'en',
    });
  });

  it('reads back values full of markup characters exactly as they are in the record', async () => {
    const hostile = `"Quoted" & <b>bold</b> 'single' </title><script>x()</script>`;
    const m = manuscript(9, { citation_title: hostile, authors: ['x'], keywords: `${hostile}, b.` });
    const html = bodyText(
      renderPages(
        site({
          authors: [author('x', hostile, 'Surname', hostile)],
          volumes: [volume(1, 'Volume II', '2020-01-01')],
          manuscripts: [m],
        }),
      ).find((o) => o.path === 'manuscripts/9.html'),
    );
    const scraped = await htmlMetadata.loadFromString(html);
    expect(scraped.highwirePress).toMatchObject({
      title: hostile,
      author: `Surname, ${hostile}`,
      author_institution: hostile,
      keywords: [hostile, 'b'],
      volume: '2',
    });
    expect(scraped.general?.['title']).toBe(`${hostile} | Bulletin of the "Test" Society & <Friends>`);
  });
});
