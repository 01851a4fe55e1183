/**
 * A manuscript's reference as one BibTeX `@article` entry (docs/indexing.md, "Citation files").
 *
 * - Text fields are LaTeX-escaped: `{ } \ # $ % & _ ~ ^` are written as LaTeX writes them, so a
 *   title with `{` or `%` neither unbalances the entry nor starts a comment in the document.
 * - Link fields (`doi`, `url`, `pdf`) are read verbatim by biblatex and by `\url`: they are written as
 *   they are, except for a `{`, `}` or `\`, percent-encoded, as nothing in a link needs them raw.
 * - Non-ASCII text stays UTF-8, as biber reads it; classic BibTeX copies it byte by byte (with
 *   `\usepackage[utf8]{inputenc}` it prints, but it sorts and abbreviates by bytes).
 * - Authors as `Family, Given`, joined by `and`; a name part with a comma or the word "and" is braced,
 *   and so is a name kept as published, which BibTeX must not split.
 * - The date as `year`, `month` (BibTeX's three-letter macro) and biblatex's `date`.
 */
import type { Citation, CitedName } from './citation.ts';

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

export function bibtexEntry(c: Citation): string {
  const fields: [string, string][] = [];
  const text = (name: string, value: string | undefined) => {
    if (value) fields.push([name, `{${escapeLatex(value)}}`]);
  };
  const link = (name: string, value: string | undefined) => {
    if (value) fields.push([name, `{${verbatim(value)}}`]);
  };
  if (c.authors.length > 0) fields.push(['author', `{${c.authors.map(bibtexName).join(' and ')}}`]);
  text('title', c.title);
  text('journal', c.journal);
  // biblatex's field for the abbreviation; BibTeX's styles pass over a field they do not know.
  text('shortjournal', c.journalAbbreviation);
  fields.push(['year', `{${c.date.year}}`], ['month', MONTHS[c.date.month - 1]!], ['date', `{${c.date.iso}}`]);
  fields.push(['volume', `{${c.volume}}`]);
  if (c.pages) text('pages', c.pages.last ? `${c.pages.first}--${c.pages.last}` : c.pages.first);
  text('issn', c.issns.join(', '));
  text('publisher', c.publisher);
  link('doi', c.doi);
  link('url', c.url);
  link('pdf', c.pdf);
  text('abstract', c.abstract);
  text('keywords', c.keywords.join(', '));
  text('language', c.language?.name);
  return `@article{${c.key},\n${fields.map(([name, value]) => `  ${name} = ${value}`).join(',\n')}\n}\n`;
}

/** What oneLine changes: white space other than a space, NEL, two spaces, a space at either end. */
const NOT_ONE_LINE = /[^\S ]|\u0085| {2}|^ | $/;

const LATEX_SPECIALS = /[{}\\#$%&_~^]/g;
const LATEX: Record<string, string> = {
  '{': '\\{',
  '}': '\\}',
  '\\': '\\textbackslash{}',
  '#': '\\#',
  $: '\\$',
  '%': '\\%',
  '&': '\\&',
  _: '\\_',
  '~': '\\textasciitilde{}',
  '^': '\\textasciicircum{}',
};

/** Text as LaTeX reads it back: each special character escaped, in one pass (the escapes' braces stay). */
export function escapeLatex(value: string): string {
  return oneLine(value).replace(LATEX_SPECIALS, (c) => LATEX[c]!);
}

/** A link as a verbatim field takes it: only what would unbalance the entry is percent-encoded. */
function verbatim(value: string): string {
  return oneLine(value).replace(/[{}\\]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** A value on one line: an entry's fields may span lines, but a reader of the file should not have to. */
function oneLine(value: string): string {
  if (!NOT_ONE_LINE.test(value)) return value;
  return value.replace(/[\s\u0085]+/g, ' ').trim();
}

function bibtexName(name: CitedName): string {
  if ('literal' in name) return `{${escapeLatex(name.literal)}}`;
  const part = (value: string) => {
    const escaped = escapeLatex(value);
    return /,|\band\b/i.test(value) ? `{${escaped}}` : escaped;
  };
  return `${part(name.family)}, ${part(name.given)}`;
}
