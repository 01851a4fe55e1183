/**
 * Scholarly identifiers' shapes and check characters: DOI, ORCID iD, ISSN, and a licence URL.
 * Pure checks; the schema (schema.ts) attaches the messages, and the ISSN check digit is a warning
 * only (issn-warnings.ts), since imported data must round-trip as it was published.
 */

/**
 * Crossref's recommended pattern for modern DOIs is `10.` + 4 to 9 digits + `/` + a suffix; the
 * suffix here is any printable ASCII without spaces (Crossref's own list of suffix characters is a
 * subset of it, and older DOIs use more).
 */
export const DOI = /^10\.\d{4,9}\/[!-~]+$/;

/** A DOI written as a link or with a prefix (`https://doi.org/10.…`, `doi:10.…`): the bare DOI it holds. */
export function bareDoi(value: string): string | undefined {
  const match = /^(?:https?:\/\/(?:dx\.)?doi\.org\/|doi:\s*)(10\..*)$/i.exec(value);
  return match?.[1];
}

/** ORCID iD in its bare form: four groups of four, the last character a digit or `X`. */
export const ORCID = /^\d{4}-\d{4}-\d{4}-\d{3}[\dX]$/;

/** ISO 7064 MOD 11-2 check character of an ORCID iD's first 15 digits (ORCID's published algorithm). */
export function orcidCheckCharacter(digits: string): string {
  let total = 0;
  for (const digit of digits) total = (total + Number(digit)) * 2;
  const result = (12 - (total % 11)) % 11;
  return result === 10 ? 'X' : String(result);
}

/** An ORCID iD's base digits (the first 15) and its check character, when it has the bare shape. */
export function orcidParts(value: string): { digits: string; check: string } | undefined {
  if (!ORCID.test(value)) return undefined;
  const compact = value.replace(/-/g, '');
  return { digits: compact.slice(0, 15), check: compact.slice(15) };
}

/** An ORCID iD written as its URL (`https://orcid.org/0000-…`): the bare iD it holds. */
export function bareOrcid(value: string): string | undefined {
  return /^https?:\/\/(?:www\.)?orcid\.org\/(\d{4}-\d{4}-\d{4}-\d{3}[\dX])\/?$/i.exec(value)?.[1];
}

/**
 * ISSN check digit (ISO 3297): the first seven digits weighted 8 down to 2, summed; the check is
 * 11 minus the sum mod 11, with 11 written 0 and 10 written X.
 */
export function issnCheckDigit(sevenDigits: string): string {
  let total = 0;
  for (let i = 0; i < 7; i++) total += Number(sevenDigits[i]) * (8 - i);
  const result = (11 - (total % 11)) % 11;
  return result === 10 ? 'X' : String(result);
}

/**
 * The digits of an ISSN as the content writes it (`1857 - 9870`, SPEC 2.2), without the hyphen:
 * eight characters, the last of which may be `X`.
 */
export function issnCompact(value: string): string {
  return value.replace(/ - |-/, '');
}

/** The ISSN in the standard form `NNNN-NNNN`, as indexers read it. */
export function issnStandard(value: string): string {
  const compact = issnCompact(value);
  return `${compact.slice(0, 4)}-${compact.slice(4)}`;
}

/** Whether an absolute http(s) URL, without spaces, that URL parsing accepts. */
export function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\/[^\s/?#]+(?:[/?#]\S*)?$/.test(value)) return false;
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}
