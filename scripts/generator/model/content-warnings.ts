/**
 * What a valid record may hold but an editor should not write: printed as warnings, never fatal,
 * because data a journal already published holds them and an import must build as the original
 * published it (docs/importing.md). The lists publish such a value as it is; the landing pages
 * repair markup (sanitize-html.ts), so a page and the JSON would differ.
 */
import type { Problem, ProblemCode } from './problems.ts';
import { plainTextOddity } from './plain-text.ts';
import type { JournalInput, ManuscriptInput } from './schema.ts';

export interface ContentWarning {
  code: ProblemCode;
  /** The field, as a path into the record. */
  path: (string | number)[];
  /** Where in the field's text, when the warning is about one place in it. */
  offset?: number;
  message: string;
  expected: string;
}

/** Elements whose tags open and close; `br` is the one void element an abstract may hold (rich-text.ts). */
const VOID = new Set(['br']);

function isLetterCode(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

function isNameCode(code: number): boolean {
  return isLetterCode(code) || (code >= 0x30 && code <= 0x39);
}

export function manuscriptWarnings(manuscript: ManuscriptInput): ContentWarning[] {
  const warnings: ContentWarning[] = [];
  // SPEC 2.3: keywords are separated by ", ". A list never holds ";" (schema.ts); a string may,
  // as imported data published it.
  if (manuscript.keywords.includes(';')) {
    warnings.push({
      code: 'warn/keywords-separator',
      path: ['keywords'],
      message: 'separates keywords with ";"',
      expected: 'keywords separated by ", ", or a list: keywords: [one, two]',
    });
  }
  const markup = unbalancedMarkup(manuscript.abstract);
  if (markup) warnings.push({ code: 'warn/markup-repair', path: ['abstract'], ...markup });
  warnings.push(...plainTextWarnings(manuscript, PLAIN_TEXT_FIELDS.manuscripts));
  const title = plainTextOddity(manuscript.citation_title, { markup: false });
  if (title) warnings.push({ ...title, path: ['citation_title'] });
  manuscript.authors.forEach((author, i) => {
    const odd = typeof author === 'object' ? plainTextOddity(author.as_published) : undefined;
    if (odd) warnings.push({ ...odd, path: ['authors', i, 'as_published'] });
  });
  return warnings;
}

/** The plain-text fields of each kind of record (plain-text.ts): names, titles, languages, sections. */
export const PLAIN_TEXT_FIELDS = {
  journal: ['title', 'citation_language', 'publisher', 'abbreviation', 'sections'],
  authors: ['name', 'surname', 'institution'],
  volumes: ['citation_language'],
  manuscripts: ['citation_language', 'udc', 'section', 'keywords'],
} as const;

/**
 * A line break, a tab, surrounding spaces or markup in a plain-text field: published as it is
 * (an imported journal published it so), and pointed out, since an editor rarely means it.
 */
export function plainTextWarnings(record: object, fields: readonly string[]): ContentWarning[] {
  const warnings: ContentWarning[] = [];
  for (const field of fields) {
    const value = (record as Record<string, unknown>)[field];
    const items = Array.isArray(value) ? value : [value];
    items.forEach((item, i) => {
      const odd = typeof item === 'string' ? plainTextOddity(item) : undefined;
      if (odd) warnings.push({ ...odd, path: Array.isArray(value) ? [field, i] : [field] });
    });
  }
  return warnings;
}

/**
 * The first tag the pages would have to repair: one closing nothing open, one closing another
 * element than the last opened, an element never closed, a paragraph opened inside another.
 *
 * The text passed findUnsafeMarkup (rich-text.ts): a `<` followed by a letter, or by `/` and a
 * letter, starts an allowed tag, anything else is text (`p < 0.05`). Read by hand, not by a regular
 * expression: every abstract is read once more when it is loaded (a `matchAll` took 16 µs for 750
 * characters, this 3 µs).
 */
function unbalancedMarkup(text: string): { offset: number; message: string; expected: string } | undefined {
  const open: { name: string; offset: number }[] = [];
  let paragraphs = 0;
  for (let at = text.indexOf('<'); at >= 0; at = text.indexOf('<', at + 1)) {
    const offset = at;
    const closing = text.charCodeAt(at + 1) === 0x2f;
    const start = at + (closing ? 2 : 1);
    let end = start;
    while (end < text.length && isNameCode(text.charCodeAt(end))) end++;
    if (end === start || !isLetterCode(text.charCodeAt(start))) continue;
    const name = text.slice(start, end).toLowerCase();
    // A link's quoted href may hold a `>`: go on after its closing `>`, outside quotes.
    let quote = 0;
    for (; end < text.length; end++) {
      const code = text.charCodeAt(end);
      if (quote) {
        if (code === quote) quote = 0;
      } else if (code === 0x22 || code === 0x27) quote = code;
      else if (code === 0x3e) break;
    }
    at = end;
    if (VOID.has(name)) continue;
    if (!closing) {
      if (name === 'p' && paragraphs++ > 0)
        return {
          offset,
          message: 'opens a paragraph <p> inside another',
          expected: 'each <p> closed with </p> before the next one',
        };
      open.push({ name, offset });
      continue;
    }
    const opened = open.findLastIndex((element) => element.name === name);
    if (opened < 0)
      return { offset, message: `has </${name}>, which closes nothing`, expected: `an opening <${name}> before it` };
    const last = open.at(-1)!;
    if (opened < open.length - 1) {
      // `<em>A <b>B</em></b>` closes in the wrong order; `<p>A <em>B</p>` never closes the <em>.
      const closedLater = new RegExp(`</${last.name}\\s*>`, 'i').test(text.slice(offset));
      return closedLater
        ? {
            offset,
            message: `closes </${name}> while <${last.name}> is still open`,
            expected: `</${last.name}> first: tags closed in the reverse order of opening`,
          }
        : { offset: last.offset, message: `has <${last.name}> never closed`, expected: `a closing </${last.name}>` };
    }
    open.pop();
    if (name === 'p') paragraphs--;
  }
  const unclosed = open[0];
  return unclosed
    ? {
        offset: unclosed.offset,
        message: `has <${unclosed.name}> never closed`,
        expected: `a closing </${unclosed.name}>`,
      }
    : undefined;
}

/**
 * The address the sample journal ships with (content/journal.yaml): a journal published with it
 * would give every PDF and page URL on a domain that is not its own. Only this host is warned
 * about: other reserved example domains are what tests and imports of test data use on purpose.
 */
const SAMPLE_HOST = 'bulletin.example.org';

/** Warnings about the journal's settings: the addresses still the sample's before a first deploy. */
export function journalWarnings(journal: JournalInput, file: string): Problem[] {
  const warnings: Problem[] = [];
  for (const field of ['base_url', 'media_url'] as const) {
    if (new URL(journal[field]).hostname !== SAMPLE_HOST) continue;
    warnings.push({
      code: 'warn/example-domain',
      file,
      line: 0,
      column: 0,
      field,
      message: `${journal[field]} is an example address, the sample journal's`,
      expected: "the journal's own address before it is deployed: see the checklist in docs/hosting/README.md",
      severity: 'warning',
    });
  }
  return warnings;
}
