/**
 * What the API publishes, as zod schemas: the records of the three lists (SPEC section 2), the
 * sections and the root object, field by field in the contract's key order, with the contract's formats.
 *
 * schema.ts says what an editor may write; this module says what a client receives. The OpenAPI
 * description (render/openapi.ts) is generated from these schemas, and the tests validate every
 * built response against that description, so the two cannot drift apart unnoticed. A field's
 * `description` is the contract's note, for the readers of the description.
 */
// As a namespace, like schema.ts: the compiled command line keeps only the parts of zod it uses.
import * as z from 'zod';
import { API_LISTS } from '../../shared/contract.ts';
import { ISSN, PAGE, ROMAN, VOLUME_UDC } from './formats.ts';

/** Identifiers are 32-bit positive integers in content (schema.ts), as the original's primary keys were. */
const MAX_ID = 2 ** 31 - 1;

/** A source without its anchors, to be placed inside a larger pattern. */
const inner = (pattern: RegExp) => pattern.source.replace(/^\^|\$$/g, '');

const text = (description: string) => z.string().min(1).describe(description);
const id = (description: string) => z.int().min(1).max(MAX_ID).describe(description);
const isoDate = (description: string) => z.iso.date().describe(description);

/**
 * SPEC 2.2 / 2.3: an absolute URL of a PDF with the contract's path shape. The origin is not fixed:
 * an imported deployment's files keep their URLs on the old host (docs/importing.md). zod writes a
 * URL with a pattern as the pattern alone: the `uri` format is restated for the JSON Schema.
 */
const pdfUrl = (path: string, description: string) =>
  z
    .url({ protocol: /^https?$/ })
    .regex(new RegExp(`^https?://[^/?#]+/media/${path}[^/?#]+\\.pdf(?:[?#].*)?$`))
    .meta({ format: 'uri' })
    .describe(description);

/** SPEC 2.2: `Volume` and a canonical Roman numeral (never an empty one). */
const VOLUME_TITLE = new RegExp(`^Volume (?=[IVXLCDM])${inner(ROMAN)}$`);

/**
 * SPEC 2.3: keywords separated by a comma and a space, ending with a full stop. As the content
 * validator has it (schema.ts): one line, no keyword empty or with a space at either end.
 */
const KEYWORDS = new RegExp(
  [
    '^(?!, )', // the first keyword is not empty;
    '(?![\\s\\S]*, (?:\\s|, ))', // nor is any other: nothing blank after a separator,
    '(?![\\s\\S]*\\s, )', // nor before one;
    // no control characters but the tabs and line breaks an imported value may keep (plain-text.ts),
    '(?![\\s\\S]*[\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f])',
    '[\\s\\S]*\\.\\s*$', // and a full stop at the end (white space around the whole is kept as published).
  ].join(''),
);

/** SPEC 2.1, in the contract's key order. */
export const publishedAuthorSchema = z
  .strictObject({
    name: text('Given name of the author.'),
    surname: text('Family name of the author.'),
    institution: text(
      "Free text naming the author's institution; it may include a postal address, and may end with a full stop.",
    ),
  })
  .describe('An author.');

/** SPEC 2.2, in the contract's key order. The volume's id is not published (SPEC-NOTES 1). */
const publishedVolumeSchema = z
  .strictObject({
    citation_language: text('Language name, e.g. English.'),
    citation_journal_title: z
      .string()
      .regex(VOLUME_TITLE)
      .describe('The word "Volume", a space and a Roman numeral, e.g. "Volume IV".'),
    udc: z.string().regex(VOLUME_UDC).describe('Classification codes: numbers separated by one space, e.g. "57 59".'),
    citation_issn: z
      .string()
      .regex(ISSN)
      .describe(
        'The ISSN as "1234 - 5678" (the last character may be X, the check character for 10): a hyphen with one space on each side. The same in every volume.',
      ),
    first_page: z.string().regex(PAGE).describe('First page, as decimal digits.'),
    last_page: z.string().regex(PAGE).describe('Last page, as decimal digits.'),
    pdf: pdfUrl(
      'volumes/pdfs/\\d{4}/',
      'Absolute URL of the PDF of the whole volume: /media/volumes/pdfs/<year>/<file>.pdf.',
    ),
    full_date: isoDate('Date of the volume, YYYY-MM-DD.'),
  })
  .describe('A volume, an issue of the journal.');

/** SPEC 2.3, in the contract's key order. */
const publishedManuscriptSchema = z
  .strictObject({
    id: id('Identifier of the manuscript.'),
    citation_language: z.string().describe('Language name; may be empty.'),
    udc: z.string().describe('Classification code; may be empty.'),
    abstract: text('Free text; may contain simple HTML markup (p, em, i, strong, b, sup, sub, br, a).'),
    citation_issn: z
      .string()
      .regex(new RegExp(`^(?:${inner(ISSN)})?$`))
      .describe('The ISSN as "1234 - 5678" (the last character may be X); may be empty.'),
    citation_title: text('Title of the manuscript; may contain simple HTML markup (em, i, strong, b, sup, sub).'),
    citation_date: isoDate('Date of the manuscript, YYYY-MM-DD.'),
    citation_volume: id('The id of the volume the manuscript appears in.'),
    keywords: z
      .string()
      .regex(KEYWORDS)
      .describe('One string: keywords separated by a comma and a space, ending with a full stop.'),
    document: pdfUrl('pdfs/', 'Absolute URL of the PDF of the manuscript: /media/pdfs/<file>.pdf.'),
    authors: z
      .array(text('One author as "<name> <surname>".'))
      .describe('The authors in author order, each the full string "<name> <surname>".'),
    section: text('Name of the journal section.'),
  })
  .describe('A manuscript, an article.');

/** A section of the journal (`/api/sections/`): its title, the one field the original's section records are known to have. */
const publishedSectionSchema = z
  .strictObject({ title: text('Name of the section, as manuscripts give it in `section`.') })
  .describe('A section of the journal.');

/** The routes the API root names, in the order the original's DRF router registered them. */
export const ROOT_ROUTES = [...API_LISTS, 'sections'] as const;

/** The root `/api/`: each route's absolute URL by its name, as the original's DRF router wrote it (SPEC-NOTES). */
const publishedApiRootSchema = z
  .strictObject(
    Object.fromEntries(
      ROOT_ROUTES.map((route) => [route, z.url({ protocol: /^https?$/ }).describe(`Absolute URL of /api/${route}/.`)]),
    ) as Record<(typeof ROOT_ROUTES)[number], z.ZodURL>,
  )
  .describe('The API root: the absolute URL of each route.');

/** Every published shape, by the name the OpenAPI description gives it (`#/components/schemas/<name>`). */
export const PUBLISHED_SCHEMAS = {
  ApiRoot: publishedApiRootSchema,
  Author: publishedAuthorSchema,
  Volume: publishedVolumeSchema,
  Manuscript: publishedManuscriptSchema,
  Section: publishedSectionSchema,
} as const;

export type PublishedSchemaName = keyof typeof PUBLISHED_SCHEMAS;
export type PublishedAuthor = z.output<typeof publishedAuthorSchema>;
export type PublishedVolume = z.output<typeof publishedVolumeSchema>;
export type PublishedManuscript = z.output<typeof publishedManuscriptSchema>;

/** A published shape as JSON Schema draft 2020-12, the dialect of OpenAPI 3.1's Schema Object. */
export function publishedJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'output' });
  return json;
}
