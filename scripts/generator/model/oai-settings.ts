/**
 * The `oai` setting of content/journal.yaml: the journal publishes an OAI-PMH repository of its
 * manuscripts (docs/oai-pmh.md). Present, the build writes the repository's files under `oai/`;
 * absent, it writes none. Its one value is the address the repository's Identify answer publishes
 * as `adminEmail`, which the protocol requires.
 */
import * as z from 'zod';
import { asString, bad, field, ok } from './field-parsers.ts';
import { EMAIL } from './crossref-settings.ts';
import type { Problem } from './problems.ts';

const ADMIN_EMAIL =
  'the e-mail address a harvester writes to about the OAI-PMH repository, published in its Identify answer, e.g. editor@journal.example.org';

export const oaiSettings = z
  .strictObject({
    admin_email: field({ type: 'string', description: ADMIN_EMAIL, pattern: EMAIL.source }, (value) => {
      const text = asString(value, ADMIN_EMAIL);
      if (!text.ok) return text;
      if (!EMAIL.test(text.value)) return bad(`${JSON.stringify(text.value)} is not an e-mail address`, ADMIN_EMAIL);
      return ok(text.value);
    }),
  })
  .meta({
    description:
      'publish an OAI-PMH repository of the manuscripts under /oai (docs/oai-pmh.md): admin_email, the address harvesters write to',
  });

export type OaiSettings = z.output<typeof oaiSettings>;

/** What the oai-identifier scheme accepts as a repository identifier: a domain name with a dot. */
const DOMAIN_NAME = /^[a-zA-Z][a-zA-Z0-9-]*(\.[a-zA-Z][a-zA-Z0-9-]*)+$/;

/**
 * The repository's identifiers are `oai:<host of base_url>:<id>`, and the oai-identifier scheme
 * takes a domain name there: a base_url on an IP address or on a name without a dot (localhost)
 * cannot name them. Said at `oai`, which asks for them.
 */
export function oaiSettingsProblems(
  file: string,
  journal: { base_url: string; oai?: OaiSettings | undefined },
  at: { line: number; column: number },
): Problem[] {
  if (!journal.oai) return [];
  const host = new URL(journal.base_url).hostname;
  if (DOMAIN_NAME.test(host)) return [];
  return [
    {
      code: 'schema/format',
      file,
      ...at,
      field: 'oai',
      message: `is set, but base_url's host ${host} is not a domain name, which the repository's identifiers (oai:<domain>:<id>) need`,
      expected: 'a base_url on a domain name with a dot, e.g. https://journal.example.org, or no oai block',
    },
  ];
}
