/**
 * How long a value may be (docs/content-model.md, "Limits"). No record a journal publishes comes
 * near these bounds: they stop a pasting mistake (a whole article in the abstract, a table of
 * keywords) at its line, with the limit said, before every output of the build holds a copy of it.
 */
import { countText } from '../../shared/count-text.ts';

export const FIELD_LIMITS = {
  /**
   * Characters of an abstract. Journals ask for 150 to 400 words (about 1,000 to 3,000 characters),
   * and MEDLINE kept 4,096 at most; Crossref, JATS and DOAJ set no bound. 100,000 is some 15,000
   * words: past any abstract, within what a page and a meta tag carry.
   */
  abstract: 100_000,
  /** Characters of a manuscript's title: the longest printed run to a few hundred; Crossref sets no bound. */
  title: 2_000,
  /** Characters of the keywords, joined as they are published (`a, b.`): hundreds of keywords. */
  keywords: 10_000,
  /**
   * Characters of a one-line text: a name, an institution with its address, a section, a journal's
   * title. Crossref takes 60 for a given name or surname, 255 for a journal's title and publisher,
   * 1,024 for an institution's name.
   */
  plainText: 1_000,
  /** Authors of one manuscript: the largest collaborations sign with about 5,000. */
  authors: 10_000,
} as const;

/**
 * Bytes of a record file: twenty times what the longest record of a real journal takes (10,000
 * authors and an abstract at its limit are under a megabyte). A file over it is refused before it
 * is parsed (stages/oversized-file.ts).
 */
export const RECORD_FILE_LIMIT = 16 * 1024 * 1024;

/** A value over its limit: what to say, and the limit's words for what was expected. */
export interface OverLimit {
  message: string;
  limit: string;
}

/**
 * `text` when it has more characters (code points, as an editor counts them) than `limit`.
 * A text of no more UTF-16 units than the limit is within it, uncounted.
 */
export function overLimit(text: string, limit: number, unit = 'characters long'): OverLimit | undefined {
  if (text.length <= limit) return undefined;
  let characters = text.length;
  // The second half of a surrogate pair is no character of its own.
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xdc00 && code <= 0xdfff && i > 0 && (text.charCodeAt(i - 1) & 0xfc00) === 0xd800) characters--;
  }
  return characters <= limit ? undefined : over(characters, limit, unit);
}

/** The problem of a count over its limit. */
export function over(count: number, limit: number, unit: string): OverLimit {
  return { message: `${countText(count)} ${unit}, over the limit of ${countText(limit)}`, limit: countText(limit) };
}
