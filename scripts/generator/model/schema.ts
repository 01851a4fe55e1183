/**
 * What an editor may write in a content file, as zod schemas.
 *
 * YAML files are read with the failsafe schema, so every scalar arrives as the string the editor
 * typed (dates, page numbers, `1.10`-like codes survive). JSON files arrive with JSON's types.
 * Each field parser therefore accepts the value in either form, and turns it into the one type the
 * build uses. Every field reports at most one problem, in the contract's words.
 */
// As a namespace, so that the compiled command line keeps only the parts of zod it uses (compile-cli.cjs).
import * as z from 'zod';
import {
  DOCUMENT_PATH,
  RECORD_KEY,
  VOLUME_LABEL,
  VOLUME_PDF_PATH,
  VOLUME_UDC,
  absoluteMediaPath,
  isCanonicalRoman,
  isPlainLine,
} from './formats.ts';
import { abstract, keywords } from './text-fields.ts';
import { FIELD_LIMITS, over, overLimit } from './field-limits.ts';
import { richTitle } from './rich-title.ts';
import { refusedInPlainText } from './plain-text.ts';
import type { ProblemCode } from './problems.ts';
import { VOLUME_KEY_DESCRIPTION } from './volume-keys.ts';
import { pdfPathFix } from './pdf-path-fixes.ts';
import * as scholarly from './scholarly-fields.ts';
import {
  AZURE_STATIC_WEB_APPS_PLANS,
  CLOUDFLARE_PAGES_PLANS,
  HOST_IDS,
  type AzureStaticWebAppsPlan,
  type CloudflarePagesPlan,
  type HostId,
} from './host-ids.ts';
import { ADMIN_JSON_SCHEMA, parseAdminSettings } from './admin-settings.ts';
import { crossrefSettings } from './crossref-settings.ts';
import { oaiSettings } from './oai-settings.ts';
import {
  asString,
  bad,
  calendarDate,
  describe,
  field,
  fieldOf,
  issn,
  matching,
  ok,
  page,
  plainText,
  positiveInteger,
  type Parsed,
} from './field-parsers.ts';

export type { IssueParams } from './field-parsers.ts';

/**
 * A PDF: a path under `content/media/` (copied into `dist/media/` and published under the media
 * URL), or an absolute URL published as it is (an imported deployment's files).
 */
export type MediaRef = { kind: 'local'; path: string } | { kind: 'remote'; url: string };

function mediaFile(description: string, localShape: RegExp, remoteShape: RegExp) {
  return field({ type: 'string', description }, (value): Parsed<MediaRef> => {
    const text = asString(value, description);
    if (!text.ok) return text;
    const remotePath = absoluteMediaPath(text.value);
    if (remotePath !== undefined) {
      return remoteShape.test(remotePath)
        ? ok({ kind: 'remote', url: text.value })
        : bad(`${JSON.stringify(text.value)} has the wrong path`, description);
    }
    if (text.value.split('/').includes('..') || text.value.startsWith('/')) {
      return bad(`${JSON.stringify(text.value)} leaves the media folder`, description, 'media/outside-content');
    }
    if (!localShape.test(text.value)) {
      const fix = pdfPathFix(text.value, localShape === DOCUMENT_PATH ? 'document' : 'pdf', localShape);
      return bad(
        `${JSON.stringify(text.value)} is not a valid PDF path`,
        fix ? `write ${fix.write} (${fix.why})` : description,
      );
    }
    return ok({ kind: 'local', path: text.value });
  });
}

/** An optional position that overrides a list's default order (docs/content-model.md, "Order"). */
const order = positiveInteger(
  'a position in the published list: records with an order come first, ascending',
).optional();

/**
 * The day a record's published metadata last changed: an OAI-PMH harvester asking for what changed
 * since a day gets the manuscripts it touches (docs/oai-pmh.md, "For editors").
 */
const modified = calendarDate(
  "the day this record's published metadata last changed, as YYYY-MM-DD: harvesters of the OAI-PMH repository fetch its manuscripts again",
).optional();

export const journalSchema = z.strictObject({
  title: plainText("the journal's full title"),
  base_url: field(
    {
      type: 'string',
      format: 'uri',
      description: 'the public address where the site is published, e.g. https://journal.example.org',
    },
    parseOrigin,
  ),
  media_url: field(
    {
      type: 'string',
      format: 'uri',
      description: 'the origin that PDF URLs are published under, e.g. https://journal.example.org',
    },
    parseOrigin,
  ),
  citation_issn: issn('the ISSN as "1234 - 5678" or "1234 - 567X" (a hyphen with one space on each side)'),
  citation_language: plainText('the language name used when a record gives none, e.g. English'),
  publisher: plainText("the publisher's name").optional(),
  abbreviation: plainText("the journal's abbreviated title, e.g. Bull. Biol. Stud. Res. Soc.").optional(),
  online_issn: issn(
    'the online ISSN as "1234 - 5678" or "1234 - 567X" (a hyphen with one space on each side)',
  ).optional(),
  license: fieldOf(scholarly.JOURNAL_LICENSE_FIELD).optional(),
  sections: field(
    { type: 'array', items: { type: 'string' }, description: "the names of the journal's sections" },
    (value) => {
      if (!Array.isArray(value)) return bad(`is ${describe(value)}`, 'a list of section names', 'schema/type');
      const index = value.findIndex((s) => typeof s !== 'string' || s.trim() === '' || refusedInPlainText(s));
      if (index >= 0)
        return bad(`${describe(value[index])} is not a section name`, 'one line of text', 'schema/format', index);
      return ok(value as string[]);
    },
  ).optional(),
  // The hosts the site is published to; the build checks their limits (docs/hosting/).
  hosts: field(
    {
      type: 'array',
      items: { enum: [...HOST_IDS] },
      uniqueItems: true,
      description: `the hosts the site is published to: ${HOST_IDS.join(', ')}`,
    },
    (value) => {
      const expected = `a list of hosts from: ${HOST_IDS.join(', ')}`;
      if (!Array.isArray(value)) return bad(`is ${describe(value)}`, expected, 'schema/type');
      const index = value.findIndex(
        (h, i) => typeof h !== 'string' || !(HOST_IDS as readonly string[]).includes(h) || value.indexOf(h) !== i,
      );
      if (index >= 0)
        return bad(
          `${describe(value[index])} is not a known host, or is listed twice`,
          expected,
          'schema/format',
          index,
        );
      return ok(value as HostId[]);
    },
  ).optional(),
  // Cloudflare Pages serves more files on a paid plan; the build checks the plan's limit (docs/hosting/cloudflare-pages.md).
  cloudflare_pages_plan: field(
    {
      enum: [...CLOUDFLARE_PAGES_PLANS],
      description: `the Cloudflare plan the Pages project is on, checked when hosts lists cloudflare-pages: ${CLOUDFLARE_PAGES_PLANS.join(' or ')} (free when omitted)`,
    },
    (value) =>
      (CLOUDFLARE_PAGES_PLANS as readonly unknown[]).includes(value)
        ? ok(value as CloudflarePagesPlan)
        : bad(
            `is ${describe(value)}`,
            `${CLOUDFLARE_PAGES_PLANS.join(' or ')}: the Cloudflare plan the Pages project is on`,
          ),
  ).optional(),
  // Azure Static Web Apps publishes more on the Standard plan; the build checks the plan's limit (docs/hosting/azure-static-web-apps.md).
  azure_static_web_apps_plan: field(
    {
      enum: [...AZURE_STATIC_WEB_APPS_PLANS],
      description: `the Azure Static Web Apps plan the app is on, checked when hosts lists azure-static-web-apps: ${AZURE_STATIC_WEB_APPS_PLANS.join(' or ')} (free when omitted)`,
    },
    (value) =>
      (AZURE_STATIC_WEB_APPS_PLANS as readonly unknown[]).includes(value)
        ? ok(value as AzureStaticWebAppsPlan)
        : bad(
            `is ${describe(value)}`,
            `${AZURE_STATIC_WEB_APPS_PLANS.join(' or ')}: the Azure Static Web Apps plan the app is on`,
          ),
  ).optional(),
  // The web editor under /admin/, published only when enabled (docs/web-editor.md).
  admin: field(ADMIN_JSON_SCHEMA, parseAdminSettings).optional(),
  // What the Crossref deposit needs, never published (docs/crossref.md).
  crossref: crossrefSettings.optional(),
  // The OAI-PMH repository, written only when set (docs/oai-pmh.md).
  oai: oaiSettings.optional(),
  // The site search, on when omitted (docs/search.md).
  // Read as text by the plain YAML reader, as admin.enabled is (admin-settings.ts).
  search: field(
    {
      type: ['boolean', 'string'],
      enum: [true, false, 'true', 'false'],
      description: 'false to publish no search box and no search index (on when omitted)',
    },
    (value) =>
      value === true || value === 'true' || value === false || value === 'false'
        ? ok(value === true || value === 'true')
        : bad(`is ${describe(value)}`, 'true or false'),
  ).optional(),
});

function parseOrigin(value: unknown): Parsed<string> {
  const expected = 'an absolute http(s) origin such as https://journal.example.org, without a trailing path';
  if (typeof value !== 'string' || !/^https?:\/\/[^/?#\s]+\/?$/.test(value))
    return bad(`is ${describe(value)}`, expected);
  try {
    return ok(new URL(value).origin);
  } catch {
    return bad(`is ${describe(value)}`, expected);
  }
}

export const authorSchema = z.strictObject({
  name: plainText('the given name'),
  surname: plainText('the family name'),
  institution: plainText('the institution, optionally with its postal address'),
  order,
  orcid: fieldOf(scholarly.ORCID_FIELD).optional(),
  modified,
});

export const volumeSchema = z.strictObject({
  id: positiveInteger(
    "the volume's id: the citation_volume its manuscripts are published with (they name the volume by its file name or label: volume)",
  ),
  citation_journal_title: matching(
    '"Volume " followed by a canonical Roman numeral, e.g. Volume IV',
    VOLUME_LABEL,
    (label) => isCanonicalRoman(VOLUME_LABEL.exec(label)?.[1] ?? ''),
  ),
  citation_language: plainText('the language name, e.g. English').optional(),
  udc: matching('UDC numbers separated by one space, e.g. 57 59', VOLUME_UDC),
  citation_issn: issn('the journal ISSN as "1234 - 5678" or "1234 - 567X"').optional(),
  first_page: page('the first page as decimal digits'),
  last_page: page('the last page as decimal digits'),
  full_date: calendarDate('a real date as YYYY-MM-DD'),
  pdf: mediaFile(
    'a PDF path under content/media/ shaped volumes/pdfs/<year>/<file>.pdf, or an absolute URL to /media/volumes/pdfs/<year>/<file>.pdf',
    VOLUME_PDF_PATH,
    /^volumes\/pdfs\/\d{4}\/[^/]+\.pdf$/,
  ),
  order,
  modified,
});

const authorsDescription = 'a list of author keys (file names in content/authors/ without extension), in author order';

/**
 * An author of a manuscript: the key of an author record, or the exact published string of an
 * imported author that no single author record matches (docs/content-model.md,
 * "Authors kept as published").
 */
export type AuthorRef = string | { as_published: string };

const AS_PUBLISHED_JSON_SCHEMA = {
  type: 'object',
  properties: {
    as_published: {
      type: 'string',
      minLength: 1,
      maxLength: FIELD_LIMITS.plainText,
      description: 'the author exactly as published, without HTML markup, e.g. "Ana Petrovska"',
    },
  },
  required: ['as_published'],
  additionalProperties: false,
};

function isAsPublished(value: unknown): value is { as_published: string } {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  const text = (value as { as_published?: unknown }).as_published;
  // Any text is kept as it was published: the import reproduces it byte for byte.
  return keys.length === 1 && typeof text === 'string' && text.trim() !== '';
}

/**
 * What is wrong with a mapping of an authors list that means to keep an author as published (one
 * that isAsPublished refuses): said rather than "a mapping is not an author key".
 */
function asPublishedMistake(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !('as_published' in value))
    return undefined;
  const other = Object.keys(value).find((key) => key !== 'as_published');
  if (other !== undefined) return `has the field ${JSON.stringify(other)} beside as_published`;
  const text = (value as { as_published: unknown }).as_published;
  if (typeof text !== 'string') return `as_published is ${describe(text)}, not text`;
  const what = text === '' ? 'empty' : /[\n\r\u2028\u2029]/.test(text) ? 'a line break' : 'only spaces';
  return `as_published is ${JSON.stringify(text)}: ${what}, and no name`;
}

const manuscriptFields = z.strictObject({
  id: positiveInteger("the manuscript's id, unique among manuscripts"),
  volume: field(
    {
      anyOf: [
        { type: 'string', minLength: 1 },
        { type: 'integer', minimum: 1 },
      ],
      description: VOLUME_KEY_DESCRIPTION,
    },
    parseVolumeKey,
  ).optional(),
  // Kept for journals written before `volume` and for imports: the volume's id, which differs from
  // its numeral when the ids do not follow the labels (SPEC-NOTES 1). resolve.ts warns when it does.
  citation_volume: positiveInteger(
    'the id of the volume the manuscript appears in (its id field, which may differ from its numeral): prefer volume',
  ).optional(),
  citation_title: richTitle(
    'the title of the manuscript; italics, bold, sub- and superscript (em, i, strong, b, sub, sup) are allowed',
  ),
  citation_date: calendarDate('a real date as YYYY-MM-DD'),
  citation_language: plainText('the language name; "" for none; omit for the journal\'s language', {
    allowEmpty: true,
  }).optional(),
  udc: plainText('the UDC code; "" for none', { allowEmpty: true }).optional(),
  citation_issn: issn('the ISSN as "1234 - 5678" or "1234 - 567X"; "" for none; omit for the journal\'s ISSN', {
    allowEmpty: true,
  }).optional(),
  abstract,
  keywords,
  document: mediaFile(
    'a PDF path under content/media/ shaped pdfs/<file>.pdf, or an absolute URL to /media/pdfs/<file>.pdf',
    DOCUMENT_PATH,
    /^pdfs\/[^/]+\.pdf$/,
  ),
  authors: field(
    {
      type: 'array',
      items: { anyOf: [{ type: 'string', pattern: RECORD_KEY.source }, AS_PUBLISHED_JSON_SCHEMA] },
      maxItems: FIELD_LIMITS.authors,
      description: authorsDescription,
    },
    (value) => {
      if (!Array.isArray(value)) return bad(`is ${describe(value)}`, authorsDescription, 'schema/type');
      if (value.length > FIELD_LIMITS.authors) {
        const { message, limit } = over(value.length, FIELD_LIMITS.authors, 'authors');
        return bad(`are ${message}`, `at most ${limit} authors, in author order`, 'schema/too-long');
      }
      for (const [i, key] of value.entries()) {
        if (isAsPublished(key)) {
          const tooLong = overLimit(key.as_published, FIELD_LIMITS.plainText);
          if (tooLong)
            return bad(
              `as_published is ${tooLong.message}`,
              `the author exactly as published, in at most ${tooLong.limit} characters`,
              'schema/too-long',
              i,
            );
          // Published verbatim in the authors list, like any plain field (plain-text.ts).
          const refused = refusedInPlainText(key.as_published);
          if (refused) return bad(`as_published ${refused.message}`, refused.expected, refused.code, i);
          continue;
        }
        const mistake = asPublishedMistake(key);
        if (mistake)
          return bad(mistake, 'the author exactly as published, on one line, e.g. "Ana Petrovska"', 'schema/format', i);
        if (typeof key !== 'string' || !RECORD_KEY.test(key)) {
          return bad(`${describe(key)} is not an author key`, authorsDescription, 'schema/format', i);
        }
      }
      return ok(value as AuthorRef[]);
    },
  ),
  section: plainText('the name of the journal section'),
  order,
  doi: fieldOf(scholarly.DOI_FIELD).optional(),
  first_page: page('the first page as decimal digits').optional(),
  last_page: page('the last page as decimal digits, not before first_page').optional(),
  license: fieldOf(scholarly.MANUSCRIPT_LICENSE_FIELD).optional(),
  modified,
});

/** A volume key as written: text, or in a JSON file a whole number (the volume's numeral). */
function parseVolumeKey(value: unknown): Parsed<string> {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return ok(String(value));
  const text = asString(value, VOLUME_KEY_DESCRIPTION);
  if (!text.ok) return text;
  if (text.value.trim() === '' || !isPlainLine(text.value))
    return bad(`${JSON.stringify(text.value)} is not a volume key`, VOLUME_KEY_DESCRIPTION);
  return ok(text.value);
}

/**
 * A manuscript names its volume by `volume` (or, as older files do, by `citation_volume`). Checked
 * even when other fields have problems, so that one run reports them all: a field present but
 * invalid is reported by its own parser, so only the keys' presence is looked at here.
 */
function namesVolume(record: object, ctx: z.RefinementCtx) {
  if ('volume' in record || 'citation_volume' in record) return;
  const params: { code: ProblemCode; expected: string } = { code: 'schema/missing', expected: VOLUME_KEY_DESCRIPTION };
  ctx.addIssue({ code: 'custom', path: ['volume'], message: 'is missing', params });
}
const everyRecord = {
  when: (payload: { value: unknown }) => typeof payload.value === 'object' && payload.value !== null,
};

// Its pages are checked together where the file is read (scholarly-fields.ts); a volume's in resolve.ts.
export const manuscriptSchema = manuscriptFields
  .superRefine(scholarly.pagesInOrder)
  .superRefine(namesVolume, everyRecord);

export type JournalInput = z.output<typeof journalSchema>;
export type AuthorInput = z.output<typeof authorSchema>;
export type VolumeInput = z.output<typeof volumeSchema>;
export type ManuscriptInput = z.output<typeof manuscriptSchema>;

export const collections = {
  authors: authorSchema,
  volumes: volumeSchema,
  manuscripts: manuscriptSchema,
} as const;

export type CollectionName = keyof typeof collections;
export const COLLECTION_NAMES = Object.keys(collections) as CollectionName[];

/** JSON Schemas for editors (yaml-language-server, VS Code), generated from the schemas above. */
export function contentJsonSchemas(): Record<string, object> {
  const toJson = (schema: z.ZodType, title: string) => ({
    ...z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }),
    title,
  });
  return {
    'journal.schema.json': toJson(journalSchema, 'Journal settings (content/journal.yaml)'),
    'author.schema.json': toJson(authorSchema, 'Author (content/authors/*.yaml)'),
    'volume.schema.json': toJson(volumeSchema, 'Volume (content/volumes/*.yaml)'),
    'manuscript.schema.json': toJson(manuscriptSchema, 'Manuscript (content/manuscripts/*.yaml)'),
  };
}
