/**
 * The Site's newest manuscripts (model/newest.ts): the order a feed lists, and what a body that
 * lists them depends on (engine/reuse/read-tracking.ts, the `newest:<count>` token).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isNewer, newestPositions } from '../scripts/generator/model/newest.ts';
import { trackReads } from '../scripts/generator/engine/reuse/read-tracking.ts';
import { resolveAuthors } from '../scripts/generator/stages/resolve.ts';
import type { ManuscriptRecord } from '../scripts/generator/model/records.ts';
import { JOURNAL, manuscript, site, volume } from './helpers/synthetic-site.ts';

describe('the newest manuscripts', () => {
  it('are the first of all manuscripts sorted by date, then id, the later first', () => {
    const dated = fc.record({
      citation_date: fc.constantFrom('2019-01-01', '2020-05-05', '2020-05-06', '2023-12-31'),
      id: fc.integer({ min: 1, max: 10_000 }),
    });
    fc.assert(
      fc.property(
        fc.uniqueArray(dated, { selector: (m) => m.id, maxLength: 120 }),
        fc.integer({ min: 0, max: 60 }),
        (manuscripts, count) => {
          const sorted = manuscripts
            .map((m, i) => ({ m, i }))
            .sort((a, b) => (isNewer(a.m, b.m) ? -1 : isNewer(b.m, a.m) ? 1 : 0))
            .map(({ i }) => i);
          expect(newestPositions(manuscripts, count)).toEqual(sorted.slice(0, count));
        },
      ),
      { seed: 20261126, numRuns: 300 },
    );
  });

  it('are given by the plain site, newest first', () => {
    const s = site({
      volumes: [volume(1, 'Volume I', '2020-01-01')],
      manuscripts: [
        manuscript(1, { citation_date: '2020-01-01' }),
        manuscript(2, { citation_date: '2022-01-01' }),
        manuscript(3, { citation_date: '2020-01-01' }),
      ],
    });
    expect(s.newestManuscripts(2).map((m) => m.id)).toEqual([2, 3]);
    expect(s.newestManuscripts(10).map((m) => m.id)).toEqual([2, 3, 1]);
  });
});

describe('a body that lists the newest manuscripts', () => {
  const hashed = (m: ManuscriptRecord, hash: string): ManuscriptRecord => ({ ...m, origin: { ...m.origin, hash } });
  const journalOf = (manuscripts: ManuscriptRecord[]) => ({
    journal: JOURNAL,
    authors: [],
    volumes: [
      { ...volume(1, 'Volume I', '2020-01-01'), origin: { ...volume(1, 'Volume I', '2020-01-01').origin, hash: 'V' } },
    ],
    manuscripts,
    manuscriptAuthors: resolveAuthors([], manuscripts),
  });
  const three = [
    hashed(manuscript(1, { citation_date: '2020-01-01' }), 'M1'),
    hashed(manuscript(2, { citation_date: '2022-01-01' }), 'M2'),
    hashed(manuscript(3, { citation_date: '2021-01-01' }), 'M3'),
  ];
  /** The feed's way of reading: the newest two, and their titles. */
  const body = (tracker: ReturnType<typeof trackReads>) => () =>
    tracker.site.newestManuscripts(2).map((m) => m.citation_title);

  it('notes which they are and each one it read, not the whole list', () => {
    const tracker = trackReads(journalOf(three));
    // A title is one of a manuscript's short fields: each is noted as those (`s:`), not whole (`m:`).
    expect(tracker.track(body(tracker)).reads).toBe('newest:2\ns:m-2\ns:m-3');
  });

  it('keeps its key when a manuscript it does not list changes, and only then', () => {
    const tracker = trackReads(journalOf(three));
    const { reads, key } = tracker.track(body(tracker));
    const keyNow = (manuscripts: ManuscriptRecord[]) => trackReads(journalOf(manuscripts)).keyOf(reads);
    expect(keyNow(three)).toBe(key);
    // The oldest one edited, still the oldest: the same key.
    expect(keyNow([hashed(three[0]!, 'M1 edited'), three[1]!, three[2]!])).toBe(key);
    // A listed one edited: another key.
    expect(keyNow([three[0]!, hashed(three[1]!, 'M2 edited'), three[2]!])).not.toBe(key);
    // The oldest one dated newest: it is listed now, so another key, though no listed file changed.
    const moved = hashed(manuscript(1, { citation_date: '2024-01-01' }), 'M1');
    expect(keyNow([moved, three[1]!, three[2]!])).not.toBe(key);
    // A new manuscript older than those listed: the same key.
    expect(keyNow([...three, hashed(manuscript(4, { citation_date: '2019-01-01' }), 'M4')])).toBe(key);
  });
});
