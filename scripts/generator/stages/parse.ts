/**
 * Stage 2: turn one file's bytes into data, keeping the YAML document and its line counter so any
 * later problem can point at a line and column. Each file is parsed exactly once.
 *
 * YAML uses the failsafe schema: every scalar stays the exact string the editor typed, so
 * `2024-01-02`, `1.10` and `007` are never turned into dates or numbers (the schema decides types).
 * JSON files are read with the yaml package's JSON schema: same node positions, JSON's own types.
 */
import { createRequire } from 'node:module';
import type * as YamlPackage from 'yaml';
import type { Document, Node } from 'yaml';
import { parsePlainYaml, type Position } from './plain-yaml.ts';
import type { Problem } from '../model/problems.ts';

export type { Position };

export interface ParsedFile {
  file: string;
  data: unknown;
  /** The position of the value at `path`, or of the nearest enclosing node that exists. */
  locate(path: readonly PropertyKey[]): Position;
  /** The position of a mapping key (for unknown fields). */
  locateKey(path: readonly PropertyKey[], key: string): Position;
}

/**
 * The yaml package, loaded the first time a file needs it. Record files are nearly always plain
 * YAML (plain-yaml.ts): loading the package costs every command about 30 ms of its start, and each
 * load worker as much, for files it never reads, where `check` after an edit has under a second in
 * all. Required, not imported: parsing stays synchronous, and on Node the package's `import`
 * and `require` both give its CommonJS build, so this is the same module.
 */
let yamlPackage: typeof YamlPackage | undefined;
const yaml = (): typeof YamlPackage => (yamlPackage ??= createRequire(import.meta.url)('yaml') as typeof YamlPackage);

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

  if (parser.schema === 'failsafe') {
    // Most record files are plain YAML that a small reader takes in a few µs; it declines
    // anything else (errors included), and the yaml package below decides, with the same result.
    const plain = parsePlainYaml(text);
    if (plain) return { parsed: { file, ...plain }, problems: [] };
  }
  return parseWithYamlPackage(file, text);
}

/** The yaml package's reading of a decoded file: the reference the plain reader must equal. */
export function parseWithYamlPackage(file: string, text: string): { parsed?: ParsedFile; problems: Problem[] } {
  const extension = file.slice(file.lastIndexOf('.')).toLowerCase();
  const parser = PARSERS[extension];
  if (!parser) throw new Error(`no parser for ${file}`);
  const { LineCounter, parseDocument, isMap, isPair, isScalar } = yaml();
  const lineCounter = new LineCounter();
  const document = parseDocument(text, {
    schema: parser.schema,
    lineCounter,
    uniqueKeys: true,
    prettyErrors: false,
    strict: true,
    stringKeys: true,
  });
  const at = (offset: number): Position => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };

  if (document.errors.length > 0) {
    return {
      problems: document.errors.map((error) => ({
        code: 'parse/syntax' as const,
        file,
        ...at(error.pos[0]),
        field: '',
        message: firstLine(error.message),
        expected: extension === '.json' ? 'valid JSON' : 'valid YAML',
      })),
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

  return {
    parsed: {
      file,
      data,
      locate: (path) => at(nodeAt(document, path)?.range?.[0] ?? 0),
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

/** The deepest existing node along `path` (so a missing field points at its record). */
function nodeAt(document: Document, path: readonly PropertyKey[]): Node | undefined {
  const { isMap, isSeq } = yaml();
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
    i += length;
  }
  return bytes.length;
}
