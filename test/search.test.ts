/**
 * The site search (docs/search.md): the build writes Pagefind's index under dist/pagefind/ from the
 * manuscripts; a reader types into the home page's box in a real headless Chromium, served by the
 * preview and by nginx, Caddy and Apache with the configurations the project generates, and finds a manuscript by a
 * Cyrillic word of its abstract, by a word of its title in another language's index, and by an
 * author; each result shows the title, the authors, the volume and a snippet, and links to the
 * landing page. `search: false` publishes neither the index nor a box. A build after an edit that
 * touches no searched field takes the previous index instead of running Pagefind.
 */
import { execFile } from 'node:child_process';
import { chmod, readFile, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { CHROMIUM, haveChromium, launchChromium } from './helpers/chromium.ts';
import { createPreviewServer, type PreviewServer } from '../scripts/preview/server.ts';
import { createWorkspace, runCli, type Workspace } from './helpers/workspace.ts';
import { age, expectSameAsCold, readTree } from './helpers/incremental.ts';
import { pagefindChildren } from './helpers/pagefind-processes.ts';
import { apacheServer } from './servers/apache.ts';
import { caddyServer } from './servers/caddy.ts';
import { nginxServer } from './servers/nginx.ts';
import { makeReadable } from './servers/site.ts';
import type { RunningServer } from './servers/server.ts';
import { build } from '../scripts/generator/build.ts';

const run = promisify(execFile);

/** Builds with the cache, and says how many manuscripts Pagefind indexed (the `search` stage), or false when it did not run. */
async function buildIndexed(ws: Workspace): Promise<number | false> {
  let indexed: number | false = false;
  const result = await build(ws.paths, 'build', {
    progress: {
      stage: (name, total) => {
        if (name === 'search') indexed = total;
        return { advance: () => {}, done: () => {} };
      },
    },
  });
  expect(result.problems).toEqual([]);
  return indexed;
}

/** Builds with the cache, and says whether Pagefind ran (the `search` stage): not when the previous index is taken. */
const buildIndexing = async (ws: Workspace): Promise<boolean> => (await buildIndexed(ws)) !== false;

/**
 * Runs `work` with the index cut into shards of one manuscript each (the real size is thousands):
 * the fixture's orchids (id 3, in Macedonian) make the first shard, the salamanders (7) the second,
 * the beetles (12) the third.
 */
async function inShardsOfOne<T>(work: () => Promise<T>): Promise<T> {
  process.env['JOURNAL_SEARCH_SHARD_SIZE'] = '1';
  try {
    return await work();
  } finally {
    delete process.env['JOURNAL_SEARCH_SHARD_SIZE'];
  }
}

// Skipped with the reason where Chromium is missing; under CI, which installs it, that is a failure.
const skipBrowser = !haveChromium && !process.env['CI'];
if (skipBrowser) console.warn(`${CHROMIUM} is not installed (Debian chromium): the search browser tests are skipped`);

interface ShownResult {
  href: string | null;
  title: string;
  meta: string;
  snippet: string;
  marked: string[];
}

describe('the search index', () => {
  let workspace: Workspace;

  beforeAll(async () => {
    workspace = await age(await createWorkspace());
    const result = await workspace.build();
    expect(result.problems).toEqual([]);
  });

  afterAll(() => workspace?.dispose());

  it("is written under dist/pagefind/, a bundle of Pagefind's for each of the manuscripts' languages", async () => {
    const folder = path.join(workspace.paths.out, 'pagefind');
    // The salamanders and the beetles take the journal's language, English; the orchids are in Macedonian.
    expect(JSON.parse(await readFile(path.join(folder, 'languages.json'), 'utf8'))).toEqual(['en', 'mk']);
    for (const [language, count] of [
      ['en', 2],
      ['mk', 1],
    ] as const) {
      const entry = JSON.parse(await readFile(path.join(folder, language, 'pagefind-entry.json'), 'utf8'));
      expect(entry.version).toBe('1.6.0');
      expect(Object.keys(entry.languages)).toEqual([language]);
      expect(entry.languages[language].page_count).toBe(count);
      const files = await readdir(path.join(folder, language));
      expect(files).toContain('pagefind.js');
      expect(files).toContain('pagefind-worker.js');
      expect(files).not.toContain('pagefind-ui.js');
    }
  });

  it('puts the search box on the home page, and one that asks the home page in the header of the others', async () => {
    const home = await readFile(path.join(workspace.paths.out, 'index.html'), 'utf8');
    expect(home).toContain('<form class="search" id="search" role="search" action="/">');
    const landing = await readFile(path.join(workspace.paths.out, 'manuscripts/7.html'), 'utf8');
    expect(landing).toMatch(/<header>.*<form class="search" role="search" action="\/">/);
  });

  it('takes the previous index when nothing changed, or no searched field, and makes it again when one did', async () => {
    const before = await readTree(path.join(workspace.paths.out, 'pagefind'));
    expect(await buildIndexing(workspace)).toBe(false);
    // A field the search does not read: the index is the previous one, and Pagefind does not run.
    const orchids = path.join(workspace.paths.content, 'manuscripts/orchids.yaml');
    await workspace.write(
      'manuscripts/orchids.yaml',
      (await readFile(orchids, 'utf8')).replace('udc: 582.594', 'udc: 582.595'),
    );
    expect(await buildIndexing(workspace)).toBe(false);
    expect(await readTree(path.join(workspace.paths.out, 'pagefind'))).toEqual(before);
    // A word of an abstract: indexed again, and the same as a cold build's.
    await workspace.write(
      'manuscripts/orchids.yaml',
      (await readFile(orchids, 'utf8')).replace('A checklist of', 'A new checklist of'),
    );
    expect(await buildIndexing(workspace)).toBe(true);
    expect(await readTree(path.join(workspace.paths.out, 'pagefind'))).not.toEqual(before);
    await expectSameAsCold(workspace);
  });

  it('makes the index again when its files in dist/ were changed by hand', async () => {
    const entry = path.join(workspace.paths.out, 'pagefind/mk/pagefind-entry.json');
    const bytes = await readFile(entry);
    await rm(entry);
    expect(await buildIndexing(workspace)).toBe(true);
    expect(await readFile(entry)).toEqual(bytes);
  });
});

/** Each file under `folder`, relative path → its inode and mtime: a file written again has another inode. */
async function stampsUnder(folder: string): Promise<Map<string, string>> {
  const stamps = new Map<string, string>();
  for (const file of (await readTree(folder)).keys()) {
    const { ino, mtimeMs } = await stat(path.join(folder, file));
    stamps.set(file, `${ino} ${mtimeMs}`);
  }
  return stamps;
}

// At 100,000 imported manuscripts the index is about 103,000 files and 250 MB: read, set aside and
// written again by every build, it was work done twice where nothing it indexes changed.
describe('a build where nothing the search indexes changed', () => {
  let ws: Workspace;
  let folder: string;
  beforeAll(async () => {
    ws = await age(await createWorkspace());
    folder = path.join(ws.paths.out, 'pagefind');
    expect(await buildIndexing(ws)).toBe(true);
  });
  afterAll(() => ws?.dispose());

  it("keeps the index's files in place, as the write stage keeps any file whose key did not change", async () => {
    const before = await stampsUnder(folder);
    expect(before.size).toBeGreaterThan(10);
    expect(await buildIndexing(ws)).toBe(false);
    expect(await stampsUnder(folder)).toEqual(before);
  });

  it.runIf(process.platform === 'linux')(
    'reads none of their bytes: a file still with its stamp is trusted, as the write stage trusts it',
    async () => {
      // Other bytes of the same length in the same file, its mtime put back: only a build that reads
      // the file can tell.
      const entry = path.join(folder, 'mk/pagefind-entry.json');
      const reference = `${entry}.times`;
      const bytes = await readFile(entry);
      await run('touch', ['-r', entry, reference]);
      const forged = Buffer.from(bytes.toString('latin1').replace('"mk"', '"xx"'), 'latin1');
      expect(forged.equals(bytes)).toBe(false);
      await writeFile(entry, forged);
      await run('touch', ['-r', reference, entry]);
      await rm(reference);
      const before = await stampsUnder(folder);
      try {
        expect(await buildIndexing(ws)).toBe(false);
        expect(await stampsUnder(folder)).toEqual(before);
        expect(await readFile(entry)).toEqual(forged);
      } finally {
        await rm(entry);
      }
    },
  );

  it('writes again a file changed or removed in dist/, and gives what a cold build gives', async () => {
    await buildIndexing(ws);
    // The same bytes, touched: the file is read, found as it was, and written again, Pagefind not run.
    const worker = path.join(folder, 'en/pagefind-worker.js');
    const workerBytes = await readFile(worker);
    const { ino } = await stat(worker);
    await writeFile(worker, workerBytes);
    await utimes(worker, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    expect(await buildIndexing(ws)).toBe(false);
    expect(await readFile(worker)).toEqual(workerBytes);
    expect((await stat(worker)).ino).not.toBe(ino);
    // Other bytes in one file, another removed: the index is made again.
    const entry = path.join(folder, 'en/pagefind-entry.json');
    const entryBytes = await readFile(entry);
    await writeFile(entry, '{}');
    await rm(path.join(folder, 'languages.json'));
    expect(await buildIndexing(ws)).toBe(true);
    expect(await readFile(entry)).toEqual(entryBytes);
    await expectSameAsCold(ws);
  });
});

describe('an index in shards', () => {
  it("writes each shard's bundles, the first at pagefind/, and lists them all in languages.json", async () => {
    const ws = await age(await createWorkspace());
    try {
      await inShardsOfOne(async () => {
        expect(await buildIndexed(ws)).toBe(3);
        const folder = path.join(ws.paths.out, 'pagefind');
        expect(JSON.parse(await readFile(path.join(folder, 'languages.json'), 'utf8'))).toEqual([
          'mk',
          'shards/1/en',
          'shards/2/en',
        ]);
        for (const bundle of ['mk', 'shards/1/en', 'shards/2/en']) {
          const entry = JSON.parse(await readFile(path.join(folder, bundle, 'pagefind-entry.json'), 'utf8'));
          expect(
            Object.values(entry.languages).map((language) => (language as { page_count: number }).page_count),
          ).toEqual([1]);
        }
      });
    } finally {
      await ws.dispose();
    }
  });

  it.runIf(process.platform === 'linux')(
    'leaves no Pagefind process behind, running or exited and not reaped, once a build returns',
    async () => {
      const ws = await age(await createWorkspace());
      try {
        // Three shards: three service processes, one after another.
        await inShardsOfOne(async () => expect(await buildIndexed(ws)).toBe(3));
        expect(await pagefindChildren()).toEqual([]);
      } finally {
        await ws.dispose();
      }
    },
  );

  it('indexes again only the shard of a manuscript whose title changed, and gives what a cold build gives', async () => {
    const ws = await age(await createWorkspace());
    try {
      await inShardsOfOne(async () => {
        expect(await buildIndexed(ws)).toBe(3);
        const folder = path.join(ws.paths.out, 'pagefind');
        const before = await readTree(folder);
        const salamanders = path.join(ws.paths.content, 'manuscripts/salamanders.yaml');
        const text = await readFile(salamanders, 'utf8');
        expect(text).toContain('salamander');
        await ws.write('manuscripts/salamanders.yaml', text.replace(/salamander/, 'salamandra'));
        // One manuscript indexed: the second shard's; the first's and the third's files are as they were.
        expect(await buildIndexed(ws)).toBe(1);
        const after = await readTree(folder);
        const changed = [...new Set([...before.keys(), ...after.keys()])].filter(
          (file) => !before.get(file)?.equals(after.get(file) ?? Buffer.alloc(0)),
        );
        expect(changed.length).toBeGreaterThan(0);
        expect(changed.filter((file) => !file.startsWith('shards/1/'))).toEqual([]);
        await expectSameAsCold(ws);
      });
    } finally {
      await ws.dispose();
    }
  });
});

describe('a Pagefind program that cannot start', () => {
  it('stops the build with one sentence and exit 1, and the previous site stays', async () => {
    const ws = await createWorkspace();
    try {
      expect((await ws.build()).problems).toEqual([]);
      const before = await readFile(path.join(ws.paths.out, 'api/manuscripts/index.json'));
      // Pagefind takes its program from this variable before its own package's copy.
      const failed = await runCli(ws.root, ['build', '--no-cache'], {
        env: { PAGEFIND_EXTENDED_BINARY_PATH: path.join(ws.root, 'no-such-pagefind') },
      });
      expect(failed.code, failed.stderr).toBe(1);
      expect(failed.stderr).not.toMatch(/\n\s+at /);
      expect(failed.stderr).toMatch(/Pagefind/);
      expect(failed.stderr).toMatch(/search: false/);
      expect(failed.stderr.trim().split('\n')).toHaveLength(1);
      expect(await readFile(path.join(ws.paths.out, 'api/manuscripts/index.json'))).toEqual(before);
    } finally {
      await ws.dispose();
    }
  });
});

describe('search: false in journal.yaml', () => {
  it('publishes no index and no search box', async () => {
    const ws = await createWorkspace();
    try {
      const journal = await readFile(path.join(ws.paths.content, 'journal.yaml'), 'utf8');
      await ws.write('journal.yaml', `${journal}search: false\n`);
      expect((await ws.build()).problems).toEqual([]);
      expect(existsSync(path.join(ws.paths.out, 'pagefind'))).toBe(false);
      for (const page of ['index.html', 'manuscripts/7.html', 'volumes/1.html', '404.html'])
        expect(await readFile(path.join(ws.paths.out, page), 'utf8'), page).not.toMatch(/role="search"|pagefind/);
    } finally {
      await ws.dispose();
    }
  });
});

describe.skipIf(skipBrowser)('searching in a browser', () => {
  let workspace: Workspace;
  let preview: PreviewServer;
  let sharded: Workspace;
  let shardedPreview: PreviewServer;
  const running = new Map<string, RunningServer>();
  let browser: Browser;
  const origins: Record<string, string> = {};

  beforeAll(async () => {
    if (!haveChromium) throw new Error(`${CHROMIUM} is missing: CI installs Debian's chromium (.ci/run)`);
    workspace = await createWorkspace();
    expect((await workspace.build()).problems).toEqual([]);
    preview = createPreviewServer({ root: workspace.paths.out });
    origins['the preview'] = `http://127.0.0.1:${(await preview.listen(0, '127.0.0.1')).port}`;
    sharded = await createWorkspace();
    expect((await inShardsOfOne(() => sharded.build())).problems).toEqual([]);
    shardedPreview = createPreviewServer({ root: sharded.paths.out });
    origins['in shards'] = `http://127.0.0.1:${(await shardedPreview.listen(0, '127.0.0.1')).port}`;
    // The servers' workers run as another user: the built site must be readable to them.
    await chmod(workspace.root, 0o755);
    await makeReadable(workspace.paths.out);
    const site = {
      dist: workspace.paths.out,
      scratch: (name: string) => path.join(workspace.root, name),
      dispose: async () => {},
    };
    for (const server of [nginxServer(process.env), caddyServer(process.env), apacheServer(process.env, 'vhost')]) {
      const unavailable = server.unavailable();
      if (unavailable && process.env['CI']) throw new Error(unavailable);
      if (unavailable) continue;
      const started = await server.start(site);
      running.set(server.host, started);
      origins[server.host] = started.origin;
    }
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    for (const server of running.values()) await server.stop();
    await preview?.close();
    await shardedPreview?.close();
    await workspace?.dispose();
    await sharded?.dispose();
  });

  /** Types `words` into the home page's box and reads the results as shown. */
  async function search(origin: string, words: string): Promise<{ results: ShownResult[]; warnings: string[] }> {
    const page = await browser.newPage();
    const warnings: string[] = [];
    // Pagefind's warnings (a file served with the wrong type, a worker that failed) and any file
    // the search could not load; the favicon, which the site has none of, aside.
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    page.on('response', (response) => {
      if (response.status() >= 400 && !response.url().endsWith('/favicon.ico'))
        warnings.push(`${response.status()} ${response.url()}`);
    });
    page.on('pageerror', (error) => warnings.push(error.message));
    try {
      await page.goto(`${origin}/`, { waitUntil: 'load' });
      await page.fill('#search input[name=q]', words);
      await page.locator('#search-status').filter({ hasText: /found/ }).waitFor({ timeout: 15_000 });
      const results = await page.locator('#search-results li').evaluateAll((items) =>
        items.map((li) => ({
          href: li.querySelector('a')?.getAttribute('href') ?? null,
          title: li.querySelector('a')?.textContent ?? '',
          meta: li.querySelector('.meta')?.textContent ?? '',
          snippet: li.querySelector('p')?.textContent ?? '',
          marked: [...li.querySelectorAll('mark')].map((mark) => mark.textContent ?? ''),
        })),
      );
      return { results, warnings };
    } finally {
      await page.close();
    }
  }

  describe.each(['the preview', 'nginx', 'caddy', 'apache'])('served by %s', (server) => {
    const origin = () => origins[server] ?? '';

    it('finds a manuscript by a Cyrillic word of its abstract, with its title, authors, volume and a snippet', async ({
      skip,
    }) => {
      if (!origins[server]) skip();
      const { results, warnings } = await search(origin(), 'Пакошево');
      expect(results).toEqual([
        {
          href: '/manuscripts/7',
          title: 'Distribution of the fire salamander in the Jakupica mountains',
          meta: 'Ана Петровска, Jane Doe · Volume I (2021)',
          snippet: expect.stringContaining('from the village “Пакошево” – at 12 °C.'),
          marked: ['“Пакошево”'],
        },
      ]);
      expect(warnings).toEqual([]);
    });

    it("finds a manuscript in Macedonian by an English word of its keywords, from the other language's index", async ({
      skip,
    }) => {
      if (!origins[server]) skip();
      const { results, warnings } = await search(origin(), 'checklist');
      // First: Pagefind also ranks, far below, other pages with a short word close to the one asked.
      expect([results[0]!.href, results[0]!.title, results[0]!.meta]).toEqual([
        '/manuscripts/3',
        'Orchids of Galičica',
        'Marko Nikolov · Volume II (2022)',
      ]);
      expect(results[0]!.marked).toContain('checklist');
      expect(warnings).toEqual([]);
    });

    it('finds every manuscript of an author, and a result leads to its landing page', async ({ skip }) => {
      if (!origins[server]) skip();
      const { results } = await search(origin(), 'Nikolov');
      expect(results.map((r) => r.href).sort()).toEqual(['/manuscripts/12', '/manuscripts/3']);
      const page = await browser.newPage();
      try {
        await page.goto(`${origin()}/?q=Nikolov`, { waitUntil: 'load' });
        await page.locator('#search-results a[href="/manuscripts/3"]').click();
        await page.waitForURL(`${origin()}/manuscripts/3`);
        expect(await page.locator('h1').textContent()).toBe('Orchids of Galičica');
        // The header's box asks the home page, which searches at once.
        await page.fill('header input[name=q]', 'Пакошево');
        await page.press('header input[name=q]', 'Enter');
        await page.locator('#search-results a[href="/manuscripts/7"]').waitFor({ timeout: 15_000 });
      } finally {
        await page.close();
      }
    });
  });

  it('finds a manuscript of each shard of an index in shards, merged by the search box', async () => {
    // The orchids are the first shard, the salamanders the second, the beetles the third (inShardsOfOne).
    for (const [words, found] of [
      ['Пакошево', ['/manuscripts/7']],
      ['Nikolov', ['/manuscripts/12', '/manuscripts/3']],
    ] as const) {
      const { results, warnings } = await search(origins['in shards']!, words);
      expect(results.map((r) => r.href).sort(), words).toEqual(found);
      expect(warnings).toEqual([]);
    }
    const { results } = await search(origins['in shards']!, 'checklist');
    expect(results[0]!.href).toBe('/manuscripts/3');
  });

  it.for(['nginx', 'caddy', 'apache'])(
    "serves the index's files as they are from %s, the scripts as JavaScript",
    async (host, { skip }) => {
      const server = running.get(host);
      if (!server) return skip();
      const files = (await readdir(path.join(workspace.paths.out, 'pagefind'), { recursive: true })).filter((file) =>
        /\.[a-z_]+$/.test(file),
      );
      for (const file of files) {
        const response = await fetch(`${server.origin}/pagefind/${file}`);
        expect(response.status, file).toBe(200);
        // A browser runs the module and the worker only as JavaScript; Pagefind reads the rest as bytes.
        if (file.endsWith('.js'))
          expect(response.headers.get('content-type'), file).toMatch(/^(text|application)\/javascript\b/);
        expect(
          Buffer.from(await response.arrayBuffer()).equals(
            await readFile(path.join(workspace.paths.out, 'pagefind', file)),
          ),
          file,
        ).toBe(true);
      }
    },
  );
});
