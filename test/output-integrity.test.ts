/**
 * What a deploy relies on: the same content gives the same bytes, and a failed build never
 * damages the output that is already there.
 */
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { snapshot } from './helpers/snapshot.ts';
import { createWorkspace, type Workspace } from './helpers/workspace.ts';

let workspace: Workspace | undefined;
afterEach(async () => {
  await workspace?.dispose();
  workspace = undefined;
});

describe('determinism', () => {
  it('two builds of the same content give byte-identical output, compressed files included', async () => {
    workspace = await createWorkspace();
    expect((await workspace.build()).ok).toBe(true);
    const first = await snapshot(workspace.paths.out);
    expect((await workspace.build()).ok).toBe(true);
    expect(await snapshot(workspace.paths.out)).toEqual(first);
    expect(Object.keys(first)).toContain('api/manuscripts/index.json.gz');
  });

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
