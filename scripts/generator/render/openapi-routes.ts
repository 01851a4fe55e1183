/**
 * The routes the OpenAPI description names (render/openapi.ts), and the operations each one has:
 * GET and HEAD where they succeed, the slash-less form's redirect, and the refused methods.
 *
 * One table: a route is a path, what its 200 answers, and whether it is a record's detail (which
 * can be missing: 404). The operations are made from it the same way for every route, as the host
 * rules (scripts/hosts/rules.ts) serve every route the same way.
 */
import { API_ROOT, API_SECTIONS, DETAIL_SUFFIX } from '../../shared/contract.ts';
import { RECORD_KEY } from '../model/formats.ts';
import type { PublishedSchemaName } from '../model/published.ts';

/** The description's own path: served beside the API it describes. */
export const OPENAPI_PATH = '/api/openapi.json';
export const OPENAPI_FILE = 'api/openapi.json';

/** SPEC-NOTES 5: every method but GET and HEAD answers 405 (OPTIONS too, as the original refused it). */
export const REFUSED_METHODS = ['post', 'put', 'patch', 'delete', 'options'] as const;

export type JsonObject = Record<string, unknown>;

export interface Route {
  /** The canonical path, with its trailing slash (SPEC section 4, SPEC-NOTES 6). */
  path: string;
  /** What an operation id says it is about: `Authors` gives `getAuthors`, `headAuthors`... */
  name: string;
  tag: string;
  summary: string;
  /** The 200's JSON: one record, or a bare array of them (SPEC 4, rule 1). */
  body: { schema: PublishedSchemaName; array: boolean } | 'openapi';
  /**
   * A record's detail route: its path parameter, and a 404 when no record has it. `withoutSlash`:
   * the parameter's schema in the slash-less path, where it is narrower when the hosts answer some
   * of its values otherwise (a record's own file, `<key>.json`, is no redirect).
   */
  parameter?: { name: string; description: string; schema: JsonObject; withoutSlash?: JsonObject };
  /** The path without its slash answers 301 to the canonical one (SPEC-NOTES 6). */
  redirect: boolean;
  /**
   * How the host rules serve it (scripts/hosts/rules.ts): `api`, with the API's headers and a 405
   * for every other method; `file`, as a file with its type and the headers its type rule adds.
   */
  served: 'api' | 'file';
}

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** A manuscript's or a volume's `id`. */
const ID_PARAMETER = { type: 'integer', minimum: 1, maximum: 2 ** 31 - 1 };

export const escapePattern = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * An author's key (docs/api-contract.md, section 10): a record key, but never `index` in any case,
 * whose file would be the list's own `index.json`.
 */
const AUTHOR_KEY = { type: 'string', pattern: RECORD_KEY.source, not: { pattern: '^[Ii][Nn][Dd][Ee][Xx]$' } };

/**
 * The same without its slash: a key ending with the records' file suffix is a record's file at its
 * own path (`/api/authors/ana-petrovska.json`, a spelling the description leaves out), and the list's
 * `index.json` is the list's; neither moves.
 */
const AUTHOR_KEY_WITHOUT_SLASH = {
  type: 'string',
  pattern: RECORD_KEY.source,
  not: { pattern: `^[Ii][Nn][Dd][Ee][Xx]$|${escapePattern(DETAIL_SUFFIX)}$` },
};

export const ROUTES: readonly Route[] = [
  {
    path: API_ROOT.path,
    name: 'ApiRoot',
    tag: 'API',
    summary: 'The API root: the URL of every route',
    body: { schema: 'ApiRoot', array: false },
    redirect: true,
    served: 'api',
  },
  {
    path: '/api/authors/',
    name: 'Authors',
    tag: 'Authors',
    summary: 'Every author',
    body: { schema: 'Author', array: true },
    redirect: true,
    served: 'api',
  },
  {
    path: '/api/authors/{key}/',
    name: 'Author',
    tag: 'Authors',
    summary: 'One author, by its key',
    body: { schema: 'Author', array: false },
    parameter: {
      name: 'key',
      description: "The author's key: its file name in the journal's content, without the extension.",
      schema: AUTHOR_KEY,
      withoutSlash: AUTHOR_KEY_WITHOUT_SLASH,
    },
    redirect: true,
    served: 'api',
  },
  {
    path: '/api/volumes/',
    name: 'Volumes',
    tag: 'Volumes',
    summary: 'Every volume',
    body: { schema: 'Volume', array: true },
    redirect: true,
    served: 'api',
  },
  {
    path: '/api/volumes/{id}/',
    name: 'Volume',
    tag: 'Volumes',
    summary: 'One volume, by its id',
    body: { schema: 'Volume', array: false },
    parameter: {
      name: 'id',
      description: "The volume's id: the `citation_volume` of its manuscripts.",
      schema: ID_PARAMETER,
    },
    redirect: true,
    served: 'api',
  },
  {
    path: '/api/manuscripts/',
    name: 'Manuscripts',
    tag: 'Manuscripts',
    summary: 'Every manuscript',
    body: { schema: 'Manuscript', array: true },
    redirect: true,
    served: 'api',
  },
  {
    path: '/api/manuscripts/{id}/',
    name: 'Manuscript',
    tag: 'Manuscripts',
    summary: 'One manuscript, by its id',
    body: { schema: 'Manuscript', array: false },
    parameter: { name: 'id', description: "The manuscript's `id`.", schema: ID_PARAMETER },
    redirect: true,
    served: 'api',
  },
  {
    path: API_SECTIONS.path,
    name: 'Sections',
    tag: 'Sections',
    summary: "The journal's sections",
    body: { schema: 'Section', array: true },
    redirect: true,
    served: 'api',
  },
  {
    path: OPENAPI_PATH,
    name: 'OpenApiDescription',
    tag: 'API',
    summary: 'This description of the API (OpenAPI 3.1)',
    body: 'openapi',
    redirect: false,
    served: 'file',
  },
];

/** The headers of a route's successful answer, by their names in `components.headers`. */
export type SuccessHeaders = (route: Route) => readonly string[];

/** The path items of every route: its own, and its slash-less form's. */
export function routePaths(routes: readonly Route[], successHeaders: SuccessHeaders): Record<string, JsonObject> {
  const paths: Record<string, JsonObject> = {};
  for (const route of routes) {
    paths[route.path] = routeItem(route, successHeaders);
    if (route.redirect) paths[route.path.replace(/\/$/, '')] = redirectItem(route);
  }
  return paths;
}

function routeItem(route: Route, successHeaders: SuccessHeaders): JsonObject {
  const served = successHeaders(route);
  const headers = Object.fromEntries(served.map((name) => [name, ref('headers', name)]));
  const schema =
    route.body === 'openapi'
      ? { type: 'object', description: 'An OpenAPI 3.1 document: this one.' }
      : route.body.array
        ? { type: 'array', items: ref('schemas', route.body.schema) }
        : ref('schemas', route.body.schema);
  const notFound = route.parameter ? { '404': ref('responses', 'NotFound') } : {};
  const operation = (method: 'get' | 'head', response: JsonObject) => ({
    tags: [route.tag],
    summary: method === 'get' ? route.summary : `${route.summary}: the headers alone`,
    operationId: `${method}${route.name}`,
    responses: { '200': response, ...notFound },
  });
  const parameters = [
    ...(route.parameter ? [pathParameter(route.parameter)] : []),
    ...(route.served === 'api' ? [ref('parameters', 'format')] : []),
  ];
  const item: JsonObject = {
    ...(parameters.length > 0 ? { parameters } : {}),
    get: operation('get', {
      description: route.served === 'api' ? 'The JSON, compact UTF-8.' : 'The JSON.',
      ...(served.length > 0 ? { headers } : {}),
      content: { 'application/json': { schema } },
    }),
    head: operation('head', {
      description: 'The headers GET sends, with no body.',
      ...(served.length > 0 ? { headers } : {}),
    }),
  };
  if (route.served === 'api') for (const method of REFUSED_METHODS) item[method] = refusedOperation(route, method);
  return item;
}

function redirectItem(route: Route): JsonObject {
  const operation = (method: 'get' | 'head') => ({
    tags: ['Redirects'],
    summary: `Moved to ${route.path}`,
    operationId: `${method}${route.name}WithoutSlash`,
    responses: { '301': ref('responses', 'MovedPermanently') },
  });
  const parameter = route.parameter && {
    ...route.parameter,
    schema: route.parameter.withoutSlash ?? route.parameter.schema,
  };
  return {
    parameters: [...(parameter ? [pathParameter(parameter)] : []), ref('parameters', 'format')],
    get: operation('get'),
    head: operation('head'),
  };
}

function refusedOperation(route: Route, method: (typeof REFUSED_METHODS)[number]): JsonObject {
  return {
    tags: ['Refused methods'],
    summary: `${method.toUpperCase()} is refused`,
    operationId: `${method}${route.name}`,
    responses: { '405': ref('responses', 'MethodNotAllowed') },
  };
}

function pathParameter(parameter: NonNullable<Route['parameter']>): JsonObject {
  return {
    name: parameter.name,
    in: 'path',
    required: true,
    description: parameter.description,
    schema: parameter.schema,
  };
}
