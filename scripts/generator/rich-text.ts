/**
 * Abstracts are rich text (SPEC-NOTES: the original used an HTML editor, so `<p>` and `<em>` around
 * Latin species names are normal). The JSON publishes the markup as it is, so the build refuses
 * what could run in a reader's browser: script-like elements, event handler attributes, and
 * `javascript:`-style URLs. Everything else passes unchanged.
 */

const FORBIDDEN_ELEMENTS = new Set([
  'script', 'style', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'form', 'input',
  'button', 'textarea', 'select', 'option', 'link', 'meta', 'base', 'svg', 'math', 'template',
  'noscript', 'img', 'video', 'audio', 'source', 'picture', 'canvas', 'dialog',
]);

const TAG = /<(\/?)([A-Za-z][A-Za-z0-9-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g;
const ATTRIBUTE = /([^\s"'=<>/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

export interface MarkupIssue {
  /** Offset of the offending tag in the text. */
  offset: number;
  message: string;
}

/** Returns the first unsafe construct found, or undefined when the text is acceptable. */
export function findUnsafeMarkup(text: string): MarkupIssue | undefined {
  const special = /<[!?]/.exec(text);
  if (special) return { offset: special.index, message: 'comments, doctype and processing instructions are not allowed' };
  for (const match of text.matchAll(TAG)) {
    const name = match[2]!.toLowerCase();
    if (FORBIDDEN_ELEMENTS.has(name)) {
      return { offset: match.index, message: `the <${name}> element is not allowed` };
    }
    for (const attribute of (match[3] ?? '').matchAll(ATTRIBUTE)) {
      const attributeName = attribute[1]!.toLowerCase();
      const value = attribute[2] ?? attribute[3] ?? attribute[4] ?? '';
      if (attributeName.startsWith('on')) {
        return { offset: match.index, message: `the ${attributeName} attribute is not allowed` };
      }
      if (/^\s*(?:javascript|vbscript|data):/i.test(decodeEntities(value).replace(/[\u0000-\u0020]/g, ''))) {
        return { offset: match.index, message: `a ${attributeName} with a script or data URL is not allowed` };
      }
    }
  }
  return undefined;
}

function decodeEntities(value: string): string {
  return value.replace(/&#(x[0-9a-f]+|\d+);?/gi, (_, code: string) => {
    const point = code[0] === 'x' || code[0] === 'X' ? parseInt(code.slice(1), 16) : parseInt(code, 10);
    return point <= 0x10ffff ? String.fromCodePoint(point) : '';
  });
}

/**
 * The abstract as plain text (for meta tags and feeds): tags removed, the five basic entities
 * and numeric references decoded, white space folded.
 */
export function richTextToPlain(text: string): string {
  return decodeEntities(text.replace(/<br\s*\/?>|<\/p>/gi, ' ').replace(/<[^>]*>/g, ''))
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}
