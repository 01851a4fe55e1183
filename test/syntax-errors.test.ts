/**
 * Syntax mistakes in plain words: one problem per mistake, at the line and column where it is, in
 * words an editor who does not know YAML's or JSON's grammar understands.
 */
import { describe, expect, it } from 'vitest';
import type { Problem } from '../scripts/generator/model/problems.ts';
import { parseFile } from '../scripts/generator/stages/parse.ts';

function parseProblems(file: string, text: string): Problem[] {
  return parseFile(file, new TextEncoder().encode(text)).problems;
}

describe('YAML mistakes in plain words, one line per mistake', () => {
  it.each([
    ['a tab before a field', 'name: Ana\n\tsurname: P\ninstitution: X\n', 2, 1, /starts with a tab/],
    [
      'an unquoted colon in a value',
      'name: Ana\nsurname: Orchids: a checklist\ninstitution: X\n',
      2,
      17,
      /colon followed by a space/,
    ],
    ['a field indented under another', 'name: Ana\n  surname: P\ninstitution: X\n', 2, 1, /indented/],
    ['a list item indented less than the ones above', 'name:\n  - a\n - b\nsurname: x\n', 3, 1, /indented/],
    ['a line without "field: value"', 'name: Ana\nsurname P\ninstitution: X\n', 2, 1, /not a "field: value" line/],
    ['an unclosed quote', 'name: "Ana\nsurname: P\n', 1, 7, /quote/],
    ['an unclosed [', 'name: Ana\nsurname: [P\ninstitution: X\n', 2, 10, /\[/],
    ['a field written twice', 'name: Ana\nname: P\n', 2, 1, /twice/],
  ])('%s', (_name, text, line, column, message) => {
    const problems = parseProblems('content/authors/a.yaml', text);
    expect(problems.map((p) => `${p.code} ${p.line}:${p.column}`)).toEqual([`parse/syntax ${line}:${column}`]);
    expect(problems[0]!.message).toMatch(message);
    // Plain words, not the parser's.
    expect(problems[0]!.message).not.toMatch(/implicit|compact|flow|scalar/i);
  });
});

describe('JSON files are strict JSON', () => {
  it.each([
    ['a trailing comma', '{\n  "name": "Ana",\n  "surname": "P",\n}\n', 3, 17, /comma after the last/],
    ['a comment', '{\n  // who\n  "name": "Ana"\n}\n', 2, 3, /comment/],
    ['single quotes', "{\n  'name': 'Ana'\n}\n", 2, 3, /double quotes/],
    ['a missing comma', '{\n  "name": "Ana"\n  "surname": "P"\n}\n', 3, 3, /missing a comma/],
    ['a trailing comma in a list', '{\n  "keywords": ["a", "b",]\n}\n', 2, 24, /comma after the last item/],
    ['a missing comma in a list', '{\n  "keywords": ["a" "b"]\n}\n', 2, 20, /missing a comma before this item/],
    ['a list never closed', '{\n  "keywords": ["a", "b"\n}\n', 3, 1, /unexpected "}"/],
    ['a line break inside a text', '{\n  "name": "Ana\nB"\n}\n', 2, 15, /line break/],
    ['YAML in a .json file', 'name: Ana\n', 1, 1, /unexpected "n"/],
    ['a YAML tag in a .json file', '{"name": !!str "Ana", "surname": "B"}', 1, 10, /unexpected "!"/],
  ])('%s', (_name, text, line, column, message) => {
    const problems = parseProblems('content/authors/a.json', text);
    expect(problems.map((p) => `${p.code} ${p.line}:${p.column}`)).toEqual([`parse/syntax ${line}:${column}`]);
    expect(problems[0]!.message).toMatch(message);
    expect(problems[0]!.expected).toBeDefined();
  });

  it('valid JSON still reads as before', () => {
    const parsed = parseFile('a.json', new TextEncoder().encode('{"name": "Ana", "n": 1}'));
    expect(parsed.problems).toEqual([]);
    expect(parsed.parsed!.data).toEqual({ name: 'Ana', n: 1 });
  });
});
