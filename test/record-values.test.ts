/**
 * Which outputs read something that changed since the previous build (engine/reuse/record-values.ts):
 * an output whose reads name nothing changed keeps its recorded key without being valued again, so
 * a change missed here would publish a stale file.
 */
import { describe, expect, it } from 'vitest';
import { changesSince, type RecordValues } from '../scripts/generator/engine/reuse/record-values.ts';

const then: RecordValues = {
  keys: ['ana\nboris', 'volume-1', 'm1\nm10\nm2'],
  values: ['hash-ana\nhash-boris', 'hash-v1', 'hash-m1\nhash-m10\nhash-m2'],
  // The authors' names; the manuscripts' short fields are valued as their records.
  groups: ['["Ana","P"]\n["Boris","K"]', ''],
  composites: [
    ['in:volume-1', 'members-1'],
    ['newest:20', 'newest-1'],
  ],
};

/** `then` with some of its parts replaced. */
const nowWith = (change: Partial<RecordValues>): RecordValues => ({ ...then, ...change });

describe('what changed since the previous build', () => {
  it('is nothing when every record and composite has its value of then', () => {
    const changed = changesSince(then, nowWith({}))!;
    expect(changed('m:m1\na:ana\nv:volume-1\nin:volume-1\neach:authors')).toBe(false);
  });

  it("is a record whose file changed, named as a whole line of an output's reads", () => {
    const changed = changesSince(
      then,
      nowWith({ values: [then.values[0]!, then.values[1]!, 'hash-m1-edited\nhash-m10\nhash-m2'] }),
    )!;
    expect(changed('m:m1')).toBe(true);
    expect(changed('a:ana\nm:m1\nv:volume-1')).toBe(true);
    // m:m10 and m:m1x start with m:m1; a:m1 is another collection's key.
    expect(changed('m:m10\na:ana')).toBe(false);
    expect(changed('a:m1')).toBe(false);
    // A body that took the whole list of manuscripts read the edited one too.
    expect(changed('each:manuscripts')).toBe(true);
    expect(changed('each:authors')).toBe(false);
    // Its short fields are valued as the record.
    expect(changed('v:volume-1\ns:m1')).toBe(true);
    expect(changed('v:volume-1\ns:m10')).toBe(false);
  });

  it("is a group of a record's fields only when what they hold changed", () => {
    const institution = changesSince(
      then,
      nowWith({ values: ['hash-ana-edited\nhash-boris', ...then.values.slice(1)] }),
    )!;
    expect(institution('m:m1\na:ana')).toBe(true);
    expect(institution('m:m1\nn:ana')).toBe(false);
    const renamed = changesSince(
      then,
      nowWith({
        values: ['hash-ana-edited\nhash-boris', ...then.values.slice(1)],
        groups: ['["Ana","Petrovska"]\n["Boris","K"]', ''],
      }),
    )!;
    expect(renamed('m:m1\nn:ana')).toBe(true);
    expect(renamed('m:m1\nn:boris')).toBe(false);
    // An author removed: what named their names changed too.
    const removed = changesSince(
      then,
      nowWith({
        keys: ['ana', ...then.keys.slice(1)],
        values: ['hash-ana', ...then.values.slice(1)],
        groups: ['["Ana","P"]', ''],
      }),
    )!;
    expect(removed('n:boris')).toBe(true);
    expect(removed('n:ana')).toBe(false);
  });

  it('is a record removed or renamed, and the list it was in', () => {
    const changed = changesSince(
      then,
      nowWith({ keys: ['ana', ...then.keys.slice(1)], values: ['hash-ana', ...then.values.slice(1)] }),
    )!;
    expect(changed('m:m1\na:boris')).toBe(true);
    expect(changed('each:authors')).toBe(true);
    expect(changed('m:m1\na:ana')).toBe(false);
  });

  it("is a volume's members or the newest manuscripts when their value changed", () => {
    const changed = changesSince(then, nowWith({ composites: [['in:volume-1', 'members-2'], then.composites[1]!] }))!;
    expect(changed('v:volume-1\nin:volume-1')).toBe(true);
    expect(changed('newest:20\nm:m2')).toBe(false);
  });

  it('is not told cheaply when many records changed: every output is valued again', () => {
    const many = Array.from({ length: 100 }, (_, i) => `m${i}`);
    const before: RecordValues = {
      ...then,
      keys: [then.keys[0]!, then.keys[1]!, many.join('\n')],
      values: [then.values[0]!, then.values[1]!, many.map((key) => `old-${key}`).join('\n')],
    };
    const after: RecordValues = {
      ...before,
      values: [then.values[0]!, then.values[1]!, many.map((key) => `new-${key}`).join('\n')],
    };
    expect(changesSince(before, after)).toBeUndefined();
  });
});
