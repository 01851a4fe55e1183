/**
 * Bounded concurrency (shared/for-each-limited.ts): after a failure nothing new starts, and the
 * failure is reported only once the calls in flight are done, so that whoever cleans up after it
 * (the write stage removing its staging folder) has nothing still running.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { forEachLimited } from '../scripts/shared/for-each-limited.ts';

describe('forEachLimited', () => {
  it('keeps at most the limit in flight and runs every item once', async () => {
    let inFlight = 0;
    let most = 0;
    const seen: number[] = [];
    await forEachLimited(
      Array.from({ length: 40 }, (_, i) => i),
      4,
      async (i) => {
        most = Math.max(most, ++inFlight);
        await sleep(i % 3);
        seen.push(i);
        inFlight--;
      },
    );
    expect(most).toBe(4);
    expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i));
  });

  it('after a failure starts nothing new, and rejects only once the calls in flight are done', async () => {
    const started: number[] = [];
    const finished: number[] = [];
    const outcome = await forEachLimited(
      Array.from({ length: 40 }, (_, i) => i),
      4,
      async (i) => {
        started.push(i);
        if (i === 5) throw new Error('item 5 failed');
        await sleep(20);
        finished.push(i);
      },
    ).then(
      () => 'done',
      (error: Error) => error.message,
    );
    expect(outcome).toBe('item 5 failed');
    // Everything that started (but the failed item) had finished when the failure was reported.
    expect(finished.sort((a, b) => a - b)).toEqual(started.filter((i) => i !== 5).sort((a, b) => a - b));
    expect(started.length).toBeLessThan(12);
  });
});
