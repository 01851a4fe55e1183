/**
 * What a deploy relies on: the same content gives the same bytes, and a failed build never
 * damages the output that is already there.
 */
import { cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { generateSyntheticJournal } from '../scripts/bench/synthetic-journal.ts';
import { outputDifferences, readTree } from './helpers/incremental.ts';
import { snapshot } from './helpers/snapshot.ts';
import { createWorkspace, REPO_ROOT, runCli, VALID_JOURNAL, type Workspace } from './helpers/workspace.ts';

/** Every folder under `dir`, relative, sorted. */
async function foldersUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

let workspace: Workspace | undefined;
afterEach(async () => {
  await workspace?.dispose();
  workspace = undefined;
});

describe('determinism', () => {
  /**
   * Two checkouts of one journal at paths of different lengths, each built cold by the real command
   * line (`--no-cache` into an empty out folder: nothing reused) in a process of its own, with a
   * different time zone, locale and umask. Compared: the same files and folders, and every file's
   * bytes. Not compared: modes and times, which the umask and the clock decide.
   */
  const environments = [
    { umask: '022', env: { TZ: 'UTC', LANG: 'C', LC_ALL: 'C', LANGUAGE: '' } },
    {
      umask: '077',
      env: { TZ: 'Pacific/Kiritimati', LANG: 'tr_TR.UTF-8', LC_ALL: 'tr_TR.UTF-8', LANGUAGE: 'tr' },
    },
  ];

  async function coldBuildsAgree(content: string, publicDir: string) {
    const base = await mkdtemp(path.join(os.tmpdir(), 'journal-determinism-'));
    try {
      const checkouts = [
        path.join(base, 'a'),
        path.join(base, 'a-checkout-with-a-much-longer-name', 'of', 'the-journal'),
      ];
      const outputs = await Promise.all(
        checkouts.map(async (checkout, i) => {
          await cp(content, path.join(checkout, 'content'), { recursive: true });
          await cp(publicDir, path.join(checkout, 'public'), { recursive: true });
          const out = path.join(checkout, 'site');
          const { code, stderr } = await runCli(
            checkout,
            ['build', '--content', path.join(checkout, 'content'), '--out', out, '--no-cache'],
            environments[i],
          );
          expect(stderr).toBe('');
          expect(code).toBe(0);
          return { files: await readTree(out), folders: await foldersUnder(out) };
        }),
      );
      const [first, second] = outputs as [(typeof outputs)[0], (typeof outputs)[0]];
      expect(second.folders).toEqual(first.folders);
      expect(outputDifferences(second.files, first.files)).toEqual([]);
      return first.files;
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  }

  it('two cold builds in other checkouts, time zones, locales and umasks give byte-identical output', async () => {
    const files = await coldBuildsAgree(VALID_JOURNAL, path.join(REPO_ROOT, 'public'));
    expect([...files.keys()]).toContain('api/manuscripts/index.json.gz');
    expect([...files.keys()]).toContain('api/manuscripts/index.json.br');
  });

  it(
    'and so do two of a journal large enough for load threads and lists of several chunks',
    { timeout: 180_000 },
    async () => {
      const generated = await mkdtemp(path.join(os.tmpdir(), 'journal-determinism-source-'));
      try {
        // 1,500 content files and more are loaded on worker threads (engine/load/workers.ts); the
        // lists are rendered 256 records a chunk (render/api.ts).
        await generateSyntheticJournal(generated, { manuscripts: 620, seed: 1729 });
        const files = await coldBuildsAgree(path.join(generated, 'content'), path.join(generated, 'public'));
        expect(files.size).toBeGreaterThan(1250);
      } finally {
        await rm(generated, { recursive: true, force: true });
      }
    },
  );

  it('the precompressed twins decode to exactly the JSON', async () => {
    workspace = await createWorkspace();
    await workspace.build();
    for (const list of ['authors', 'volumes', 'manuscripts']) {
      const file = path.join(workspace.paths.out, 'api', list, 'index.json');
      const json = await readFile(file);
      expect(zlib.gunzipSync(await readFile(`${file}.gz`)).equals(json)).toBe(true);
      expect(zlib.brotliDecompressSync(await readFile(`${file}.br`)).equals(json)).toBe(true);
    }
  });
});

describe('atomicity', () => {
  it('a failing build leaves the previous output exactly as it was, and leaves no staging folder', async () => {
    workspace = await createWorkspace();
    await workspace.build();
    const before = await snapshot(workspace.paths.out);
    await workspace.write('manuscripts/broken.yaml', 'id: 99\n');
    const { code, stderr } = await workspace.cli('build');
    expect(code).toBe(1);
    expect(stderr).toContain('Nothing was written; dist/ is unchanged.');
    expect(await snapshot(workspace.paths.out)).toEqual(before);
    expect((await readdir(workspace.root)).filter((name) => name.includes('staging'))).toEqual([]);
  });

  it('a public file that claims a generated path is refused, and the old output stays', async () => {
    workspace = await createWorkspace();
    await workspace.build();
    const before = await snapshot(workspace.paths.out);
    await writeFile(path.join(workspace.root, 'public', '_headers'), '# hand-written\n');
    const result = await workspace.build();
    expect(result.ok).toBe(false);
    expect(result.problems.map((p) => `${p.code} ${p.file}`)).toEqual(['output/conflict public/_headers']);
    expect(await snapshot(workspace.paths.out)).toEqual(before);
    // The lists had begun (write.ts, startSite): the abandoned write leaves nothing behind.
    expect((await readdir(workspace.root)).filter((name) => name.startsWith('.dist-'))).toEqual([]);
  });

  for (const [problem, code, file] of [
    ['a PDF gone', 'media/missing', 'media/pdfs/orchids.pdf'],
    ['an author gone that manuscripts name', 'ref/unknown-author', 'authors/jane-doe.json'],
  ] as const) {
    it(`a problem found once the lists are being written (${problem}) leaves the output as it was, and nothing beside it`, async () => {
      workspace = await createWorkspace();
      await workspace.build();
      const before = await snapshot(workspace.paths.out);
      const edited = path.join(workspace.paths.content, 'manuscripts/salamanders.yaml');
      await writeFile(
        edited,
        (await readFile(edited, 'utf8')).replace(/^citation_title: .*$/m, 'citation_title: Fire salamanders revisited'),
      );
      await workspace.remove(file);
      const result = await workspace.build();
      expect(result.ok).toBe(false);
      expect(result.problems.map((p) => p.code)).toContain(code);
      expect(await snapshot(workspace.paths.out)).toEqual(before);
      expect((await readdir(workspace.root)).filter((name) => name.startsWith('.dist-'))).toEqual([]);
    });
  }

  it('a successful rebuild replaces the output whole: a removed record disappears from it', async () => {
    workspace = await createWorkspace();
    await workspace.build();
    await workspace.remove('manuscripts/beetles.json');
    await workspace.build();
    const list = JSON.parse(await readFile(path.join(workspace.paths.out, 'api/manuscripts/index.json'), 'utf8')) as {
      id: number;
    }[];
    expect(list.map((m) => m.id)).toEqual([3, 7]);
    await expect(readFile(path.join(workspace.paths.out, 'media/pdfs/beetles.pdf'))).rejects.toThrow();
  });
});

describe('the command line', () => {
  it('check validates without writing anything', async () => {
    workspace = await createWorkspace();
    const { code, stdout } = await workspace.cli('check');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Checked 3 authors, 2 volumes, 3 manuscripts, 5 PDFs: no problems/);
    await expect(readdir(workspace.paths.out)).rejects.toThrow();
  });

  it('an unknown command is a usage error with exit code 2', async () => {
    workspace = await createWorkspace();
    const { code, stderr } = await workspace.cli('publish');
    expect(code).toBe(2);
    expect(stderr).toContain('unknown command "publish"');
    expect(stderr).toContain('Usage:');
  });

  it('--help alone prints the usage and succeeds', async () => {
    workspace = await createWorkspace();
    const { code, stdout } = await workspace.cli('--help');
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: npm run <command>');
  });
});
