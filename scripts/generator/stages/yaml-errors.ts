/**
 * The yaml package's syntax errors in an editor's words: one problem per mistake, at the place an
 * editor has to change (the tab, the colon inside a value, the line indented too far, the quote or
 * bracket never closed), not where the parser noticed it. A mistake often makes the parser report
 * several errors on one line: only the first is kept.
 */

export interface ParserError {
  code: string;
  /** Offset where the parser noticed the error. */
  pos: readonly [number, number];
  message: string;
}

export interface SyntaxMistake {
  offset: number;
  message: string;
  expected: string;
}

/** Where to read about YAML's few rules an editor meets (docs/editors.md). */
const GUIDE = 'see "Writing YAML" in docs/editors.md';

/** Errors that only follow from another on the same or an earlier line. */
const CONSEQUENCES = new Set(['NON_STRING_KEY']);

export function plainYamlMistakes(text: string, errors: readonly ParserError[]): SyntaxMistake[] {
  const lines = new Lines(text);
  const mistakes: SyntaxMistake[] = [];
  const seenLines = new Set<number>();
  const sorted = [...errors].sort((a, b) => a.pos[0] - b.pos[0]);
  const anyButMissingValues = sorted.some((error) => !isMissingValue(error));
  const blocks: BlocksAbove = new Map();
  for (const error of sorted) {
    if (CONSEQUENCES.has(error.code) && sorted.length > 1) continue;
    if (isMissingValue(error) && anyButMissingValues) continue;
    const mistake = explain(text, lines, error, blocks);
    const line = lines.lineOf(mistake.offset);
    if (seenLines.has(line) || seenLines.has(lines.lineOf(error.pos[0]))) continue;
    seenLines.add(line);
    seenLines.add(lines.lineOf(error.pos[0]));
    mistakes.push(mistake);
  }
  return mistakes.sort((a, b) => a.offset - b.offset);
}

function isMissingValue(error: ParserError): boolean {
  return error.code === 'MISSING_CHAR' && /map values/.test(error.message);
}

function explain(text: string, lines: Lines, error: ParserError, blocks: BlocksAbove): SyntaxMistake {
  const at = error.pos[0];
  const line = lines.lineOf(at);
  const lineText = lines.text(line);
  // A tab where a line's indentation is (a pasted abstract): whatever the parser made of it.
  if (/^ *\t/.test(lineText)) {
    const block = blockAbove(lines, line, blocks);
    return {
      offset: lines.start(line),
      message: block ? `starts with a tab, inside the text of ${block.field}` : 'starts with a tab',
      expected: block
        ? `spaces: indent every line of the text by the same number of spaces as its first (${block.indent})`
        : 'spaces to indent a line: YAML does not allow tabs there',
    };
  }
  switch (error.code) {
    case 'TAB_AS_INDENT':
      return {
        offset: lines.start(line),
        message: 'starts with a tab',
        expected: 'spaces to indent a line: YAML does not allow tabs there',
      };
    case 'DUPLICATE_KEY': {
      const key = /^\s*"?([^":]*)"?\s*:/.exec(text.slice(at, lines.end(line)))?.[1] ?? '';
      return {
        offset: at,
        message: `has the field "${key}" twice`,
        expected: 'each field once: remove one of the two',
      };
    }
    case 'BAD_SCALAR_START':
      return {
        offset: at,
        message: `has a value starting with ${JSON.stringify(text[at] ?? '')}, which YAML keeps for itself`,
        expected: `the value in quotes, e.g. "${text.slice(at, lines.end(line)).trim()}"`,
      };
    case 'MULTIPLE_DOCS':
      return {
        offset: at,
        message: 'has a second record after a line "---"',
        expected: 'one record per file',
      };
    default:
      break;
  }
  if (/quote/.test(error.message)) {
    const quote = error.message.includes("'") && !error.message.includes('"') ? "'" : '"';
    const opening = text.lastIndexOf(quote, Math.max(0, at - 1));
    return {
      offset: opening >= 0 ? opening : at,
      message: `has an opening quote (${quote}) that is never closed`,
      expected: `the closing ${quote} at the end of the value, on the same line`,
    };
  }
  if (/flow (sequence|collection|map)|end with a [\]}]/i.test(error.message)) {
    const bracket = unclosedBracket(text, at);
    if (bracket !== undefined) {
      const close = text[bracket] === '[' ? ']' : '}';
      return {
        offset: bracket,
        message: `has a "${text[bracket]}" that is never closed`,
        expected: `a list written on one line, ending with "${close}"`,
      };
    }
  }
  if (
    error.code === 'BLOCK_AS_IMPLICIT_KEY' ||
    error.code === 'MULTILINE_IMPLICIT_KEY' ||
    error.code === 'BAD_INDENT' ||
    isMissingValue(error)
  ) {
    // A `field: value` line whose value holds ": " reads as a mapping inside the value.
    const value = /^(\s*(?:-\s+)?[^\s:#][^:#]*?:\s+)(\S.*)$/.exec(lineText);
    const colon = value ? /:(?:\s|$)/.exec(value[2]!) : null;
    if (value && colon) {
      return {
        offset: lines.start(line) + value[1]!.length + colon.index,
        message: 'has a colon followed by a space inside a value',
        expected: `the value in quotes: ${value[1]!.trim()} "${value[2]!.trim().replace(/"/g, '\\"')}"`,
      };
    }
    const next = lines.nextNonBlank(line);
    if (next !== undefined && indentOf(lines.text(next)) > indentOf(lineText) && !/:\s*$/.test(lineText)) {
      return {
        offset: lines.start(next),
        message: 'is indented more than the line above it',
        expected:
          'each field at the start of its line; only the items of a list, and the lines of a long text, are indented',
      };
    }
    if (!/:(\s|$)/.test(lineText) && !/^\s*-(\s|$)/.test(lineText)) {
      return {
        offset: lines.start(line),
        message: 'is not a "field: value" line',
        expected: 'the field name, a colon and a space, then the value',
      };
    }
    const previous = lines.previousNonBlank(line);
    if (previous !== undefined && indentOf(lines.text(previous)) !== indentOf(lineText)) {
      return {
        offset: lines.start(line),
        message: 'is indented differently from the line above it',
        expected: 'the items of one list, and the fields of one record, indented by the same number of spaces',
      };
    }
  }
  return {
    offset: at,
    message: `is not valid YAML here (${firstLine(error.message)})`,
    expected: GUIDE,
  };
}

type BlockAbove = { field: string; indent: number } | undefined;
/** blockAbove's answers for the lines that start with a tab, by line. */
type BlocksAbove = Map<number, BlockAbove>;

/**
 * The block text (`field: |` or `field: >`, then indented lines) that line `line` would continue:
 * its field and the indentation of its first line. A line with a tab above, passed over, has the
 * answer this line would get: it is taken from `known`, so that a file of tab-indented lines is
 * read once, not once per line.
 */
function blockAbove(lines: Lines, line: number, known: BlocksAbove): BlockAbove {
  let indent: number | undefined;
  for (let l = line - 1; l >= 0; l--) {
    const text = lines.text(l);
    if (text.trim() === '') continue;
    const header = /^(\s*)(?:-\s+)?([^\s:#][^:#]*?):\s+[|>][-+0-9]*\s*(?:#.*)?$/.exec(text);
    if (header && (indent === undefined || indentOf(text) < indent)) {
      return remember(known, line, { field: header[2]!, indent: indent ?? indentOf(text) + 2 });
    }
    if (/^\s*\t/.test(text)) {
      if (indent === undefined && known.has(l)) return remember(known, line, known.get(l));
      continue;
    }
    // A line of the text, or one outside any block.
    if (indentOf(text) === 0) return remember(known, line, undefined);
    indent = indentOf(text);
  }
  return remember(known, line, undefined);
}

function remember(known: BlocksAbove, line: number, block: BlockAbove): BlockAbove {
  known.set(line, block);
  return block;
}

/** The last `[` or `{` before `at` that nothing closes, outside quotes (a good guess, not a parse). */
function unclosedBracket(text: string, at: number): number | undefined {
  const open: number[] = [];
  let quote: string | undefined;
  for (let i = 0; i < at && i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\n') quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[' || c === '{') open.push(i);
    else if ((c === ']' || c === '}') && open.length > 0) open.pop();
    else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]!)))
      i = text.indexOf('\n', i) < 0 ? at : text.indexOf('\n', i);
  }
  return open.at(-1);
}

function indentOf(line: string): number {
  return /^ */.exec(line)![0].length;
}

function firstLine(message: string): string {
  return message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
}

/** Line numbers (0-based here) of a text, by offset. */
class Lines {
  private readonly starts: number[] = [0];
  constructor(private readonly source: string) {
    for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }
  lineOf(offset: number): number {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.starts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return low;
  }
  start(line: number): number {
    return this.starts[line]!;
  }
  end(line: number): number {
    const next = this.starts[line + 1];
    return next === undefined ? this.source.length : next - 1;
  }
  text(line: number): string {
    return this.source.slice(this.start(line), this.end(line)).replace(/\r$/, '');
  }
  nextNonBlank(line: number): number | undefined {
    for (let l = line + 1; l < this.starts.length; l++) if (this.text(l).trim() !== '') return l;
    return undefined;
  }
  previousNonBlank(line: number): number | undefined {
    for (let l = line - 1; l >= 0; l--) if (this.text(l).trim() !== '') return l;
    return undefined;
  }
}
