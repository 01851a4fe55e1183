/**
 * The texts a landing page makes of its manuscript's abstract (render/pages.ts, page-metadata.ts):
 * the abstract as HTML, sanitized (sanitize-html.ts); and its summary (the description and Open
 * Graph's) and its whole plain text (citation_abstract), escaped for an attribute, and both again
 * as JSON strings for the JSON-LD (its description and abstract). Every plain text
 * is the one conversion of model/rich-text.ts.
 *
 * At 100,000 manuscripts, decoding the abstracts, sanitizing them, summing them up and
 * encoding the result cost the main thread about 2 s of a cold build, while the other core waited
 * for it. So a page whose manuscript is packed (packed-manuscript.ts) carries them as AbstractText
 * parts: the abstract's UTF-8 JSON as the load workers wrote it, and which text to make of it. The
 * thread that writes the page makes them (file-writer-worker.ts); anything else that reads the page
 * (`String(part)`, `parts.join('')`) makes them where it stands, with the same functions.
 */
import { escapeHtml } from '../model/html-references.ts';
import { bufferView } from '../../shared/movable-bytes.ts';
import { parsePackedJson } from './json-text.ts';
import { plainStart, richTextOpeningToPlain, richTextToPlain } from '../model/rich-text.ts';
import { cleanAbstractBytes, sanitizeAbstractHtml } from './sanitize-html.ts';
import { scriptSafeJson } from './script-safe-json.ts';
import type { DeferredText } from '../../shared/output-file.ts';

/**
 * What a page makes of an abstract: its HTML, or its summary or whole plain text escaped for an
 * attribute, or either as a JSON string for the JSON-LD's script element (script-safe-json.ts).
 */
export const ABSTRACT_TEXTS = ['html', 'summary', 'plain', 'json-summary', 'json-plain'] as const;
export type AbstractTextKind = (typeof ABSTRACT_TEXTS)[number];

/** The text of that kind, of the abstract as a string. */
export function abstractText(kind: AbstractTextKind, abstract: string): string {
  switch (kind) {
    case 'html':
      return sanitizeAbstractHtml(abstract);
    case 'summary':
      return escapeHtml(summary(abstract));
    case 'plain':
      return escapeHtml(richTextToPlain(abstract));
    case 'json-summary':
      return scriptSafeJson(summary(abstract));
    case 'json-plain':
      return scriptSafeJson(richTextToPlain(abstract));
  }
}

/** The text of that kind, of the abstract as UTF-8 JSON (a JSON string: packed-manuscript.ts). */
export function abstractTextOfJson(kind: AbstractTextKind, json: Uint8Array): string {
  const abstract = parsePackedJson(json);
  if (typeof abstract !== 'string') throw new TypeError(`an abstract is a JSON string, not ${typeof abstract}`);
  return abstractText(kind, abstract);
}

/**
 * A part of a page: one text of an abstract, made by the thread that writes the page (file-writer.ts
 * sends `source` with the page and `maker` to say what to make of it), or by `toString()` here.
 */
export class AbstractText implements DeferredText {
  readonly maker: number;
  /** The abstract's UTF-8 JSON: a view on the manuscript's packed buffer, not a copy. */
  readonly source: Uint8Array;

  constructor(kind: AbstractTextKind, json: Uint8Array) {
    this.maker = ABSTRACT_TEXTS.indexOf(kind);
    this.source = json;
  }

  make(): string | Uint8Array {
    return makeDeferredText(this.maker, this.source);
  }

  toString(): string {
    const made = this.make();
    return typeof made === 'string' ? made : bufferView(made).toString('utf8');
  }
}

/**
 * What a DeferredText's `maker` makes of its `source` (AbstractText's makers: ABSTRACT_TEXTS): its
 * text, or that text's UTF-8 bytes when they are a part of the source (cleanAbstractBytes).
 */
export function makeDeferredText(maker: number, source: Uint8Array): string | Uint8Array {
  const kind = ABSTRACT_TEXTS[maker];
  if (kind === undefined) throw new RangeError(`no text is made by number ${maker}`);
  return (kind === 'html' ? cleanAbstractBytes(source) : undefined) ?? abstractTextOfJson(kind, source);
}

/** At most this many characters of plain text make a summary; the abstract's opening, read up to a tag from OPENING_CHARS on, usually gives them. */
const SUMMARY_CHARS = 300;
const OPENING_CHARS = 400;

/** Plain-text summary for `<meta name="description">`: at most about 300 characters, cut at a word. */
export function summary(abstract: string): string {
  // The opening is enough (100,000 abstracts of up to 2,500 characters, a second of a cold
  // build); the first SUMMARY_CHARS + 1 characters, read in one pass, are enough for what follows.
  const plain =
    plainStart(abstract, SUMMARY_CHARS + 1) ?? richTextOpeningToPlain(abstract, OPENING_CHARS, SUMMARY_CHARS);
  if (plain.length <= SUMMARY_CHARS) return plain;
  // Never half of an astral character (an emoji, 𝔘): it would be written as U+FFFD.
  const cut = plain.slice(0, isHighSurrogate(plain.charCodeAt(SUMMARY_CHARS - 1)) ? SUMMARY_CHARS - 1 : SUMMARY_CHARS);
  const space = cut.lastIndexOf(' ');
  return `${(space > 200 ? cut.slice(0, space) : cut).replace(/[\s,;:.]+$/, '')}…`;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
