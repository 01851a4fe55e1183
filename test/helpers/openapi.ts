/**
 * The built OpenAPI description as a validator: every schema in it (a response's body, a header)
 * compiled by ajv, the JSON Schema 2020-12 dialect OpenAPI 3.1 uses, with ajv-formats checking
 * `date` and `uri`. The schemas are taken from the description itself, by JSON pointer, so a test
 * that validates a response checks it against exactly what the description promises a client.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

export type Description = {
  paths: Record<string, Record<string, unknown>>;
  components: Record<string, Record<string, unknown>>;
} & Record<string, unknown>;

/** The top-level fields of an OpenAPI document that are not JSON Schema keywords. */
const DOCUMENT_FIELDS = ['openapi', 'info', 'servers', 'security', 'tags', 'paths', 'components'];

// ajv-formats is CommonJS: imported from ES modules, its function is the module's `default`.
const addFormats = addFormatsModule.default;

export interface DescriptionValidator {
  /** The body a response with that status gives on GET `path` (a path as the description names it). */
  body(path: string, status?: string): ValidateFunction;
  /** A header of a response, as the description states it (after following its `$ref`). */
  header(path: string, method: string, status: string, name: string): ValidateFunction;
  /** The response object of an operation, with its `$ref` followed. */
  response(path: string, method: string, status: string): Record<string, unknown> | undefined;
}

export function descriptionValidator(description: Description): DescriptionValidator {
  // Strict: an unknown keyword or format in a generated schema is an error, not ignored.
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  ajv.addVocabulary(DOCUMENT_FIELDS);
  ajv.addSchema(description, 'openapi.json');
  const compile = (pointer: string) => {
    const validate = ajv.getSchema(`openapi.json#${pointer}`);
    if (!validate) throw new Error(`the description has no schema at ${pointer}`);
    return validate;
  };
  const response = (path: string, method: string, status: string) => {
    const operation = description.paths[path]?.[method] as { responses?: Record<string, unknown> } | undefined;
    return follow(description, operation?.responses?.[status]);
  };
  return {
    body: (path, status = '200') =>
      compile(`/paths/${escape(path)}/get/responses/${status}/content/application~1json/schema`),
    header(path, method, status, name) {
      const headers = response(path, method, status)?.['headers'] as Record<string, unknown> | undefined;
      const header = follow(description, headers?.[name]);
      if (!header) throw new Error(`${method.toUpperCase()} ${path} ${status} has no header ${name}`);
      return ajv.compile(header['schema'] as object);
    },
    response,
  };
}

/** A JSON pointer's token (RFC 6901). */
export const escape = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');

/** An object, or the object its local `$ref` names. */
function follow(description: Description, value: unknown): Record<string, unknown> | undefined {
  const object = value as Record<string, unknown> | undefined;
  const ref = object?.['$ref'];
  if (typeof ref !== 'string') return object;
  let target: unknown = description;
  for (const token of ref.replace(/^#\//, '').split('/'))
    target = (target as Record<string, unknown>)[token.replace(/~1/g, '/').replace(/~0/g, '~')];
  return target as Record<string, unknown>;
}
