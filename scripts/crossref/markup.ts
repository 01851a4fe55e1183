/**
 * A manuscript's rich text in the forms a Crossref deposit takes (docs/crossref.md): a title's
 * markup as Crossref's face markup (`<i>`, `<b>`, `<sub>`, `<sup>` in the deposit's own namespace),
 * and an abstract as JATS (`<jats:abstract>` of `<jats:p>`, with `jats:italic`, `jats:bold`,
 * `jats:sub`, `jats:sup` and `jats:ext-link`). Both start from the text a landing page shows
 * (render/title-text.ts, render/sanitize-html.ts), so the deposit says what a reader sees.
 */
import { decodeReferences } from '../generator/model/html-references.ts';
import { sanitizeAbstractHtml } from '../generator/render/sanitize-html.ts';
import { xmlText } from '../generator/render/feed.ts';
import { titleRuns, type TitleStyle } from '../generator/render/title-text.ts';

/** Crossref's face markup for each style a title may have (crossref5.3.1.xsd, "Face markup"). */
const FACE: Record<TitleStyle, string> = { italic: 'i', bold: 'b', sub: 'sub', sup: 'sup' };

/** The title as the content of Crossref's `<title>`: text, escaped, in face markup where the title has markup. */
export function faceMarkupTitle(title: string): string {
  return titleRuns(title)
    .map((run) => {
      const tags = run.styles.map((style) => FACE[style]);
      return `${tags.map((t) => `<${t}>`).join('')}${xmlText(run.text)}${[...tags]
        .reverse()
        .map((t) => `</${t}>`)
        .join('')}`;
    })
    .join('');
}

/** JATS's element for each inline element an abstract may hold; `br` and `p` are handled apart. */
const JATS_INLINE: Record<string, string> = {
  em: 'jats:italic',
  i: 'jats:italic',
  strong: 'jats:bold',
  b: 'jats:bold',
  sub: 'jats:sub',
  sup: 'jats:sup',
};

interface Element {
  name: string;
  href?: string;
  children: Node[];
}
type Node = string | Element;

/** The sanitized abstract (balanced, only the allowed elements) as a tree. */
function abstractTree(abstract: string): Node[] {
  const root: Element = { name: '', children: [] };
  const open: Element[] = [root];
  for (const part of sanitizeAbstractHtml(abstract).split(/(<\/?[a-z]+(?: href="[^"]*")?>)/)) {
    const tag = /^<(\/?)([a-z]+)(?: href="([^"]*)")?>$/.exec(part);
    const parent = open.at(-1)!;
    if (!tag) {
      if (part !== '') parent.children.push(decodeReferences(part));
    } else if (tag[1]) {
      if (open.length > 1) open.pop();
    } else {
      const element: Element = {
        name: tag[2]!,
        children: [],
        ...(tag[3] === undefined ? {} : { href: decodeReferences(tag[3]) }),
      };
      parent.children.push(element);
      if (tag[2] !== 'br') open.push(element);
    }
  }
  return root.children;
}

function inline(nodes: readonly Node[]): string {
  let out = '';
  for (const node of nodes) {
    // HTML's white space only: a no-break space is the editor's, and stays.
    if (typeof node === 'string') out += xmlText(node.replace(/[ \t\n\r\f]+/g, ' '));
    // JATS has no line break inside a paragraph: a space keeps the words apart.
    else if (node.name === 'br') out += ' ';
    else if (node.name === 'a' && node.href !== undefined)
      out += `<jats:ext-link ext-link-type="uri" xlink:href="${xmlText(node.href)}">${inline(node.children)}</jats:ext-link>`;
    else if (JATS_INLINE[node.name])
      out += `<${JATS_INLINE[node.name]}>${inline(node.children)}</${JATS_INLINE[node.name]}>`;
    // A paragraph inside an inline element (which the sanitizer leaves open) gives its text.
    else out += inline(node.children);
  }
  return out;
}

/**
 * The abstract as `<jats:abstract>`: each paragraph a `<jats:p>`; text outside any paragraph (an
 * abstract written without `<p>`) is a paragraph of its own. Empty paragraphs are left out; an
 * abstract with no text at all gives none.
 */
export function jatsAbstract(abstract: string): string | undefined {
  const paragraphs: string[] = [];
  let loose: Node[] = [];
  const flush = (nodes: readonly Node[]) => {
    const text = inline(nodes).trim();
    if (text !== '') paragraphs.push(`<jats:p>${text}</jats:p>`);
  };
  for (const node of abstractTree(abstract)) {
    if (typeof node !== 'string' && node.name === 'p') {
      flush(loose);
      loose = [];
      flush(node.children);
    } else loose.push(node);
  }
  flush(loose);
  return paragraphs.length ? `<jats:abstract>${paragraphs.join('')}</jats:abstract>` : undefined;
}
