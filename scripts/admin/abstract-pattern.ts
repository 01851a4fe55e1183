/**
 * The abstract's allowed markup (docs/content-model.md, "Rich text in abstracts") as one regular
 * expression, for the web editor's form to refuse what the build would refuse before it is saved.
 * It is narrower than the build's check (model/rich-text.ts): tags in lower or upper case as
 * written below, a link's address double-quoted; whatever it accepts, the build accepts
 * (test/web-editor-config.test.ts checks that on random markup). The CMS compiles it without flags.
 */

/** `p` → `[pP]`: the CMS's patterns have no case-insensitive flag. */
const anyCase = (name: string) => name.replace(/[a-z]/g, (c) => `[${c}${c.toUpperCase()}]`);

const SPACE = '[\\t\\n\\f\\r ]';
const INLINE = ['p', 'em', 'i', 'strong', 'b', 'sup', 'sub'].map(anyCase).join('|');

const TAGS = [
  `</?(?:${INLINE})${SPACE}*>`,
  `<${anyCase('br')}${SPACE}*/?>`,
  `<${anyCase('a')}${SPACE}+${anyCase('href')}="[hH][tT][tT][pP][sS]?://[^"\\s<>&\\u0000-\\u001f\\u007f]+"${SPACE}*>`,
  `</${anyCase('a')}${SPACE}*>`,
];

/** Text: no control character but tab and line breaks, and a `<` only where no tag can start. */
const TEXT = '[^<\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f]|<(?![A-Za-z/!?])';

export const ABSTRACT_PATTERN = `^(?:${TEXT}|${TAGS.join('|')})*$`;
