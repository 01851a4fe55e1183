/**
 * A manuscript's reference as one RIS record (docs/indexing.md, "Citation files").
 *
 * RIS's line rules: every line is a tag of two characters, two spaces, a hyphen, a space and the
 * value; one line per value (an author, a keyword each); the record opens with `TY  - JOUR` and
 * ends with `ER  - `. Lines end with CR LF, as the RIS specification says; readers take LF too.
 * A value never breaks its line: white space of any kind (line breaks, U+2028, tabs) and runs of
 * it are one space, so no value can begin a line of its own, and none holds the separator
 * `  - ` that some readers split a line at. Control characters are dropped.
 *
 * The tags are those Zotero, EndNote and Mendeley read for a journal article: `T2` the journal,
 * `J2` its abbreviation, `DA` the date as `YYYY/MM/DD/`, `SP` and `EP` the pages, `SN` the ISSNs
 * (on one line, comma-separated: Zotero keeps the first of repeated `SN` lines and drops the rest),
 * `DO` the DOI, `L1` the PDF, `UR` the landing page. RIS has no tag for a licence.
 */
import type { Citation, CitedName } from './citation.ts';

const EOL = '\r\n';
/** What risValue changes: a control character, white space other than a space, two spaces, a space at either end. */
const NEEDS_CLEANING = /[\u0000-\u001f\u007f-\u009f]|[^\S ]| {2}|^ | $/;

export function risRecord(c: Citation): string {
  let record = `TY  - JOUR${EOL}`;
  const line = (tag: string, value: string | number | undefined) => {
    const text = value === undefined ? '' : risValue(String(value));
    if (text !== '') record += `${tag}  - ${text}${EOL}`;
  };
  line('TI', c.title);
  for (const author of c.authors) line('AU', risName(author));
  line('PY', c.date.year);
  line('DA', `${c.date.iso.replaceAll('-', '/')}/`);
  line('T2', c.journal);
  line('J2', c.journalAbbreviation);
  line('VL', c.volume);
  line('SP', c.pages?.first);
  line('EP', c.pages?.last);
  line('SN', c.issns.join(', '));
  line('PB', c.publisher);
  line('DO', c.doi);
  line('UR', c.url);
  line('L1', c.pdf);
  line('AB', c.abstract);
  for (const keyword of c.keywords) line('KW', keyword);
  line('LA', c.language?.code);
  return `${record}ER  - ${EOL}`;
}

/** A value on its line: white space folded to single spaces, control characters dropped. */
export function risValue(value: string): string {
  // Most values need nothing (the abstract's plain text is folded already): a test is cheaper than two replaces.
  if (!NEEDS_CLEANING.test(value)) return value;
  return value
    .replace(/[\u0000-\u0008\u000e-\u001f\u007f-\u0084\u0086-\u009f]/g, '')
    .replace(/[\s\u0085]+/g, ' ')
    .trim();
}

/**
 * `Family, Given`, as RIS writes names. RIS has no escape for a comma inside a part: there it
 * would start the next part (`Family, Given, Suffix`), so it is written as a space.
 */
function risName(name: CitedName): string {
  if ('literal' in name) return name.literal;
  const part = (value: string) => value.replace(/,/g, ' ');
  return `${part(name.family)}, ${part(name.given)}`;
}
