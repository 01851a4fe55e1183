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

/**
 * The most records a static repository is for: the specification's introduction targets "metadata
 * collections ranging in size between 1 and 5000 records" (openarchives.org,
 * guidelines-static-repository.htm); its schemas set no limit of their own.
 */
export const STATIC_REPOSITORY_MAX_RECORDS = 5000;

/**
 * A journal past that size gets no static repository file (render/oai/oai.ts): said once, since a
 * host without the handler then has no OAI-PMH answer at all.
 */
export function oaiWarnings(journal: { oai?: OaiSettings | undefined }, file: string, manuscripts: number): Problem[] {
  if (!journal.oai || manuscripts <= STATIC_REPOSITORY_MAX_RECORDS) return [];
  return [
    {
      code: 'warn/oai-static-repository',
      severity: 'warning',
      file,
      line: 0,
      column: 0,
      field: 'oai',
      message: `oai/static-repository.xml is not written: ${manuscripts.toLocaleString('en')} manuscripts are more than the ${STATIC_REPOSITORY_MAX_RECORDS.toLocaleString('en')} records the OAI static repository specification is meant for`,
      expected:
        'a host that runs the OAI-PMH handler for /oai (docs/oai-pmh.md, "Hosts"); the handler answers harvesters at any size',
    },
  ];
}

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
