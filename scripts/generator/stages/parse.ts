/**
 * Stage 2: turn one file's bytes into data, keeping the YAML document and its line counter so any
 * later problem can point at a line and column. Each file is parsed exactly once.
 *
 * YAML uses the failsafe schema: every scalar stays the exact string the editor typed, so
 * `2024-01-02`, `1.10` and `007` are never turned into dates or numbers (the schema decides types).
 * JSON files are checked as strict JSON (strict-json.ts), then read with the yaml package's JSON
 * schema: same node positions, JSON's own types.
 */
import type { Composer, CST, Document, Node } from 'yaml';
import { MAX_NESTING, parsePlainYaml, type Position } from './plain-yaml.ts';
import type { Problem } from '../model/problems.ts';
import { strictJsonMistake } from './strict-json.ts';
import { plainYamlMistakes } from './yaml-errors.ts';
import { yamlPackage } from '../../shared/yaml-package.ts';
import { tooLargeBytes } from './oversized-file.ts';

export type { Position };

export interface ParsedFile {
  file: string;
  /** The decoded text (for pointing inside a value: validate.ts). */
  text: string;
  data: unknown;
  /** The position of the value at `path`, or of the nearest enclosing node that exists. */
  locate(path: readonly PropertyKey[]): Position;
  /** The position of a mapping key (for unknown fields). */
  locateKey(path: readonly PropertyKey[], key: string): Position;
}

/** Aliases are legitimate in YAML but a few hundred already make a "billion laughs" document. */
const MAX_ALIAS_COUNT = 100;

type ParserOptions = { schema: 'failsafe' | 'json' };
const PARSERS: Record<string, ParserOptions> = {
  '.yaml': { schema: 'failsafe' },
  '.yml': { schema: 'failsafe' },
  '.json': { schema: 'json' },
};

export function parseFile(file: string, bytes: Uint8Array): { parsed?: ParsedFile; problems: Problem[] } {
  const extension = file.slice(file.lastIndexOf('.')).toLowerCase();
  const parser = PARSERS[extension];
  if (!parser) throw new Error(`no parser for ${file}`); // discover() only lets known extensions through

  const tooLarge = tooLargeBytes(file, bytes);
  if (tooLarge) return { problems: [tooLarge] };
  const text = decodeUtf8(bytes);
  if (typeof text !== 'string') {
    return {
      problems: [
        {
          code: 'io/not-utf8',
          file,
          ...text,
          field: '',
          message: 'is not valid UTF-8',
          expected: 'text saved as UTF-8',
        },
      ],
    };
  }

  // YAML reads a lone CR as no line break at all: the whole file is one line, and the yaml package
  // reports a dozen mistakes that are not the editor's.
  if (text.includes('\r') && !text.includes('\n')) {
    return {
      problems: [
        {
          code: 'parse/line-endings',
          file,
          line: 0,
          column: 0,
          field: '',
          message: 'has old Mac-style line endings (CR only)',
          expected: 'lines ending in LF or CRLF: save the file with Unix or Windows line endings',
        },
      ],
    };
  }

  if (parser.schema === 'failsafe') {
    // Most record files are plain YAML that a small reader takes in a few µs; it declines
    // anything else (errors included), and the yaml package below decides, with the same result.
    const plain = parsePlainYaml(text);
    if (plain) return { parsed: { file, text, ...plain }, problems: [] };
  }
  return parseWithYamlPackage(file, text);
}

/** The yaml package's reading of a decoded file: the reference the plain reader must equal. */
export function parseWithYamlPackage(file: string, text: string): { parsed?: ParsedFile; problems: Problem[] } {
  const extension = file.slice(file.lastIndexOf('.')).toLowerCase();
  const parser = PARSERS[extension];
  if (!parser) throw new Error(`no parser for ${file}`);
  const { LineCounter, Parser, isMap, isPair, isScalar } = yamlPackage();
  const lineCounter = new LineCounter();
  const at = (offset: number): Position => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  if (parser.schema === 'json') {
    const mistake = strictJsonMistake(text);
    if (mistake) {
      const { line, column } = positionIn(text, mistake.offset);
      return {
        problems: [
          { code: 'parse/syntax', file, line, column, field: '', message: mistake.message, expected: mistake.expected },
        ],
      };
    }
  }
  // As parseDocument, in its two steps: the syntax tree is checked before the composer, whose
  // recursion a few thousand levels of nesting overflow, turns it into a document.
  const tokens = [...new Parser(lineCounter.addNewLine).parse(text)];
  const { tags, tooDeep } = inspectTokens(tokens);
  if (tooDeep !== undefined) {
    return {
      problems: [
        {
          code: 'parse/too-deep',
          file,
          ...at(tooDeep),
          field: '',
          message: `nests lists and mappings more than ${MAX_NESTING} levels deep`,
          expected: `at most ${MAX_NESTING} levels: no record of the content model goes deeper than 3`,
        },
      ],
    };
  }
  const tagProblems = tags.map((tag): Problem => ({
    code: 'parse/tag',
    file,
    ...at(tag.offset),
    field: '',
    message: `has the YAML tag ${tag.source}`,
    expected: 'a plain value without a tag (`!...`): quote it if the text starts with "!"',
  }));
  const document = composeFirst(tokens, text.length, {
    schema: parser.schema,
    lineCounter,
    // Repeated keys are found by repeatedKeys: the package looks for each key through every key
    // before it, and a file of 20,000 fields took seconds.
    uniqueKeys: false,
    prettyErrors: false,
    strict: true,
    stringKeys: true,
  });
  repeatedKeys(document);

  if (document.errors.length > 0 || tagProblems.length > 0) {
    return {
      problems: [
        ...tagProblems,
        ...plainYamlMistakes(text, document.errors).map((mistake) => ({
          code: 'parse/syntax' as const,
          file,
          ...at(mistake.offset),
          field: '',
          message: mistake.message,
          expected: mistake.expected,
        })),
      ],
    };
  }

  let data: unknown;
  try {
    data = document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    return {
      problems: [
        {
          code: 'parse/syntax',
          file,
          line: 1,
          column: 1,
          field: '',
          message: firstLine((error as Error).message),
          expected: `at most ${MAX_ALIAS_COUNT} alias expansions`,
        },
      ],
    };
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    const start = document.contents?.range[0] ?? 0;
    return {
      problems: [
        {
          code: 'parse/not-a-mapping',
          file,
          ...at(start),
          field: '',
          message: 'does not hold a mapping of fields',
          expected: 'field: value lines (a JSON object)',
        },
      ],
    };
  }

  const locate = (path: readonly PropertyKey[]) => at(nodeAt(document, path)?.range?.[0] ?? 0);
  // A `\ud800` escape makes a string that no UTF-8 output can hold (JSON.stringify would write the
  // escape back, and a page or a header could not be written at all).
  // Strict decoding leaves none in the text itself: only an escape of D800-DFFF can make one.
  const surrogate = SURROGATE_ESCAPE.test(text) ? loneSurrogateIn(data) : undefined;
  if (surrogate) {
    return {
      problems: [
        {
          code: 'parse/escape',
          file,
          ...locate(surrogate.path),
          field: surrogate.inKey ? '' : fieldPath(surrogate.path),
          message: `has an escape that makes half of a character (${surrogate.escape})`,
          expected: 'whole characters: a \\u escape of D800-DBFF followed by one of DC00-DFFF, or the character itself',
        },
      ],
    };
  }

  return {
    parsed: {
      file,
      text,
      data,
      locate,
      locateKey: (path, key) => {
        const parent = nodeAt(document, path);
        if (isMap(parent)) {
          for (const item of parent.items) {
            if (isPair(item) && isScalar(item.key) && item.key.value === key && item.key.range)
              return at(item.key.range[0]);
          }
        }
        return at(parent?.range?.[0] ?? 0);
      },
    },
    problems: [],
  };
}

/** As parseDocument: the first document of the tokens, with an error if there are more. */
function composeFirst(
  tokens: CST.Token[],
  length: number,
  options: ConstructorParameters<typeof Composer>[0],
): Document.Parsed {
  const { Composer, YAMLParseError } = yamlPackage();
  let document: Document.Parsed | undefined;
  for (const next of new Composer(options).compose(tokens, true, length)) {
    if (!document) document = next;
    else {
      document.errors.push(
        new YAMLParseError(
          next.range.slice(0, 2) as [number, number],
          'MULTIPLE_DOCS',
          'Source contains multiple documents',
        ),
      );
      break;
    }
  }
  return document!;
}

/**
 * Adds to the document's errors each key its mapping has already, as the yaml package's
 * `uniqueKeys` does (the same code, message and place), with one set per mapping.
 */
function repeatedKeys(document: Document.Parsed): void {
  const { visit, isScalar, YAMLParseError } = yamlPackage();
  visit(document, {
    Map(_, map) {
      const seen = new Set<unknown>();
      for (const { key } of map.items) {
        if (!isScalar(key)) continue;
        if (!seen.has(key.value)) seen.add(key.value);
        else if (key.range)
          document.errors.push(
            new YAMLParseError([key.range[0], key.range[0] + 1], 'DUPLICATE_KEY', 'Map keys must be unique'),
          );
      }
    },
  });
}

/**
 * The tags in a syntax tree, and the offset of the first list or mapping nested deeper than
 * MAX_NESTING (the tree's own nesting is not descended into: a stack, not recursion). Tags are
 * source tokens among the properties before a value: a document's, an item's, a block scalar's.
 */
function inspectTokens(tokens: readonly CST.Token[]): {
  tags: { offset: number; source: string }[];
  tooDeep: number | undefined;
} {
  const tags: { offset: number; source: string }[] = [];
  let tooDeep: number | undefined;
  const findTags = (list: readonly CST.SourceToken[] | undefined) => {
    if (list)
      for (const token of list) if (token.type === 'tag') tags.push({ offset: token.offset, source: token.source });
  };
  const stack: [CST.Token, number][] = tokens.map((token) => [token, 0]);
  while (stack.length > 0) {
    const [token, depth] = stack.pop()!;
    switch (token.type) {
      case 'document':
        findTags(token.start);
        if (token.value) stack.push([token.value, depth]);
        break;
      case 'block-scalar':
        findTags(token.props as CST.SourceToken[]);
        break;
      case 'block-map':
      case 'block-seq':
      case 'flow-collection':
        if (depth + 1 > MAX_NESTING) {
          if (tooDeep === undefined || token.offset < tooDeep) tooDeep = token.offset;
          break;
        }
        for (const item of token.items) {
          findTags(item.start);
          findTags(item.sep);
          if (item.key) stack.push([item.key, depth + 1]);
          if (item.value) stack.push([item.value, depth + 1]);
        }
        break;
      default:
        break;
    }
  }
  return { tags: tags.sort((a, b) => a.offset - b.offset), tooDeep };
}

/** A `\\u` or `\\U` escape of a surrogate (or a text that merely looks like one: then the data is looked at). */
const SURROGATE_ESCAPE = /\\(?:u|U0000)[dD][89a-fA-F]/;

/** Matches a UTF-16 surrogate that is not half of a pair. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The first string (a value, or a mapping's key) holding a lone surrogate, by its path. */
function loneSurrogateIn(data: unknown): { path: PropertyKey[]; inKey: boolean; escape: string } | undefined {
  const escape = (text: string) => {
    const code = text.match(LONE_SURROGATE)![0].charCodeAt(0);
    return `\\u${code.toString(16)}`;
  };
  // Nesting is at most MAX_NESTING here (inspectTokens): recursion is safe.
  const visit = (value: unknown, path: PropertyKey[]): ReturnType<typeof loneSurrogateIn> => {
    if (typeof value === 'string')
      return LONE_SURROGATE.test(value) ? { path, inKey: false, escape: escape(value) } : undefined;
    if (value === null || typeof value !== 'object') return undefined;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const found = visit(value[i], [...path, i]);
        if (found) return found;
      }
      return undefined;
    }
    for (const [key, item] of Object.entries(value)) {
      if (LONE_SURROGATE.test(key)) return { path, inKey: true, escape: escape(key) };
      const found = visit(item, [...path, key]);
      if (found) return found;
    }
    return undefined;
  };
  return visit(data, []);
}

/** `['authors', 1]` → `authors[1]`, as validate.ts names fields. */
function fieldPath(path: readonly PropertyKey[]): string {
  let name = '';
  for (const step of path) name += typeof step === 'number' ? `[${step}]` : name ? `.${String(step)}` : String(step);
  return name;
}

/** The deepest existing node along `path` (so a missing field points at its record). */
function nodeAt(document: Document, path: readonly PropertyKey[]): Node | undefined {
  const { isMap, isSeq } = yamlPackage();
  let node = document.contents as Node | null;
  for (const step of path) {
    let next: unknown;
    if (isMap(node)) next = node.get(String(step), true);
    else if (isSeq(node) && typeof step === 'number') next = node.get(step, true);
    if (!next || typeof next !== 'object' || !('range' in next)) break;
    node = next as Node;
  }
  return node ?? undefined;
}

function firstLine(message: string): string {
  return message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
}

/** The 1-based line and column of an offset (the line counter sees only the lines the parser read). */
export function positionIn(text: string, offset: number): Position {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/** Strict UTF-8 decoding; on failure, the line and column of the first bad byte. */
function decodeUtf8(bytes: Uint8Array): string | Position {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return text.startsWith('\uFEFF') ? text.slice(1) : text;
  } catch {
    const bad = firstInvalidUtf8(bytes);
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < bad; i++) {
      if (bytes[i] === 0x0a) {
        line++;
        lineStart = i + 1;
      }
    }
    const column = new TextDecoder().decode(bytes.subarray(lineStart, bad)).length + 1;
    return { line, column };
  }
}

function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const length =
      b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (length === 0) return i;
    for (let k = 1; k < length; k++) if (((bytes[i + k] ?? 0) & 0xc0) !== 0x80) return i;
    // Overlong forms, encoded surrogates and code points above U+10FFFF (RFC 3629, section 4):
    // the second byte's range, or the decoder's failure would be placed at the end of the file.
    const second = bytes[i + 1]!;
    if (
      (b === 0xe0 && second < 0xa0) ||
      (b === 0xed && second > 0x9f) ||
      (b === 0xf0 && second < 0x90) ||
      (b === 0xf4 && second > 0x8f)
    )
      return i;
    i += length;
  }
  return bytes.length;
}
