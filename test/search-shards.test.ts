import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSearchIndex } from '../scripts/generator/engine/search/search-index.ts';
import type { Progress } from '../scripts/generator/progress.ts';
import type { ResolvedJournal } from '../scripts/generator/stages/resolve.ts';
import { pagefindChildren } from './helpers/pagefind-processes.ts';
import { createWorkspace } from './helpers/workspace.ts';

/**
 * A resolved journal of manuscripts `ids` in one volume, each abstract read through `abstractOf`:
 * what the index reads of a journal, and no more.
 */
function journalOf(ids: number[], abstractOf: (id: number) => string): ResolvedJournal {
  const manuscript = (id: number) => ({
    id,
    citation_volume: 1,
    citation_title: `On the salamanders of lake ${id}`,
    keywords: 'salamanders, lakes',
    citation_language: 'English',
    authors: [],
    origin: { key: `manuscripts/${id}`, hash: `hash-${id}` },
    get abstract() {
      return abstractOf(id);
    },
  });
  return {
    journal: { citation_language: 'English' },
    authors: [],
    volumes: [{ id: 1, citation_journal_title: 'Bulletin', full_date: '2020-01-01', origin: { key: 'v', hash: 'v' } }],
    manuscripts: ids.map(manuscript),
    manuscriptAuthors: ids.map(() => []),
  } as unknown as ResolvedJournal;
}

// What Pagefind is given of a manuscript holds its whole abstract as plain text: at 100,000 imported
// manuscripts, made for every shard before the first was indexed, it took the build's own heap over
// 1.2 GB. A shard's text is made when that shard is indexed, and let go with it.
describe('an index in shards', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'search-shards-'));
    process.env['JOURNAL_SEARCH_SHARD_SIZE'] = '1';
  });
  afterEach(() => {
    delete process.env['JOURNAL_SEARCH_SHARD_SIZE'];
    rmSync(dir, { recursive: true, force: true });
  });

  it("reads a shard's abstracts only when that shard is indexed, not every shard's first", async () => {
    const events: string[] = [];
    const resolved = journalOf([1, 2, 3], (id) => {
      events.push(`abstract ${id}`);
      return `Salamanders were counted at lake ${id}.`;
    });
    const progress: Progress = {
      stage: () => ({ advance: () => events.push('shard indexed'), done: () => {} }),
    };
    const index = startSearchIndex(resolved, {
      outDir: path.join(dir, 'dist'),
      cacheDir: path.join(dir, 'cache'),
      fingerprint: 'test',
      reuse: false,
      progress,
    });
    const files = await index.files();
    expect(files.some((file) => file.path === 'pagefind/languages.json')).toBe(true);
    expect(events).toEqual([
      'abstract 1',
      'shard indexed',
      'abstract 2',
      'shard indexed',
      'abstract 3',
      'shard indexed',
    ]);
  }, 60_000);

  it("hands the write stage the index's files set aside, their bytes read back only when written", async () => {
    const resolved = journalOf([1, 2], (id) => `Salamanders were counted at lake ${id}.`);
    const options = {
      outDir: path.join(dir, 'dist'),
      cacheDir: path.join(dir, 'cache'),
      fingerprint: 'test',
      reuse: false,
      progress: { stage: () => ({ advance: () => {}, done: () => {} }) },
    };
    const files = (await startSearchIndex(resolved, options).files()).filter(
      (file) => file.path !== 'pagefind/languages.json',
    );
    expect(files.length).toBeGreaterThan(4);
    for (const file of files) {
      // Held as bytes, every shard's files stayed in memory from indexing to the end of the build:
      // about 250 MB at 100,000 imported manuscripts.
      expect(Object.getOwnPropertyDescriptor(file, 'body')?.get, file.path).toBeTypeOf('function');
      expect(file.body).toBeInstanceOf(Uint8Array);
    }
    expect(
      Buffer.from(files.find((file) => file.path.endsWith('pagefind-entry.json'))!.body as Uint8Array).toString(),
    ).toContain('"languages"');
  }, 60_000);
});

describe('a build that stops on a problem', () => {
  it("leaves nothing in the cache's folder once it has returned, while its index is still being made", async () => {
    const workspace = await createWorkspace();
    try {
      await workspace.remove('authors/jane-doe.json');
      const result = await workspace.build();
      expect(result.problems.some((problem) => problem.code === 'ref/unknown-author')).toBe(true);
      // Whatever the index of a stopped build keeps must already be open, not made in a folder the
      // caller may be removing by then (its index stops with it, too: the test below).
      await rm(workspace.paths.cache, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      expect(existsSync(workspace.paths.cache)).toBe(false);
    } finally {
      await workspace.dispose();
    }
  }, 60_000);

  it.runIf(process.platform === 'linux')(
    'leaves no Pagefind process behind once it has returned: its index stops with it',
    async () => {
      const workspace = await createWorkspace();
      process.env['JOURNAL_SEARCH_SHARD_SIZE'] = '1';
      try {
        await workspace.remove('authors/jane-doe.json');
        const result = await workspace.build();
        expect(result.problems.some((problem) => problem.code === 'ref/unknown-author')).toBe(true);
        // Three shards, one service after another: none may be running, or start, once the build returned.
        const seen = new Set<string>();
        for (let look = 0; look < 40; look++) {
          for (const child of await pagefindChildren()) seen.add(child);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect([...seen]).toEqual([]);
      } finally {
        delete process.env['JOURNAL_SEARCH_SHARD_SIZE'];
        await workspace.dispose();
      }
    },
    60_000,
  );
});
