/**
 * The load stage's threads: a build asked for load threads with nothing left to load (every file
 * unchanged since the cache) starts none and finishes.
 */
import { describe, expect, it } from 'vitest';
import { runLoadJobs } from '../scripts/generator/engine/load/workers.ts';

describe('the load threads', () => {
  it('load nothing, and start no thread, when there is nothing to load', async () => {
    const results: unknown[] = [];
    await runLoadJobs([], { threads: 2, onResults: (batch) => results.push(...batch) });
    expect(results).toEqual([]);
  });
});
