/**
 * A title with markup (model/rich-text.ts, TITLE_ELEMENTS) as the outputs that do not show HTML
 * need it: runs of text, each with the styles it is set in, which a citation format writes in its
 * own markup (BibTeX's `\textit{}`, CSL-JSON's `<i>`); and plain text, for meta tags, the feed and
 * RIS. Both are read from the title as a page shows it (sanitize-html.ts), so every output has the
 * text a reader sees: the allowed elements' tags left out, anything else the page shows as text
 * (which the content validation refuses) kept as text.
 */
import { decodeReferences } from '../model/html-references.ts';
import { titleHasMarkup } from '../model/rich-text.ts';
import { sanitizeTitleHtml } from './sanitize-html.ts';

export type TitleStyle = 'italic' | 'bold' | 'sub' | 'sup';

export interface TitleRun {
  text: string;
  /** Outermost first, each once. */
  styles: TitleStyle[];
}

const STYLE_OF: Record<string, TitleStyle> = {
  em: 'italic',
  i: 'italic',
  strong: 'bold',
  b: 'bold',
  sub: 'sub',
  sup: 'sup',
};

/**
 * The title's runs: one plain run for a title without markup (titleToPlain's text); otherwise the
 * text between tags, references decoded and white space folded as the plain text folds it (one
 * space, none at either end), empty runs left out and neighbours of the same styles joined.
 */
export function titleRuns(title: string): TitleRun[] {
  if (!titleHasMarkup(title)) return [{ text: folded(title), styles: [] }];
  const runs: TitleRun[] = [];
  // The styles open at this point, one per open element (an element inside another of the same style counts too).
  const open: TitleStyle[] = [];
  for (const part of sanitizeTitleHtml(title).split(/(<\/?[a-z]+>)/)) {
    const tag = /^<(\/?)([a-z]+)>$/.exec(part);
    if (tag) {
      if (tag[1]) open.pop();
      else open.push(STYLE_OF[tag[2]!]!);
      continue;
    }
    let text = decodeReferences(part).replace(/\s+/g, ' ');
    const last = runs.at(-1);
    if (text.startsWith(' ') && (last === undefined || last.text.endsWith(' '))) text = text.slice(1);
    if (text === '') continue;
    const styles = [...new Set(open)];
    if (last && last.styles.join() === styles.join()) last.text += text;
    else runs.push({ text, styles });
  }
  const last = runs.at(-1);
  if (last) {
    last.text = last.text.trimEnd();
    if (last.text === '') runs.pop();
  }
  return runs;
}

/**
 * A title as plain text: itself when it holds no markup and no white space to fold (a line break,
 * a tab, a space at either end), which is every title before titles could hold markup, byte for
 * byte; otherwise its runs' text.
 */
export function titleToPlain(title: string): string {
  if (!titleHasMarkup(title)) return folded(title);
  return titleRuns(title)
    .map((run) => run.text)
    .join('');
}

/** A title without markup, its white space folded: itself, unless it has a line break, a tab or a space at either end. */
function folded(title: string): string {
  return /[^\S ]|^ | $/.test(title) ? title.replace(/\s+/g, ' ').trim() : title;
}
