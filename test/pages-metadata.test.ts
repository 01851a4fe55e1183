/**
 * The landing pages read by third parties: `html-metadata`, the scraper behind Wikipedia's citation
 * tool (Citoid), parses the Highwire Press (`citation_*`) tags that Google Scholar reads, Dublin Core,
 * Open Graph and JSON-LD. What it returns is what a citation built from our page would contain.
 * The JSON-LD is also read as a browser reads the page (jsdom's HTML parser gives the script's
 * text), parsed as JSON and held to a JSON Schema of a schema.org ScholarlyArticle (ajv).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Ajv } from 'ajv';
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderPages } from '../scripts/generator/render/pages.ts';
import { createWorkspace, VALID_JOURNAL, type Workspace } from './helpers/workspace.ts';
import { author, bodyText, manuscript, site, volume } from './helpers/synthetic-site.ts';

interface Scraped {
  highwirePress?: Record<string, string | string[]>;
  dublinCore?: Record<string, string | string[]>;
  openGraph?: Record<string, string | string[]>;
  jsonLd?: Record<string, unknown>;
  general?: Record<string, string>;
}
// A CommonJS package without type declarations.
const htmlMetadata = createRequire(import.meta.url)('html-metadata') as {
  loadFromString(html: string): Promise<Scraped>;
};

/** The JSON-LD blocks of a page as a browser's parser delimits them, each parsed as JSON. */
function jsonLdOf(html: string): unknown[] {
  const { document } = new JSDOM(html).window;
  return [...document.querySelectorAll('script[type="application/ld+json"]')].map(
    (script) => JSON.parse(script.textContent ?? '') as unknown,
  );
}

/** What the pages promise of their ScholarlyArticle (schema.org's names and value types). */
const SCHOLARLY_ARTICLE = {
  type: 'object',
  required: ['@context', '@type', '@id', 'url', 'headline', 'author', 'datePublished', 'isPartOf'],
  properties: {
    '@context': { const: 'https://schema.org' },
    '@type': { const: 'ScholarlyArticle' },
    '@id': { type: 'string', format: 'uri' },
    url: { type: 'string', format: 'uri' },
    headline: { type: 'string', minLength: 1 },
    datePublished: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
    inLanguage: { type: 'string' },
    keywords: { type: 'array', items: { type: 'string' } },
    license: { type: 'string', format: 'uri' },
    sameAs: { type: 'string', format: 'uri' },
    pageStart: { type: 'string' },
    pageEnd: { type: 'string' },
    identifier: {
      type: 'object',
      required: ['@type', 'propertyID', 'value'],
      properties: { '@type': { const: 'PropertyValue' }, propertyID: { const: 'DOI' } },
    },
    author: {
      type: 'array',
      items: {
        type: 'object',
        required: ['@type', 'name'],
        properties: {
          '@type': { const: 'Person' },
          name: { type: 'string' },
          affiliation: {
            type: 'object',
            required: ['@type', 'name'],
            properties: { '@type': { const: 'Organization' } },
          },
          sameAs: { type: 'string', pattern: '^https://orcid\\.org/\\d{4}-\\d{4}-\\d{4}-\\d{3}[\\dX]$' },
        },
      },
    },
    encoding: {
      type: 'object',
      required: ['@type', 'contentUrl', 'encodingFormat'],
      properties: { '@type': { const: 'MediaObject' }, encodingFormat: { const: 'application/pdf' } },
    },
    isPartOf: {
      type: 'object',
      required: ['@type', 'volumeNumber', 'isPartOf'],
      properties: {
        '@type': { const: 'PublicationVolume' },
        isPartOf: {
          type: 'object',
          required: ['@type', 'name', 'issn'],
          properties: {
            '@type': { const: 'Periodical' },
            issn: { type: 'array', items: { type: 'string', pattern: '^\\d{4}-\\d{3}[\\dX]$' } },
          },
        },
      },
    },
  },
};
// Not strict: schema.org's terms are not all described here, only those the pages promise.
const ajv = new Ajv({ allErrors: true });
// The `uri` format as RFC 3986 absolute URIs with a scheme: enough for these tests' values.
ajv.addFormat('uri', /^[a-z][a-z0-9+.-]*:[^\s]*$/i);
const isScholarlyArticle = ajv.compile(SCHOLARLY_ARTICLE);

describe('landing pages as a citation scraper reads them', () => {
  let workspace: Workspace;
  beforeAll(async () => {
    const journal = await readFile(path.join(VALID_JOURNAL, 'journal.yaml'), 'utf8');
    const salamanders = await readFile(path.join(VALID_JOURNAL, 'manuscripts/salamanders.yaml'), 'utf8');
    const ana = await readFile(path.join(VALID_JOURNAL, 'authors/ana-petrovska.yaml'), 'utf8');
    workspace = await createWorkspace({
      'journal.yaml': `${journal}abbreviation: Bull. Test Soc.\nonline_issn: 2545 - 4269\nlicense: https://creativecommons.org/licenses/by/4.0/\npublisher: Test Society\n`,
      'manuscripts/salamanders.yaml': `${salamanders}doi: 10.1234/bts.2021.7\nfirst_page: "9"\nlast_page: "17"\n`,
      'authors/ana-petrovska.yaml': `${ana}orcid: 0000-0002-1825-0097\n`,
    });
    expect((await workspace.build()).problems).toEqual([]);
  });
  afterAll(() => workspace.dispose());

  const ABSTRACT =
    'We report new localities of Salamandra salamandra (Linnaeus, 1758) at 1.10 km from the village “Пакошево” – at 12 °C.';

  it("yields the full record of a built landing page from Scholar's tags", async () => {
    const html = await readFile(path.join(workspace.paths.out, 'manuscripts/7.html'), 'utf8');
    const scraped = await htmlMetadata.loadFromString(html);
    expect(scraped.highwirePress).toEqual({
      title: 'Distribution of the fire salamander in the Jakupica mountains',
      author: ['Петровска, Ана', 'Doe, Jane'],
      author_institution: [
        'Институт за биологија, Архимедова 3, 1000 Скопје, Северна Македонија.',
        'Department of Zoology, University of Oxford, 11a Mansfield Road, Oxford OX1 3SZ, United Kingdom',
      ],
      author_orcid: 'https://orcid.org/0000-0002-1825-0097',
      publication_date: '2021/03/04',
      date: '2021/03/04',
      journal_title: 'Bulletin of the Test Society',
      journal_abbrev: 'Bull. Test Soc.',
      issn: ['1857-9639', '2545-4269'],
      volume: '1',
      firstpage: '9',
      lastpage: '17',
      doi: '10.1234/bts.2021.7',
      pdf_url: 'https://media.example.org/media/pdfs/salamanders.pdf',
      abstract_html_url: 'https://journal.example.org/manuscripts/7',
      keywords: ['Salamandra salamandra', 'distribution', 'Macedonia'],
      language: 'en',
      publisher: 'Test Society',
      abstract: ABSTRACT,
    });
    expect(scraped.general).toMatchObject({
      canonical: 'https://journal.example.org/manuscripts/7',
      title: 'Distribution of the fire salamander in the Jakupica mountains | Bulletin of the Test Society',
      description: ABSTRACT,
      lang: 'en',
    });
  });

  it('gives the same record in Dublin Core, Open Graph and JSON-LD', async () => {
    const html = await readFile(path.join(workspace.paths.out, 'manuscripts/7.html'), 'utf8');
    const scraped = await htmlMetadata.loadFromString(html);
    expect(html).toContain('<link rel="schema.DC" href="http://purl.org/dc/elements/1.1/">');
    expect(scraped.dublinCore).toEqual({
      title: 'Distribution of the fire salamander in the Jakupica mountains',
      personalname: ['Ана Петровска', 'Jane Doe'],
      issued: '2021-03-04',
      uri: 'https://journal.example.org/manuscripts/7',
      doi: '10.1234/bts.2021.7',
      language: 'en',
      publisher: 'Test Society',
      rights: 'https://creativecommons.org/licenses/by/4.0/',
      source: 'Bulletin of the Test Society',
      issn: '1857-9639',
      volume: '1',
      subject: ['Salamandra salamandra', 'distribution', 'Macedonia'],
      type: 'Text.Serial.Journal',
      articletype: 'Zoology',
    });
    expect(scraped.openGraph).toEqual({
      type: 'article',
      title: 'Distribution of the fire salamander in the Jakupica mountains',
      url: 'https://journal.example.org/manuscripts/7',
      site_name: 'Bulletin of the Test Society',
      description: ABSTRACT,
      published_time: '2021-03-04',
      section: 'Zoology',
      tag: ['Salamandra salamandra', 'distribution', 'Macedonia'],
    });
    const [article, ...others] = jsonLdOf(html);
    expect(others).toEqual([]);
    expect(isScholarlyArticle(article), JSON.stringify(isScholarlyArticle.errors)).toBe(true);
    expect(scraped.jsonLd).toEqual(article);
    expect(article).toMatchObject({
      headline: 'Distribution of the fire salamander in the Jakupica mountains',
      name: 'Distribution of the fire salamander in the Jakupica mountains',
      // The abstract as plain text, whole; the description is the page's summary of it.
      abstract: ABSTRACT,
      description: ABSTRACT,
      author: [
        {
          name: 'Ана Петровска',
          givenName: 'Ана',
          familyName: 'Петровска',
          sameAs: 'https://orcid.org/0000-0002-1825-0097',
          affiliation: { name: 'Институт за биологија, Архимедова 3, 1000 Скопје, Северна Македонија.' },
        },
        { name: 'Jane Doe' },
      ],
      datePublished: '2021-03-04',
      pageStart: '9',
      pageEnd: '17',
      identifier: { value: '10.1234/bts.2021.7' },
      sameAs: 'https://doi.org/10.1234/bts.2021.7',
      license: 'https://creativecommons.org/licenses/by/4.0/',
      isPartOf: {
        volumeNumber: '1',
        isPartOf: {
          name: 'Bulletin of the Test Society',
          alternateName: 'Bull. Test Soc.',
          issn: ['1857-9639', '2545-4269'],
        },
      },
    });
  });

  it('leaves out what the content does not give: no empty tag, no empty JSON-LD value', async () => {
    const html = await readFile(path.join(workspace.paths.out, 'manuscripts/3.html'), 'utf8');
    expect(html).not.toMatch(/content=""/);
    for (const name of [
      'citation_doi',
      'citation_firstpage',
      'citation_lastpage',
      'citation_author_orcid',
      'DC.Identifier.DOI',
    ])
      expect(html).not.toContain(`name="${name}"`);
    const [article] = jsonLdOf(html);
    expect(isScholarlyArticle(article), JSON.stringify(isScholarlyArticle.errors)).toBe(true);
    expect(Object.keys(article as object)).not.toContain('identifier');
    expect(JSON.stringify(article)).not.toMatch(/null|""/);
  });

  it('reads back values full of markup characters exactly as they are in the record, in every vocabulary', async () => {
    const hostile = `"Quoted" & <b>bold</b> 'single' </title></script><script>x()</script><!-- <script> -->`;
    // A title may hold <b> (docs/content-model.md, "Markup in titles"): its text is the element's,
    // as on the page. The rest is no markup a title may hold (the build refuses it) and stays text.
    const hostileTitle = hostile.replace('<b>bold</b>', 'bold');
    const m = manuscript(9, {
      citation_title: hostile,
      authors: ['x'],
      keywords: `${hostile.replaceAll(', ', ' ')}, b.`,
      abstract: '<p>p < 0.05 &amp; p > 0.1 &lt;/script&gt; &lt;!--</p>',
      section: hostile,
    });
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
      title: hostileTitle,
      author: `Surname, ${hostile}`,
      author_institution: hostile,
      keywords: [hostile, 'b'],
      volume: '2',
      abstract: 'p < 0.05 & p > 0.1 </script> <!--',
    });
    expect(scraped.general?.['title']).toBe(`${hostileTitle} | Bulletin of the "Test" Society & <Friends>`);
    expect(scraped.dublinCore).toMatchObject({ title: hostileTitle, articletype: hostile });
    expect(scraped.openGraph).toMatchObject({ title: hostileTitle, section: hostile });
    // The JSON-LD is one script element that ends where the renderer ends it, and reads back exactly.
    const [article, ...others] = jsonLdOf(html);
    expect(others).toEqual([]);
    expect(isScholarlyArticle(article), JSON.stringify(isScholarlyArticle.errors)).toBe(true);
    expect(article).toMatchObject({
      headline: hostileTitle,
      abstract: 'p < 0.05 & p > 0.1 </script> <!--',
      description: 'p < 0.05 & p > 0.1 </script> <!--',
      author: [{ name: `${hostile} Surname`, affiliation: { name: hostile } }],
      articleSection: hostile,
    });
    // A browser sees the page's own elements only: one script, and the title as the heading's text.
    const { document } = new JSDOM(html).window;
    expect(document.querySelectorAll('script')).toHaveLength(1);
    expect(document.querySelector('h1')?.textContent).toBe(hostileTitle);
    expect(document.querySelector('h1 b')?.textContent).toBe('bold');
  });
});
