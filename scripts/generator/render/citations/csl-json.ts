/**
 * A manuscript's reference as CSL-JSON (docs/indexing.md, "Citation files"): an array of one item
 * of type `article-journal`, the form citeproc processors, Zotero and pandoc read. Field names are
 * the CSL 1.0.2 data schema's; the PDF, which CSL has no variable for, goes in `custom`, where the
 * schema puts what has no field of its own.
 */
import type { Citation } from './citation.ts';
import type { TitleStyle } from '../title-text.ts';

export function cslJson(c: Citation): string {
  const item: Record<string, unknown> = {
    id: c.key,
    type: 'article-journal',
    title: cslTitle(c),
    author: c.authors.map((name) => ('literal' in name ? { literal: name.literal } : name)),
    issued: { 'date-parts': [[c.date.year, c.date.month, c.date.day]] },
    'container-title': c.journal,
    'container-title-short': c.journalAbbreviation,
    // Zotero reads the abbreviation under this name (its own CSL variable), not container-title-short.
    journalAbbreviation: c.journalAbbreviation,
    volume: String(c.volume),
    page: c.pages && (c.pages.last ? `${c.pages.first}-${c.pages.last}` : c.pages.first),
    'page-first': c.pages?.first,
    ISSN: c.issns.length > 0 ? c.issns.join(', ') : undefined,
    publisher: c.publisher,
    DOI: c.doi,
    URL: c.url,
    abstract: c.abstract,
    keyword: c.keywords.length > 0 ? c.keywords.join(', ') : undefined,
    language: c.language?.code,
    license: c.license,
    custom: { pdf: c.pdf },
  };
  // JSON.stringify leaves out what is undefined.
  return `${JSON.stringify([item], null, 2)}\n`;
}

/** CSL's own rich text (CSL 1.0.2, "Rich text"): `<i>`, `<b>`, `<sub>`, `<sup>`; a title without markup as it is. */
function cslTitle(c: Citation): string {
  const [first] = c.titleRuns;
  if (c.titleRuns.length <= 1 && (first === undefined || first.styles.length === 0)) return c.title;
  return c.titleRuns
    .map((run) =>
      run.styles.reduceRight((inner, style) => `<${CSL_TAGS[style]}>${inner}</${CSL_TAGS[style]}>`, run.text),
    )
    .join('');
}

const CSL_TAGS: Record<TitleStyle, string> = { italic: 'i', bold: 'b', sub: 'sub', sup: 'sup' };
