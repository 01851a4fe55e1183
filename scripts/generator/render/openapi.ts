/**
 * Renderer: `api/openapi.json`, an OpenAPI 3.1 description of the whole API (docs/api-contract.md,
 * "The OpenAPI description"): every route with its operations (openapi-routes.ts), the headers the
 * host rules send (scripts/hosts/rules.ts), and the published records' shapes, generated from the
 * zod schemas the tests validate the built responses with (model/published.ts).
 *
 * It reads the journal's settings alone (its title, base_url and publisher), never a record: one
 * small file whatever the journal's size, taken from the previous build until the settings or the
 * code change (the build cache's fingerprint covers both).
 */
import { createHash } from 'node:crypto';
import type { ZodType } from 'zod';
import type { OutputFile } from '../../shared/output-file.ts';
import { CONTRACT_HEADERS, CONTRACT_RULES, CROSS_ORIGIN_HEADERS } from '../../hosts/path-rules.ts';
import { PUBLISHED_SCHEMAS, publishedJsonSchema, type PublishedSchemaName } from '../model/published.ts';
import type { JournalInput } from '../model/schema.ts';
import type { Site, TypeRule } from '../model/site.ts';
import { escapePattern, OPENAPI_FILE, OPENAPI_PATH, ROUTES, routePaths, type JsonObject } from './openapi-routes.ts';

/**
 * The contract's version (SPEC section 9 fixes none; the paths carry no version segment). The
 * description's `info.version` is this, then `+` and a digest of the rest of the description: it
 * changes exactly when the description does, and no clock is read.
 */
export const CONTRACT_VERSION = '1.0.0';

/**
 * How hosts serve the description: OpenAPI 3.1 names `application/json` for a description written
 * in JSON, so it is typed as the API's lists are; readable from any origin, for an API explorer
 * (Swagger UI, Redoc) on another site.
 */
export const OPENAPI_TYPES: readonly TypeRule[] = [
  { path: OPENAPI_PATH, contentType: CONTRACT_HEADERS['Content-Type'], headers: CROSS_ORIGIN_HEADERS },
];

export type DescribedJournal = Pick<JournalInput, 'title' | 'base_url' | 'publisher'>;

export function renderOpenApi(site: Site): OutputFile[] {
  // The body reads what it needs itself, while it runs (model/site.ts).
  return [{ path: OPENAPI_FILE, body: () => [`${JSON.stringify(openApiDescription(site.journal), null, 2)}\n`] }];
}

/** The description of the journal's API; `schemas`, the published shapes it is generated from. */
export function openApiDescription(
  journal: DescribedJournal,
  schemas: Readonly<Record<PublishedSchemaName, ZodType>> = PUBLISHED_SCHEMAS,
): JsonObject {
  const headers = successHeaders();
  const description = {
    openapi: '3.1.0',
    info: {
      title: journal.title,
      version: CONTRACT_VERSION,
      description: INFO_DESCRIPTION,
      ...(journal.publisher ? { contact: { name: journal.publisher } } : {}),
    },
    servers: [{ url: journal.base_url, description: 'Where the journal is published.' }],
    // The data is public: no operation asks for credentials (SPEC section 5 names none).
    security: [],
    tags: TAGS,
    paths: routePaths(ROUTES, (route) => (route.served === 'api' ? Object.keys(headers) : fileHeaders(route.path))),
    components: {
      schemas: Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, publishedJsonSchema(schema)])),
      parameters: { format: FORMAT_PARAMETER },
      headers,
      responses: RESPONSES,
    },
  };
  const digest = createHash('sha256').update(JSON.stringify(description)).digest('hex').slice(0, 12);
  return { ...description, info: { ...description.info, version: `${CONTRACT_VERSION}+${digest}` } };
}

const INFO_DESCRIPTION = [
  "The journal's read-only API: its authors, volumes and manuscripts, each list a bare JSON array",
  'and each record also at its own path, all static files.',
  '',
  'GET and HEAD succeed; every other method answers 405 with `Allow: GET`, and a path without its',
  'final slash moves to the path with it (301), where the host can be configured to do so',
  "(the generator's hosting notes name the hosts that cannot). Any query string, `?format=api`",
  'included, returns the same JSON. A path that names no record answers 404 with an HTML page.',
].join('\n');

const TAGS = [
  { name: 'API', description: 'The root naming every route, and this description.' },
  { name: 'Authors', description: 'The authors list and each author.' },
  { name: 'Volumes', description: 'The volumes list, the issues of the journal, and each volume.' },
  { name: 'Manuscripts', description: 'The manuscripts list, the articles, and each manuscript.' },
  { name: 'Sections', description: "The journal's sections, as manuscripts name them." },
  { name: 'Redirects', description: 'Each path without its final slash, moved permanently to the path with it.' },
  { name: 'Refused methods', description: 'The API only reads: every method but GET and HEAD answers 405.' },
];

/** SPEC section 4 and SPEC-NOTES 4: `format` is accepted and changes nothing. */
const FORMAT_PARAMETER = {
  name: 'format',
  in: 'query',
  required: false,
  description: 'Accepted for compatibility with the original service; any value, or none, returns the same JSON.',
  schema: { type: 'string' },
  example: 'api',
};

/** What each header the host rules send means to a client, by its name. */
const HEADER_DESCRIPTIONS: Readonly<Record<string, string>> = {
  Allow: 'The only method the API accepts (HEAD answers as GET does).',
  Vary: 'Names `Accept`; a host that compresses adds `Accept-Encoding`.',
  'Access-Control-Allow-Origin': 'The data is public: any web page may read it.',
  'X-Content-Type-Options': 'The JSON is never sniffed as another type.',
  'Cache-Control': 'How long a cache may keep the answer.',
};

/**
 * The headers of every successful answer, from the rules the host configurations are rendered from.
 * Content-Type is the `application/json` of each response's content: OpenAPI ignores a header of
 * that name. `Vary` may carry more than the contract's `Accept` (SPEC-NOTES 7); the rest are exact.
 */
function successHeaders(): Record<string, JsonObject> {
  const headers: Record<string, JsonObject> = {};
  for (const [name, value] of Object.entries(CONTRACT_RULES.apiHeaders)) {
    if (name === 'Content-Type') continue;
    const schema =
      name === 'Vary'
        ? { type: 'string', pattern: `(?:^|,)\\s*${escapePattern(value)}\\s*(?:,|$)` }
        : { type: 'string', const: value };
    headers[name] = { description: HEADER_DESCRIPTIONS[name] ?? `Always \`${value}\`.`, required: true, schema };
  }
  return headers;
}

/**
 * The headers the host rules send with a file served as it is (its `types`, OPENAPI_TYPES for the
 * description), where they are the API's own, with the same value: the description's CORS and nosniff.
 */
function fileHeaders(path: string): string[] {
  const rule = OPENAPI_TYPES.find((candidate) => 'path' in candidate && candidate.path === path);
  return Object.entries(rule?.headers ?? {})
    .filter(([name, value]) => name !== 'Content-Type' && CONTRACT_RULES.apiHeaders[name] === value)
    .map(([name]) => name);
}

const RESPONSES = {
  MovedPermanently: {
    description: 'The same path with its final slash; the query string is kept.',
    headers: {
      Location: {
        description: 'Where the route is.',
        required: true,
        schema: { type: 'string', format: 'uri-reference' },
      },
    },
  },
  NotFound: {
    description: "No record has that id or key: the site's 404 page, never JSON.",
    content: { 'text/html': { schema: { type: 'string' } } },
  },
  MethodNotAllowed: {
    description: 'The API only reads. The body depends on the host: empty, or a JSON `detail`.',
    headers: { Allow: { description: 'The method to use.', required: true, schema: { type: 'string', const: 'GET' } } },
  },
};
