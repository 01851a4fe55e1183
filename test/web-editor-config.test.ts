/**
 * The web editor's configuration against the schemas it is generated from: every field of every
 * collection is in the form, required exactly when the schema requires it, with the schema's
 * pattern; the references and PDFs go where the content model says; the abstract's pattern never
 * lets through what the build refuses; and a field the schema gains gets a widget by its type.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import * as z from 'zod';
import { ABSTRACT_PATTERN } from '../scripts/admin/abstract-pattern.ts';
import { configYaml } from '../scripts/admin/admin-page.ts';
import { cmsConfig, productionBackend, widgetFor, type CmsField } from '../scripts/admin/cms-config.ts';
import { collections, manuscriptSchema, type JournalInput } from '../scripts/generator/model/schema.ts';
import { REPO_ROOT } from './helpers/workspace.ts';

const JOURNAL: JournalInput = {
  title: 'Bulletin',
  base_url: 'https://bulletin.example.org',
  media_url: 'https://bulletin.example.org',
  citation_issn: '1857 - 9870',
  citation_language: 'English',
  sections: ['Zoology', 'Botany'],
  admin: { enabled: true, backend: 'github', repo: 'society/bulletin', branch: 'main' },
};

const config = cmsConfig(JOURNAL, productionBackend(JOURNAL)!);
const collection = (name: string) => config.collections.find((c) => c.name === name)!;
const field = (collectionName: string, name: string): CmsField =>
  collection(collectionName).fields.find((f) => f.name === name)!;

/** The abstract as the build reads it: accepted or not. */
const buildAccepts = (abstract: string) => manuscriptSchema.shape.abstract.safeParse(abstract).success;

describe('the generated configuration', () => {
  it("has every field of every collection but older files' citation_volume, required as the schema says", () => {
    for (const [name, schema] of Object.entries(collections)) {
      const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
        properties: Record<string, { pattern?: string }>;
        required: string[];
      };
      const fields = collection(name).fields;
      // A manuscript's citation_volume is kept in older files and never asked of a new one.
      const legacy = name === 'manuscripts' ? ['citation_volume'] : [];
      expect(fields.map((f) => f.name).sort()).toEqual(
        Object.keys(json.properties)
          .filter((f) => !legacy.includes(f))
          .sort(),
      );
      for (const f of fields) {
        // A manuscript's volume: the schema takes `volume` or an older file's `citation_volume`; the
        // form, which writes new records, asks for `volume`.
        const formRequires = name === 'manuscripts' && f.name === 'volume';
        expect(f.required, `${name}.${f.name}`).toBe(json.required.includes(f.name) || formRequires);
        expect(f.label, `${name}.${f.name}`).toMatch(/^[A-Z]/);
        expect(f.hint, `${name}.${f.name}`).toMatch(/\.$/);
        // The CMS compiles a pattern without flags: every one must compile so.
        if (f.pattern) expect(() => new RegExp(f.pattern![0])).not.toThrow();
        const schemaPattern = json.properties[f.name]!.pattern;
        if (schemaPattern && f.widget === 'string') expect(f.pattern?.[0], `${name}.${f.name}`).toBe(schemaPattern);
      }
    }
  });

  it('stores each collection as YAML files in its content folder, named by the project key rules', () => {
    expect(config.collections.map((c) => [c.name, c.folder, c.extension, c.format])).toEqual([
      ['authors', 'content/authors', 'yaml', 'record-yaml'],
      ['volumes', 'content/volumes', 'yaml', 'record-yaml'],
      ['manuscripts', 'content/manuscripts', 'yaml', 'record-yaml'],
    ]);
    // ASCII letters, digits and "-" only, never leading or trailing: a key (formats.ts, RECORD_KEY).
    expect(config.slug).toEqual({ encoding: 'ascii', clean_accents: true, sanitize_replacement: '-' });
    // The name the editor's script makes as `npm run new` does (web-editor-records.test.ts).
    expect(collection('authors').slug).toBe('{{__file_name}}');
  });

  it('asks for the fields in the order of docs/editors.md, in its words', () => {
    expect(
      collection('manuscripts')
        .fields.map((f) => f.name)
        .slice(0, 10),
    ).toEqual([
      'id',
      'volume',
      'citation_title',
      'citation_date',
      'udc',
      'authors',
      'section',
      'keywords',
      'document',
      'abstract',
    ]);
    expect(
      collection('volumes')
        .fields.map((f) => f.name)
        .slice(0, 7),
    ).toEqual(['id', 'citation_journal_title', 'udc', 'first_page', 'last_page', 'full_date', 'pdf']);
    expect(
      collection('authors')
        .fields.map((f) => f.name)
        .slice(0, 3),
    ).toEqual(['name', 'surname', 'institution']);
    // No field names or format codes in the hints: what an editor reads is the editors' guide's words.
    for (const c of config.collections)
      for (const f of c.fields) expect(f.hint, `${c.name}.${f.name}`).not.toMatch(/citation_|_page|YYYY|""/);
  });

  it("refers to a manuscript's volume and to its authors by file name, the authors in order, showing their names", () => {
    // The relation list, ranked by the editor's script (web-editor-records.test.ts).
    expect(field('manuscripts', 'volume')).toMatchObject({
      widget: 'volume-choice',
      collection: 'volumes',
      value_field: '{{slug}}',
      required: true,
    });
    // Older files' volume id is not in the form (the file keeps it until a volume is chosen).
    expect(field('manuscripts', 'citation_volume')).toBe(undefined);
    expect(field('manuscripts', 'authors')).toMatchObject({
      widget: 'list',
      field: {
        widget: 'relation',
        collection: 'authors',
        value_field: '{{slug}}',
        display_fields: ['{{name}} {{surname}}'],
      },
    });
  });

  it('puts PDFs in the media folders the paths name, and accepts only file names the build accepts', () => {
    expect(field('manuscripts', 'document')).toMatchObject({
      widget: 'file',
      media_folder: '/content/media/pdfs',
      public_folder: 'pdfs',
    });
    expect(field('volumes', 'pdf')).toMatchObject({
      widget: 'file',
      media_folder: "/content/media/volumes/pdfs/{{full_date | date('YYYY')}}",
      public_folder: "volumes/pdfs/{{full_date | date('YYYY')}}",
    });
    const name = new RegExp(field('manuscripts', 'document').pattern![0]);
    expect(['beetles-2024.pdf', 'a_b.c.pdf'].filter((n) => name.test(n))).toHaveLength(2);
    expect(['my beetles.pdf', 'beetles.PDF', '.hidden.pdf', 'notes.txt'].filter((n) => name.test(n))).toEqual([]);
  });

  it("offers the journal's sections, dates typed year-month-day, and keywords as a list", () => {
    expect(field('manuscripts', 'section')).toMatchObject({ widget: 'select', options: ['Zoology', 'Botany'] });
    for (const [c, f] of [
      ['manuscripts', 'citation_date'],
      ['volumes', 'full_date'],
    ] as const)
      expect(field(c, f)).toMatchObject({ widget: 'string', pattern: ['^\\d{4}-\\d{2}-\\d{2}$', expect.any(String)] });
    // One box, comma-separated: it also shows (and keeps) keywords written as one string.
    expect(field('manuscripts', 'keywords')).toMatchObject({ widget: 'list' });
    expect(field('manuscripts', 'keywords').field).toBe(undefined);
    expect(field('manuscripts', 'abstract')).toMatchObject({ widget: 'text' });
    expect(field('manuscripts', 'abstract').pattern![0]).toBe(ABSTRACT_PATTERN);
    // A number box that offers the next free id and refuses a taken one (editor-browser.ts).
    expect(field('manuscripts', 'id')).toMatchObject({ widget: 'record-id', value_type: 'int', min: 1 });
  });

  it('has a free section field when the journal lists no sections', () => {
    const { sections: _sections, ...withoutSections } = JOURNAL;
    const plain = cmsConfig(withoutSections, { name: 'github', repo: 'a/b' });
    expect(plain.collections[2]!.fields.find((f) => f.name === 'section')!.widget).toBe('string');
  });

  it('is written as YAML that reads back as the same configuration', () => {
    expect(parse(configYaml(config))).toEqual(JSON.parse(JSON.stringify(config)));
  });

  it("takes its backend from journal.yaml's admin setting, and none when the editor is off", () => {
    expect(config.backend).toEqual({ name: 'github', repo: 'society/bulletin', branch: 'main' });
    expect(config.site_url).toBe('https://bulletin.example.org');
    expect(productionBackend({ ...JOURNAL, admin: { enabled: false, backend: 'github', branch: 'main' } })).toBe(
      undefined,
    );
    const { admin: _admin, ...withoutAdmin } = JOURNAL;
    expect(productionBackend(withoutAdmin)).toBe(undefined);
  });
});

describe('a field the schema gains', () => {
  it('gets a widget from its type alone: text with its pattern, a number, a choice, a list, a date', () => {
    expect(
      widgetFor('authors.orcid', {
        type: 'string',
        pattern: '^\\d{4}-\\d{4}-\\d{4}-\\d{3}[\\dX]$',
        description: 'the ORCID iD',
      }),
    ).toEqual({
      widget: 'string',
      pattern: ['^\\d{4}-\\d{4}-\\d{4}-\\d{3}[\\dX]$', 'Must be the ORCID iD.'],
    });
    expect(widgetFor('manuscripts.first_page', { type: ['string', 'integer'], pattern: '^\\d+$' })).toMatchObject({
      widget: 'string',
    });
    expect(widgetFor('manuscripts.pages', { type: 'integer', minimum: 1 })).toEqual({
      widget: 'number',
      value_type: 'int',
      min: 1,
    });
    expect(widgetFor('manuscripts.license', { enum: ['CC-BY-4.0', 'CC0-1.0'] })).toEqual({
      widget: 'select',
      options: ['CC-BY-4.0', 'CC0-1.0'],
    });
    expect(widgetFor('manuscripts.received', { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' })).toMatchObject({
      widget: 'string',
      pattern: ['^\\d{4}-\\d{2}-\\d{2}$', 'Write the date as year-month-day, e.g. 2024-02-28.'],
    });
    expect(widgetFor('manuscripts.funders', { type: 'array', items: { type: 'string' } })).toMatchObject({
      widget: 'list',
      field: { widget: 'string' },
    });
  });

  it('that no widget fits stops the build of the configuration, naming the field', () => {
    expect(() => widgetFor('manuscripts.funding', { type: 'object' })).toThrow(/manuscripts\.funding/);
  });
});

describe("the abstract's pattern", () => {
  const pattern = new RegExp(ABSTRACT_PATTERN);

  it("accepts every abstract of the sample journal, so an editor can save the journal's records", async () => {
    const folder = path.join(REPO_ROOT, 'content/manuscripts');
    const abstracts: string[] = [];
    for (const file of (await readdir(folder)).sort()) {
      const text = await readFile(path.join(folder, file), 'utf8');
      const data = (file.endsWith('.json') ? JSON.parse(text) : parse(text)) as { abstract: string };
      abstracts.push(data.abstract);
    }
    expect(abstracts.length).toBeGreaterThan(10);
    expect(abstracts.filter((a) => !pattern.test(a))).toEqual([]);
  });

  it('accepts the allowed markup and refuses what the build refuses', () => {
    for (const ok of [
      'Plain text, p < 0.05 & a > b.',
      '<p>Beetles of <em>Carabus</em>.</p>\n<p>H<sub>2</sub>O, 10<sup>3</sup><br/><B>bold</B> <i>x</i></p>',
      '<a href="https://example.org/a?b=c">a link</a>',
    ]) {
      expect(pattern.test(ok), ok).toBe(true);
      expect(buildAccepts(ok), ok).toBe(true);
    }
    for (const refused of [
      '<span>x</span>',
      '<p style="color:red">x</p>',
      '<a href="javascript:alert(1)">x</a>',
      '<a href="/relative">x</a>',
      '<script>alert(1)</script>',
      '<!-- note -->',
      'a </ b',
      '<p',
      'bell \u0007',
    ]) {
      expect(pattern.test(refused), refused).toBe(false);
      expect(buildAccepts(refused), refused).toBe(false);
    }
  });

  it('never accepts an abstract the build refuses (random markup)', () => {
    const piece = fc.constantFrom(
      'text',
      ' ',
      '\n',
      '&',
      '&amp;',
      '&#106;',
      '<',
      '>',
      '/',
      '"',
      "'",
      '=',
      '<p>',
      '</p>',
      '<P >',
      '<em>',
      '</em>',
      '<br>',
      '<br/>',
      '</br>',
      '<a href="https://x.org/">',
      '<a href="http://x.org/p?q=1">',
      '<a href="javascript:x">',
      '<a href=https://x.org/>',
      '</a>',
      '<a>',
      '<span>',
      '<script>',
      '<!--',
      '-->',
      '<sub>',
      '</sup>',
      'href="https://x.org/"',
      '\u0000',
    );
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 12 }), (pieces) => {
        const abstract = pieces.join('');
        if (pattern.test(abstract) && abstract.trim() !== '') expect(buildAccepts(abstract)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});
