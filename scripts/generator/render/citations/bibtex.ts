/**
 * A manuscript's reference as one BibTeX `@article` entry (docs/indexing.md, "Citation files").
 *
 * - Text fields are LaTeX-escaped: every character TeX reads specially (`{ } \ # $ % & _ ~ ^`) and
 *   those LaTeX's default font encoding prints as another (`<` as ¡, `>` as ¿, `|` as —) are written
 *   as commands, so a title with `{` or `%` neither unbalances the entry nor starts a comment, and
 *   `p < 0.01` prints as it reads. A brace is `\textbraceleft{}`: BibTeX counts `\{` as a brace.
 * - The title's capitals are kept: a word with a capital letter (a proper noun, a genus, an acronym),
 *   other than the title's first letter, is braced, as Zotero and Better BibTeX export titles, so a
 *   style that lower-cases titles (plain.bst, biblatex's sentence case) leaves it as published.
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
  fields.push(['title', `{${latexTitle(c)}}`]);
  text('journal', c.journal);
  // biblatex's field for the abbreviation; BibTeX's styles pass over a field they do not know.
  text('shortjournal', c.journalAbbreviation);
  fields.push(['year', `{${c.date.year}}`], ['month', MONTHS[c.date.month - 1]!], ['date', `{${c.date.iso}}`]);
  fields.push(['volume', `{${c.volume}}`]);
  if (c.pages) text('pages', c.pages.last ? `${c.pages.first}--${c.pages.last}` : c.pages.first);
  // One ISSN, the print one: biber refuses a list in `issn`, and biblatex has no field for the online one.
  text('issn', c.issns[0]);
  // No publisher: biber warns that an @article has no such field (the journal stands for it).
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

const LATEX_SPECIALS = /[{}\\#$%&_~^<>|]/g;
const LATEX: Record<string, string> = {
  '{': '\\textbraceleft{}',
  '}': '\\textbraceright{}',
  '\\': '\\textbackslash{}',
  '#': '\\#',
  $: '\\$',
  '%': '\\%',
  '&': '\\&',
  _: '\\_',
  '~': '\\textasciitilde{}',
  '^': '\\textasciicircum{}',
  '<': '\\textless{}',
  '>': '\\textgreater{}',
  '|': '\\textbar{}',
};

/** Text as LaTeX reads it back: each special character escaped, in one pass (the escapes' braces stay). */
export function escapeLatex(value: string): string {
  return oneLine(value).replace(LATEX_SPECIALS, (c) => LATEX[c]!);
}

/**
 * A word, as case protection reads one: letters and digits, with the hyphens, apostrophes and full
 * stops inside it (`Kovačić-Đurić`, `O'Brien`, `U.S.A`).
 */
const WORD = /[\p{L}\p{M}\p{N}]+(?:[-'’.][\p{L}\p{M}\p{N}]+)*/gu;
const CAPITAL = /\p{Lu}/u;

/**
 * Escaped text with its capitals kept: each word with a capital letter braced, except for a capital
 * that is the title's first letter (every style keeps that one). `first` says whether `escaped`
 * starts the title. The escapes' command names are lower case, so no escape is ever braced.
 */
export function protectCapitals(escaped: string, first = true): string {
  return escaped.replace(WORD, (word, at: number) =>
    CAPITAL.test(first && at === 0 ? word.slice(1) : word) ? `{${word}}` : word,
  );
}

/** The title as LaTeX: escaped, capitals protected, its markup as LaTeX's commands (citation.ts, titleRuns). */
function latexTitle(c: Citation): string {
  let out = '';
  for (const run of c.titleRuns) {
    const text = protectCapitals(escapeLatexRun(run.text), out === '');
    out += run.styles.reduceRight((inner, style) => `${LATEX_STYLES[style]}{${inner}}`, text);
  }
  return out;
}

const LATEX_STYLES = {
  italic: '\\textit',
  bold: '\\textbf',
  sub: '\\textsubscript',
  sup: '\\textsuperscript',
} as const;

/** A run of the title (title-text.ts): escaped, its white space folded, the spaces at its ends kept. */
function escapeLatexRun(value: string): string {
  return (NOT_ONE_LINE.test(value) ? value.replace(/[\s\u0085]+/g, ' ') : value).replace(
    LATEX_SPECIALS,
    (c) => LATEX[c]!,
  );
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
