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
import { FILE_NAME, ID_WIDGET, RECORD_FORMAT, VOLUME_WIDGET } from './form-rules.ts';

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
  /** The editor's own YAML format (record-file.ts): a save changes only the lines of the fields edited. */
  format: typeof RECORD_FORMAT;
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
  Omit<CmsCollection, 'name' | 'folder' | 'extension' | 'format' | 'create' | 'fields' | 'slug'>
> = {
  authors: {
    label: 'Authors',
    label_singular: 'Author',
    identifier_field: 'surname',
    summary: '{{surname}}, {{name}}',
  },
  volumes: {
    label: 'Volumes',
    label_singular: 'Volume',
    identifier_field: 'citation_journal_title',
    summary: '{{citation_journal_title}} ({{full_date}})',
  },
  manuscripts: {
    label: 'Manuscripts',
    label_singular: 'Manuscript',
    identifier_field: 'citation_title',
    summary: '{{citation_title}}',
  },
};

/**
 * The form's order, as docs/editors.md lists the fields (what an editor has at hand first); a
 * field the schema gains and this list does not name follows, in the schema's order.
 */
const FORM_ORDER: Record<CollectionName, readonly string[]> = {
  authors: ['name', 'surname', 'institution', 'orcid', 'order'],
  volumes: [
    'id',
    'citation_journal_title',
    'udc',
    'first_page',
    'last_page',
    'full_date',
    'pdf',
    'citation_language',
    'citation_issn',
    'order',
  ],
  manuscripts: [
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
    'doi',
    'first_page',
    'last_page',
    'citation_language',
    'citation_issn',
    'license',
    'order',
  ],
};

/**
 * Fields kept for older files and never asked of a new record: not in the form. A file that has
 * one keeps it as written (record-file.ts); a manuscript's `citation_volume` gives way to the
 * volume chosen in the form (editor-browser.ts), as the check advises.
 */
const NOT_IN_FORM: Partial<Record<CollectionName, readonly string[]>> = { manuscripts: ['citation_volume'] };

/** `modified` (docs/oai-pmh.md, "For editors"), the same on every record. */
const CORRECTED =
  'The day you corrected this record after it was published, year-month-day, e.g. 2024-06-03: harvesters then fetch its manuscripts again.';

/**
 * Hints in the editors' words (docs/editors.md); a field not named here has its schema's
 * description. The CMS marks an optional field "(optional)" itself.
 */
const HINTS: Record<CollectionName, Record<string, string>> = {
  authors: {
    name: 'The given name, in any script (e.g. Ана).',
    surname: 'The family name, in any script.',
    institution: 'The institution, and its postal address if you like.',
    orcid: 'The ORCID iD, e.g. 0000-0002-1825-0097 (without https://orcid.org/).',
    order: 'A number, to list this author before those without one (the smallest first).',
    modified: CORRECTED,
  },
  volumes: {
    id: 'A number no other volume has (a new volume gets the next free one). Manuscripts are published with it; in a journal moved from an earlier site it is not always the numeral.',
    citation_journal_title: 'Volume and the Roman numeral, e.g. Volume VI.',
    udc: 'UDC numbers separated by one space, e.g. 57 59.',
    first_page: 'The first page, e.g. 1.',
    last_page: 'The last page, e.g. 96.',
    full_date: 'The date of publication, year-month-day, e.g. 2024-12-20.',
    citation_language: "The volume's language, when it is not the journal's (e.g. English).",
    citation_issn: "The ISSN, when it is not the journal's, e.g. 1857 - 9870.",
    order: 'A number, to list this volume before those without one (the smallest first).',
    modified: CORRECTED,
  },
  manuscripts: {
    id: 'A number no other manuscript has (a new manuscript gets the next free one).',
    citation_title: 'The title of the manuscript.',
    citation_date: 'The date of publication, year-month-day, e.g. 2024-02-28.',
    udc: 'The UDC code, e.g. 597.6.',
    section: 'The section of the journal it appears in.',
    doi: 'The DOI, e.g. 10.1234/bbsrs.2023.17 (without https://doi.org/).',
    first_page: 'Its first page in the volume.',
    last_page: 'Its last page in the volume.',
    citation_language: "The manuscript's language, when it is not the journal's (e.g. English).",
    citation_issn: "The ISSN, when it is not the journal's, e.g. 1857 - 9870.",
    license: "The web address of the manuscript's licence, when it is not the journal's.",
    order: 'A number, to list this manuscript before those without one (the smallest first).',
    modified: CORRECTED,
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
  modified: 'Corrected on',
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
      // The relation list, with the volume a typed numeral or label names exactly first (editor-browser.ts).
      widget: VOLUME_WIDGET,
      collection: 'volumes',
      value_field: '{{slug}}',
      search_fields: ['citation_journal_title'],
      display_fields: ['{{citation_journal_title}} ({{full_date}})'],
      options_length: 1000,
      required: true,
      hint: 'The volume it appears in: type its numeral (VI) and choose it.',
    }),
    // A list of single choices, not one multiple choice: the authors' order is published, and a
    // list's items can be dragged into it.
    authors: () => ({
      widget: 'list',
      label_singular: 'author',
      hint: 'The authors in the order of the paper: add each one, and drag one to move it.',
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
    keywords: () => ({
      hint: 'Keywords separated by commas, e.g. Triturus, newts, Ohrid (the published list ends with a full stop).',
    }),
    abstract: () => ({
      widget: 'text',
      pattern: [
        ABSTRACT_PATTERN,
        'Holds markup the journal does not publish: only <p>, <br>, <em>, <i>, <strong>, <b>, <sup>, <sub> and links <a href="https://..."> are allowed.',
      ],
      hint: `${ABSTRACT_HINT}. Close every tag you open.`,
    }),
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
  'Plain text, or paragraphs as <p>...</p>, with only <em>, <i>, <strong>, <b>, <sup>, <sub>, <br> and links <a href="https://...">';

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
      // The file name editor-browser.ts gives a new record, as `npm run new` names it (form-rules.ts).
      slug: `{{${FILE_NAME}}}`,
      folder: `${content}/${name}`,
      extension: 'yaml',
      format: RECORD_FORMAT,
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
  const order = FORM_ORDER[collection];
  const rank = (name: string) => (order.includes(name) ? order.indexOf(name) : order.length);
  const hidden = NOT_IN_FORM[collection] ?? [];
  const properties = Object.entries(schema.properties)
    .filter(([name]) => !hidden.includes(name))
    .sort(([a], [b]) => rank(a) - rank(b));
  return properties.map(([name, property]) => {
    const reference = REFERENCES[collection]?.[name]?.(journal, content) ?? {};
    const field: CmsField = {
      name,
      label: LABELS[name] ?? readable(name),
      ...(reference.widget ? { widget: reference.widget } : widgetFor(`${collection}.${name}`, property)),
      // An id: the next free one offered, a taken one refused (editor-browser.ts).
      ...(name === 'id' && !reference.widget ? { widget: ID_WIDGET } : {}),
      ...reference,
      ...(HINTS[collection][name] ? { hint: HINTS[collection][name] } : {}),
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
    // A date field: a text box for year-month-day, as the files and docs/editors.md write dates. The
    // browser's date picker shows its own locale's order (mm/dd/yyyy) instead.
    if (property.pattern === ISO_DATE.source)
      return {
        widget: 'string',
        pattern: [property.pattern, 'Write the date as year-month-day, e.g. 2024-02-28.'],
      };
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
