/**
 * What each output read, as the build cache keeps it (engine/cache/output-reads.ts): packed in the
 * order of the outputs with each distinct reads kept once, and found again by path whatever order
 * the next build asks in.
 */
import { describe, expect, it } from 'vitest';
import {
  packReadsNow,
  PreviousOutputReads,
  readsFrames,
  unframed,
  type ReadsByPath,
} from '../scripts/generator/engine/cache/output-reads.ts';

/** The reads of `paths` whole, as the next build reads back what a build wrote frame by frame. */
const packReads = (paths: Iterable<string>, reads: ReadsByPath) => unframed(readsFrames(paths, reads));

const recorded = new Map([
  ['citations/1.bib', 'm:one\nv:volume-1'],
  ['citations/1.ris', 'm:one\nv:volume-1'],
  ['citations/10.bib', 'm:ten\nv:volume-1'],
  ['manuscripts/1.html', 'm:one\nv:volume-1'],
  ['api/index.json', ''],
]);
const order = [
  'api/index.json',
  'citations/1.bib',
  'citations/1.ris',
  'citations/10.bib',
  'api/lists',
  'manuscripts/1.html',
];

describe('the reads kept for the next build', () => {
  it('keeps each distinct reads once, and leaves out outputs that read nothing recorded', () => {
    const packed = packReads(order, recorded);
    expect(packed.table).toEqual(['', 'm:one\nv:volume-1', 'm:ten\nv:volume-1']);
    expect(packed.paths.join('\n').split('\n')).toEqual(order.filter((path) => path !== 'api/lists'));
    expect([...packed.index]).toEqual([0, 1, 1, 2, 1]);
  });

  it('packs many paths as one, in order, each with its place', () => {
    // More paths than are joined at a time, a few without reads.
    const many = Array.from({ length: 10_000 }, (_, i) => `manuscripts/${i}.html`);
    const reads = new Map(many.filter((_, i) => i % 1000 !== 7).map((path, i) => [path, `m:${i % 3}`]));
    const packed = packReads(many, reads);
    expect(packed.paths.join('\n').split('\n')).toEqual(many.filter((path) => reads.has(path)));
    expect(packed.index.length).toBe(reads.size);
    expect(packed.table).toEqual(['m:0', 'm:1', 'm:2']);
    const found = new PreviousOutputReads(packed);
    expect(many.filter((path) => found.get(path) !== reads.get(path))).toEqual([]);
  });

  it('finds every path asked for in order, out of order, and after outputs deleted or added since', () => {
    const inOrder = new PreviousOutputReads(packReads(order, recorded));
    for (const path of order) expect(inOrder.get(path)).toBe(recorded.get(path));

    const changed = new PreviousOutputReads(packReads(order, recorded));
    // An output added since, one deleted (citations/1.ris is not asked for), one asked for twice, and a path that
    // starts like a recorded one.
    expect(changed.get('citations/new.bib')).toBeUndefined();
    expect(changed.get('api/index.json')).toBe('');
    expect(changed.get('citations/1.bi')).toBeUndefined();
    expect(changed.get('citations/1.bib')).toBe('m:one\nv:volume-1');
    expect(changed.get('citations/10.bib')).toBe('m:ten\nv:volume-1');
    expect(changed.get('manuscripts/1.html')).toBe('m:one\nv:volume-1');
    expect(changed.get('citations/1.bib')).toBe('m:one\nv:volume-1');
    expect(changed.get('manuscripts/1.htm')).toBeUndefined();
  });

  it('an empty record of reads finds nothing', () => {
    const none = new PreviousOutputReads(packReads([], recorded));
    expect(none.get('')).toBeUndefined();
    expect(none.get('api/index.json')).toBeUndefined();
  });

  it('packs them again from the previous ones where the outputs are the same, as packing them anew would', () => {
    const many = Array.from({ length: 10_000 }, (_, i) => `manuscripts/${i}.html`);
    const before = new Map(many.map((path, i) => [path, `m:${i}\nv:${i % 7}`]));
    const made = new Array<string | undefined>(many.length);
    made[3] = 'm:3\nv:new';
    made[9_999] = 'm:3\nv:new';
    made[5_000] = before.get(many[5_000]!);
    const now = new Map(many.map((path, i) => [path, made[i] ?? before.get(path)!]));
    const again = unframed(packReadsNow(() => many, made, new PreviousOutputReads(packReads(many, before))));
    // Taken from the previous ones: the table as it was, with the one new reads after it.
    expect(again.table.length).toBe(10_001);
    const read = new PreviousOutputReads(again);
    expect(many.map((path) => read.get(path))).toEqual(many.map((path) => now.get(path)));
    expect(again.paths.join('\n')).toBe(many.join('\n'));
    // Outputs added or gone: packed anew, each distinct reads once.
    const fewer = many.slice(1);
    const packed = unframed(packReadsNow(() => fewer, made.slice(1), new PreviousOutputReads(packReads(many, before))));
    expect(packed.table.length).toBe(9_998);
    expect(new PreviousOutputReads(packed).get('manuscripts/3.html')).toBe('m:3\nv:new');
  });

  it('packs them anew once the table holds too many reads no output has any more', () => {
    const many = Array.from({ length: 100 }, (_, i) => `citations/${i}.bib`);
    const before = new Map(many.map((path, i) => [path, `m:${i}`]));
    const previous = new PreviousOutputReads(packReads(many, before));
    const made = many.map((_, i) => `m:${i} edited`);
    expect(previous.repacked(many, made)).toBeUndefined();
    expect(unframed(packReadsNow(() => many, made, previous)).table).toEqual(made);
  });

  it('makes the frames one at a time as they are written, not all of them before the first', () => {
    const many = Array.from({ length: 50_000 }, (_, i) => `manuscripts/${i}.html`);
    const reads = new Map(many.map((path, i) => [path, `m:${i}`]));
    let taken = 0;
    function* paths(): Generator<string> {
      for (const path of many) {
        taken++;
        yield path;
      }
    }
    const frames = readsFrames(paths(), reads)[Symbol.iterator]();
    frames.next();
    expect(taken).toBeLessThan(many.length / 2);
    // Packed at once or one frame at a time, the same reads.
    const whole = packReads(many, reads);
    const streamed = unframed([...readsFrames(many, reads)]);
    expect(streamed.paths.join('\n')).toBe(whole.paths.join('\n'));
    expect(streamed.table).toEqual(whole.table);
    expect([...streamed.index]).toEqual([...whole.index]);
    const found = new PreviousOutputReads(streamed);
    expect(many.filter((path) => found.get(path) !== reads.get(path))).toEqual([]);
  });
});
