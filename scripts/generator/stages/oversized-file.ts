/**
 * A record file larger than any record (field-limits.ts, RECORD_FILE_LIMIT) is refused unparsed:
 * parsing holds several copies of its text, and past V8's longest string it cannot even be
 * decoded. What is said points at its longest line and the field that line belongs to, found by
 * scanning the bytes for line breaks a megabyte at a time, never holding the file.
 */
import { fstatSync, readSync } from 'node:fs';
import { countText } from '../../shared/count-text.ts';
import { FIELD_LIMITS, RECORD_FILE_LIMIT } from '../model/field-limits.ts';
import type { Problem } from '../model/problems.ts';

const CHUNK = 1024 * 1024;
/** Enough of a line's start to read the field it names. */
const PREFIX = 256;

const megabytes = (bytes: number) => {
  const value = bytes / (1024 * 1024);
  return `${Number.isInteger(value) ? value : value.toFixed(1)} MB`;
};

interface LongestLine {
  line: number;
  bytes: number;
  /** The start of the line, as text. */
  start: string;
  /** The field the line names (`name:`, `"name":`), or continues when indented; empty when neither. */
  field: string;
}

/** A field named at the start of a line: `name:` in YAML (not indented), `"name":` in JSON. */
function fieldNamed(start: string): string | undefined {
  return (/^([A-Za-z_][\w-]*)[ \t]*:/.exec(start) ?? /^[ \t]*"([A-Za-z_][\w-]*)"[ \t]*:/.exec(start))?.[1];
}

/** The longest line of the bytes given chunk by chunk, with the field it belongs to. */
function longestLine(chunks: Iterable<Uint8Array>): LongestLine {
  let longest: LongestLine = { line: 1, bytes: 0, start: '', field: '' };
  let line = 1;
  let bytes = 0;
  let start: Buffer[] = [];
  let startBytes = 0;
  let field = '';
  const endLine = () => {
    const text = Buffer.concat(start).toString('utf8');
    // An indented line continues the field above; one at the margin names its own, or none.
    field = fieldNamed(text) ?? (/^[ \t-]/.test(text) ? field : '');
    if (bytes > longest.bytes) longest = { line, bytes, start: text, field };
    line++;
    bytes = 0;
    start = [];
    startBytes = 0;
  };
  for (const chunk of chunks) {
    const buffer = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let at = 0;
    while (at < buffer.length) {
      const lineFeed = buffer.indexOf(10, at);
      const end = lineFeed === -1 ? buffer.length : lineFeed;
      if (startBytes < PREFIX) {
        const kept = buffer.subarray(at, Math.min(end, at + PREFIX - startBytes));
        start.push(Buffer.from(kept));
        startBytes += kept.length;
      }
      bytes += end - at;
      if (lineFeed === -1) break;
      endLine();
      at = lineFeed + 1;
    }
  }
  if (bytes > 0) endLine();
  return longest;
}

/** The problem of a file of `size` bytes, over the limit, whose bytes come in `chunks`. */
function tooLarge(file: string, size: number, chunks: Iterable<Uint8Array>): Problem {
  const longest = longestLine(chunks);
  // The value's column on a line that names its field; the text's first character on any other.
  const named = fieldNamed(longest.start) !== undefined;
  const column =
    (named ? /^[^:]*:[ \t]*/.exec(longest.start)![0].length : /^[ \t]*/.exec(longest.start)![0].length) + 1;
  return {
    code: 'io/too-large',
    file,
    line: longest.line,
    column,
    field: longest.field,
    message: `the file is ${megabytes(size)}, more than a record file may be; line ${countText(longest.line)} alone is ${megabytes(longest.bytes)}`,
    expected: `a record file of at most ${megabytes(RECORD_FILE_LIMIT)}, which no record comes near: an abstract has at most ${countText(FIELD_LIMITS.abstract)} characters; was a whole document pasted in?`,
  };
}

/** The problem of a record file's bytes, when there are more than a record file may have. */
export function tooLargeBytes(file: string, bytes: Uint8Array): Problem | undefined {
  if (bytes.length <= RECORD_FILE_LIMIT) return undefined;
  const chunks = function* () {
    for (let at = 0; at < bytes.length; at += CHUNK) yield bytes.subarray(at, at + CHUNK);
  };
  return tooLarge(file, bytes.length, chunks());
}

/** The problem of an open record file, when it is larger than a record file may be: read a megabyte at a time. */
export function tooLargeFile(file: string, fd: number): Problem | undefined {
  const { size } = fstatSync(fd);
  if (size <= RECORD_FILE_LIMIT) return undefined;
  const chunks = function* () {
    const buffer = Buffer.allocUnsafe(CHUNK);
    for (;;) {
      const read = readSync(fd, buffer, 0, CHUNK, null);
      if (read === 0) return;
      yield buffer.subarray(0, read);
    }
  };
  return tooLarge(file, size, chunks());
}
