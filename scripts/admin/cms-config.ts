/**
 * The web editor's configuration (Decap CMS's `config.yml`), generated from the zod schemas that
 * validate content (model/schema.ts), through the same JSON Schemas `npm run schema` writes. Each
 * field's widget, whether it is required, its pattern and its hint come from its schema; what a
 * schema says only in words (which collection a key refers to, where a PDF is stored, the
 * abstract's markup) is the table REFERENCES below. A field the schema gains gets a widget by its
 * type; a shape no widget fits makes `cmsConfig` throw, naming the field (docs/web-editor.md).
 */
import * as z from 'zod';
import { collections, type CollectionName, type JournalInput } from '../generator/model/schema.ts';
import { DOCUMENT_PATH, ISO_DATE, VOLUME_PDF_PATH } from '../generator/model/formats.ts';
import { ABSTRACT_PATTERN } from './abstract-pattern.ts';

/** One field of the CMS's form: Decap's field options, as written to config.yml. */
export interface CmsField {
  name: string;
  label: string;
  widget: string;
  required?: boolean;
  hint?: string;
  pattern?: [string, string];
  [option: string]: unknown;
}

export interface CmsCollection {
  name: CollectionName;
  label: string;
  label_singular: string;
  folder: string;
  extension: 'yaml';
  format: 'yml';
  create: true;
  slug: string;
  identifier_field: string;
  summary: string;
  fields: CmsField[];
}

/** Where the CMS saves: a git host in production, decap-server on the editor's machine. */
export type CmsBackend =
  | { name: 'proxy'; proxy_url: string }
  | { name: string; repo?: string; branch?: string; base_url?: string; auth_endpoint?: string };

export interface CmsConfig {
  backend: CmsBackend;
  site_url: string;
  display_url: string;
  media_folder: string;
  public_folder: string;
  /** Keys follow the project's key rules (docs/content-model.md): ASCII letters, digits, `.`, `_`, `-`. */
  slug: { encoding: 'ascii'; clean_accents: true; sanitize_replacement: '-' };
  collections: CmsCollection[];
}

export interface CmsConfigOptions {
  /** The content folder relative to the repository root (`content`). */
  content?: string;
}

/** JSON Schema, as far as the fields here use it. */
interface PropertySchema {
  type?: string | string[];
  description?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  enum?: unknown[];
  items?: PropertySchema;
  anyOf?: PropertySchema[];
}

const COLLECTIONS: Record<
  CollectionName,
  Omit<CmsCollection, 'name' | 'folder' | 'extension' | 'format' | 'create' | 'fields'>
> = {
  authors: {
    label: 'Authors',
    label_singular: 'Author',
    // The file name is the author's key (docs/content-model.md, "The key"): name-surname, as the journal's keys are.
    slug: '{{name}}-{{surname}}',
    identifier_field: 'surname',
    summary: '{{surname}}, {{name}}',
  },
  volumes: {
    label: 'Volumes',
    label_singular: 'Volume',
    slug: '{{citation_journal_title}}',
    identifier_field: 'citation_journal_title',
    summary: '{{citation_journal_title}} ({{full_date}})',
  },
  manuscripts: {
    label: 'Manuscripts',
    label_singular: 'Manuscript',
    slug: '{{id}}-{{citation_title}}',
    identifier_field: 'citation_title',
    summary: '{{citation_title}}',
  },
};

/** Labels where a field's name does not read well as one. */
const LABELS: Record<string, string> = {
  citation_title: 'Title',
  citation_date: 'Publication date',
  volume: 'Volume',
  citation_volume: 'Volume id',
  citation_language: 'Language',
  citation_issn: 'ISSN',
  citation_journal_title: 'Volume label',
  full_date: 'Publication date',
  udc: 'UDC',
  pdf: 'Volume PDF',
  document: 'PDF',
};

/**
 * The fields whose schema says in words what the form must know: the collection a key refers to,
 * the folder a PDF is stored in, the abstract's allowed markup, the journal's sections.
 */
const REFERENCES: Partial<
  Record<CollectionName, Record<string, (journal: JournalInput, content: string) => Partial<CmsField>>>
> = {
  manuscripts: {
    // By the volume's file name, as authors are by theirs: the key the build resolves (volume-keys.ts).
    volume: () => ({
      widget: 'relation',
      collection: 'volumes',
      value_field: '{{slug}}',
      search_fields: ['citation_journal_title'],
      display_fields: ['{{citation_journal_title}} ({{full_date}})'],
      options_length: 1000,
      required: true,
      hint: 'The volume the manuscript appears in.',
    }),
    // Files written before `volume` keep it; the form offers no reason to type it.
    citation_volume: () => ({
      hint: "Older files only: the volume's id, which may differ from its number. Choose the volume above instead.",
    }),
    // A list of single choices, not one multiple choice: the authors' order is published, and a
    // list's items can be dragged into it.
    authors: () => ({
      widget: 'list',
      label_singular: 'author',
      hint: 'The authors in author order: add each one, and drag one to move it.',
      field: {
        name: 'author',
        label: 'Author',
        widget: 'relation',
        collection: 'authors',
        value_field: '{{slug}}',
        search_fields: ['name', 'surname'],
        display_fields: ['{{name}} {{surname}}'],
        options_length: 10000,
      },
    }),
    document: (_journal, content) => ({
      ...pdfField(`${content}/media/pdfs`, 'pdfs', DOCUMENT_PATH),
      hint: 'The manuscript PDF: upload it, or choose one already uploaded.',
    }),
    keywords: () => ({ hint: 'Keywords separated by commas; the published list ends with a full stop.' }),
    abstract: () => ({ widget: 'text', pattern: [ABSTRACT_PATTERN, ABSTRACT_HINT] }),
    section: (journal) =>
      journal.sections && journal.sections.length > 0 ? { widget: 'select', options: [...journal.sections] } : {},
  },
  volumes: {
    // SPEC 2.2: a volume's PDF is filed under its year, the year of the volume's date (the CMS's
    // `{{year}}` is the year of the upload).
    pdf: (_journal, content) => ({
      ...pdfField(`${content}/media/volumes/pdfs/${VOLUME_YEAR}`, `volumes/pdfs/${VOLUME_YEAR}`, VOLUME_PDF_PATH),
      hint: 'The volume PDF, filed under the year of the publication date: fill in the date first.',
    }),
  },
};

/** The year of a volume's `full_date`, as the CMS writes it in a folder's template. */
const VOLUME_YEAR = "{{full_date | date('YYYY')}}";

const ABSTRACT_HINT =
  'Plain text, or HTML with only <p>, <br>, <em>, <i>, <strong>, <b>, <sup>, <sub> and links <a href="https://...">';

function pdfField(mediaFolder: string, publicFolder: string, shape: RegExp): Partial<CmsField> {
  return {
    widget: 'file',
    // A leading slash: relative to the repository, not to the record's folder.
    media_folder: `/${mediaFolder}`,
    public_folder: publicFolder,
    choose_url: false,
    // The CMS checks a file's name, not its path (the folder is the field's own): the path's last step.
    pattern: [
      `^${shape.source.slice(shape.source.lastIndexOf('\\/') + 2)}`,
      'a PDF whose name has only letters, digits, ".", "_" and "-", ending in .pdf',
    ],
  };
}

export function cmsConfig(journal: JournalInput, backend: CmsBackend, options: CmsConfigOptions = {}): CmsConfig {
  const content = options.content ?? 'content';
  return {
    backend,
    site_url: journal.base_url,
    display_url: journal.base_url,
    media_folder: `${content}/media/pdfs`,
    public_folder: 'pdfs',
    slug: { encoding: 'ascii', clean_accents: true, sanitize_replacement: '-' },
    collections: (Object.keys(collections) as CollectionName[]).map((name) => ({
      name,
      ...COLLECTIONS[name],
      folder: `${content}/${name}`,
      extension: 'yaml',
      format: 'yml',
      create: true,
      fields: fieldsOf(name, journal, content),
    })),
  };
}

/** The production backend from journal.yaml's `admin` setting. */
export function productionBackend(journal: JournalInput): CmsBackend | undefined {
  const admin = journal.admin;
  if (!admin?.enabled) return undefined;
  const { enabled: _enabled, backend: name, ...settings } = admin;
  return { name, ...settings };
}

function fieldsOf(collection: CollectionName, journal: JournalInput, content: string): CmsField[] {
  const schema = z.toJSONSchema(collections[collection], { io: 'input', unrepresentable: 'any' }) as {
    properties: Record<string, PropertySchema>;
    required?: string[];
  };
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties).map(([name, property]) => {
    const reference = REFERENCES[collection]?.[name]?.(journal, content) ?? {};
    const field: CmsField = {
      name,
      label: LABELS[name] ?? readable(name),
      ...(reference.widget ? { widget: reference.widget } : widgetFor(`${collection}.${name}`, property)),
      ...reference,
      required: reference.required ?? required.has(name),
    } as CmsField;
    if (field.hint === undefined && property.description) {
      // The form cannot write "" (admin-page.ts leaves an empty optional field out), so the schema's
      // `"" for none` would only tempt an editor to type two quotes.
      const description = property.description.replace(/;? ?"" for none/g, '');
      field.hint = field.required ? sentence(description) : `${sentence(description)} Left empty, it is left out.`;
    }
    return field;
  });
}

/** A widget for a field from its JSON Schema alone. */
export function widgetFor(field: string, property: PropertySchema): Omit<CmsField, 'name' | 'label'> {
  const types = typeof property.type === 'string' ? [property.type] : (property.type ?? []);
  const must = (message: string) => sentence(`must be ${message}`)!;
  if (property.enum && property.enum.every((value) => typeof value === 'string'))
    return { widget: 'select', options: property.enum };
  if (types.length === 1 && types[0] === 'integer')
    return {
      widget: 'number',
      value_type: 'int',
      ...(property.minimum === undefined ? {} : { min: property.minimum }),
      ...(property.maximum === undefined ? {} : { max: property.maximum }),
    };
  if (types.length === 1 && types[0] === 'boolean') return { widget: 'boolean' };
  if (types.includes('string') && types.every((type) => type === 'string' || type === 'integer')) {
    // A date field: the browser's date picker, saving the text YYYY-MM-DD.
    if (property.pattern === ISO_DATE.source)
      return { widget: 'datetime', format: 'YYYY-MM-DD', date_format: 'YYYY-MM-DD', time_format: false };
    return {
      widget: 'string',
      ...(property.pattern
        ? { pattern: [property.pattern, must(property.description ?? 'in the expected form')] }
        : {}),
    };
  }
  // A list of texts: one box per item.
  if (types.includes('array') && property.items?.type === 'string')
    return { widget: 'list', field: { name: 'item', label: 'Item', widget: 'string' } };
  // A list, or one text that holds the list (keywords): the items typed in one box, separated by
  // commas. That box also shows a record that holds the text, and saves it as it was unless edited
  // (a list of one box per item cannot show a text at all).
  const list = property.anyOf?.find((option) => option.type === 'array');
  if (list?.items?.type === 'string' && property.anyOf?.some((option) => option.type === 'string'))
    return { widget: 'list', hint: sentence(`${property.description ?? 'the items'}; type them separated by commas`) };
  throw new Error(
    `the web editor has no widget for ${field} (${JSON.stringify(property)}): add it to REFERENCES in scripts/admin/cms-config.ts`,
  );
}

/** `first_page` → `First page`; `orcid` → `ORCID`. */
function readable(name: string): string {
  const ACRONYMS = new Set(['id', 'doi', 'orcid', 'issn', 'udc', 'pdf', 'url']);
  const words = name.split('_').map((word) => (ACRONYMS.has(word) ? word.toUpperCase() : word));
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A schema's description as a hint: a sentence. */
function sentence(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const capital = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}
