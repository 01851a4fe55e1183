/**
 * `.json` record files are strict JSON (RFC 8259): no comments, no trailing commas, no single quotes.
 * The yaml package that gives the fields their positions (parse.ts) reads JSON as YAML's flow style,
 * which accepts all three, so a file is first checked by JSON.parse; only when that fails does the
 * scanner below find the first mistake and say it in words an editor understands, at its offset.
 */

export interface JsonMistake {
  /** Offset in the text of the character the mistake is at. */
  offset: number;
  message: string;
  expected: string;
}

/** Deeper than any record (parse.ts, MAX_NESTING): the scan stops there instead of recursing on. */
const MAX_DEPTH = 64;

const VALUE = 'a value: "text" in double quotes, a number, true, false, null, a list [...] or an object {...}';

export function strictJsonMistake(text: string): JsonMistake | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    return (
      scan(text) ?? {
        offset: 0,
        message: `is not valid JSON: ${(error as Error).message}`,
        expected: 'valid JSON',
      }
    );
  }
}

class Mistake {
  constructor(readonly found: JsonMistake) {}
}

function scan(text: string): JsonMistake | undefined {
  let i = 0;
  const fail = (offset: number, message: string, expected: string): never => {
    throw new Mistake({ offset, message, expected });
  };
  const space = () => {
    for (;;) {
      const c = text[i];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') i++;
      else if (c === '/' && (text[i + 1] === '/' || text[i + 1] === '*'))
        fail(i, 'has a comment', 'no comments: JSON has none; a .yaml file may have # comments');
      else return;
    }
  };
  const unexpected = (what: string) => {
    if (i >= text.length) fail(i, 'ends too early', `${what}, and every { and [ closed`);
    const c = text[i]!;
    if (c === "'")
      fail(i, 'uses single quotes where JSON needs double quotes', 'text and field names in double quotes "..."');
    fail(i, `has an unexpected ${JSON.stringify(c)}`, what);
  };
  const string = () => {
    const start = i++;
    for (;;) {
      if (i >= text.length) fail(start, 'has a text whose closing " is missing', 'a closing " on the same line');
      const c = text.charCodeAt(i);
      if (c === 0x22) return i++;
      if (c === 0x0a || c === 0x0d)
        fail(i, 'has a line break inside a text', 'the text on one line; write \\n for a line break');
      if (c < 0x20) fail(i, 'has a control character inside a text', 'printable text, or an escape such as \\t');
      if (c === 0x5c) {
        const next = text[i + 1] ?? '';
        if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
        else if ('"\\/bfnrt'.includes(next) && next !== '') i += 2;
        else fail(i, `has the unknown escape \\${next}`, 'one of \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX');
      } else i++;
    }
  };
  const value = (depth: number): void => {
    space();
    const c = text[i];
    if (depth > MAX_DEPTH) fail(i, 'nests lists and objects too deep', 'at most a few levels');
    if (c === '{') return object(depth);
    if (c === '[') return array(depth);
    if (c === '"') return void string();
    const number = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
    number.lastIndex = i;
    if ((c === '-' || (c !== undefined && c >= '0' && c <= '9')) && number.test(text)) {
      i = number.lastIndex;
      return;
    }
    for (const literal of ['true', 'false', 'null']) {
      if (text.startsWith(literal, i)) {
        i += literal.length;
        return;
      }
    }
    unexpected(VALUE);
  };
  // An object's fields and a list's items: between brackets, separated by commas, none after the last.
  const members = (close: '}' | ']', noun: 'field' | 'item', member: () => void) => {
    i++;
    space();
    if (text[i] === close) return void i++;
    for (;;) {
      member();
      space();
      if (text[i] === close) return void i++;
      if (text[i] !== ',') {
        if (text[i] === '"')
          fail(i, `is missing a comma before this ${noun}`, `a comma after each ${noun} but the last`);
        unexpected(`"," between ${noun}s, or "${close}" after the last`);
      }
      const comma = i++;
      space();
      if (text[i] === close) fail(comma, `has a comma after the last ${noun}`, `no comma before "${close}"`);
    }
  };
  const object = (depth: number) =>
    members('}', 'field', () => {
      space();
      if (text[i] !== '"') {
        if (/[A-Za-z_]/.test(text[i] ?? ''))
          fail(i, 'has a field name without double quotes', 'field names in double quotes, e.g. "name": "Ana"');
        unexpected('a field name in double quotes');
      }
      string();
      space();
      if (text[i] !== ':') unexpected('":" after the field name');
      i++;
      value(depth + 1);
    });
  const array = (depth: number) => members(']', 'item', () => value(depth + 1));
  try {
    value(0);
    space();
    if (i < text.length) fail(i, 'has more after the end of the record', 'one object {...} per file');
    return undefined;
  } catch (error) {
    if (error instanceof Mistake) return error.found;
    throw error;
  }
}
