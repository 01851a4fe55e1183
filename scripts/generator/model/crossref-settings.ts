/**
 * The `crossref` setting of content/journal.yaml: what a journal fills in once so that
 * `npm run crossref -- <volume>` can write a deposit file (docs/crossref.md). Every value is
 * optional here, so that a journal that registers no DOIs builds as before; the deposit command
 * reports each one it needs and does not find, at its line. The bounds are Crossref's own
 * (common5.3.1.xsd), so a value the deposit would be refused for is refused at its line instead.
 */
import * as z from 'zod';
import { asString, bad, field, ok } from './field-parsers.ts';

export const CROSSREF_SETTINGS = {
  depositor_name:
    'the name of the organisation or person that sends the deposit to Crossref, e.g. the society that publishes the journal',
  depositor_email: 'the e-mail address Crossref sends the result of each deposit to',
  registrant: 'the organisation the DOIs are registered for, as Crossref knows it, e.g. the publisher',
  doi_prefix: 'the DOI prefix Crossref gave the journal, e.g. 10.1234',
} as const;

export type CrossrefSettingName = keyof typeof CROSSREF_SETTINGS;

const DOI_PREFIX = /^10\.\d{4,9}$/;
// A plain shape, not RFC 5322: Crossref only sends mail to it; a typo that keeps this shape is the editor's to see in no reply.
export const EMAIL = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;

function bounded(description: string, min: number, max: number, shape?: RegExp) {
  const jsonSchema = {
    type: 'string',
    description,
    minLength: min,
    maxLength: max,
    ...(shape ? { pattern: shape.source } : {}),
  };
  return field(jsonSchema, (value) => {
    const text = asString(value, description);
    if (!text.ok) return text;
    if (text.value.trim() === '') return bad('is empty', description);
    if (/[\n\r\t]/.test(text.value)) return bad('has a line break or a tab', `one line: ${description}`);
    if (text.value.length < min || text.value.length > max)
      return bad(
        `has ${text.value.length} characters`,
        `${min} to ${max} characters, as Crossref accepts: ${description}`,
        'schema/too-long',
      );
    if (shape && !shape.test(text.value)) return bad(`${JSON.stringify(text.value)} is not valid`, description);
    return ok(text.value);
  });
}

export const crossrefSettings = z
  .strictObject({
    depositor_name: bounded(CROSSREF_SETTINGS.depositor_name, 1, 130).optional(),
    depositor_email: bounded(CROSSREF_SETTINGS.depositor_email, 6, 200, EMAIL).optional(),
    registrant: bounded(CROSSREF_SETTINGS.registrant, 1, 255).optional(),
    doi_prefix: bounded(CROSSREF_SETTINGS.doi_prefix, 7, 13, DOI_PREFIX).optional(),
  })
  .meta({
    description:
      'what npm run crossref needs to write a deposit file for Crossref (docs/crossref.md): depositor_name, depositor_email, registrant, doi_prefix',
  });

export type CrossrefSettings = z.output<typeof crossrefSettings>;
