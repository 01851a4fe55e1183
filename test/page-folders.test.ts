/**
 * A folder of the output named as a page (`volumes/5/` beside `volumes/5.html`) is refused: on a real
 * server the page's address would answer with a redirect to the folder.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openLiveBuild } from '../scripts/generator/live-build.ts';
import { createWorkspace } from './helpers/workspace.ts';
import { findFolderClashes } from '../scripts/generator/stages/page-folders.ts';

const file = (path: string) => ({ path, body: '' });

describe('a folder named as a page', () => {
  it('is reported at the page and at the source that writes into the folder', () => {
    const problems = findFolderClashes([
      { source: 'the HTML pages', outputs: [file('index.html'), file('volumes/4.html'), file('volumes/5.html')] },
      { source: 'public/volumes/5/errata.txt', outputs: [file('volumes/5/errata.txt')] },
    ]);
    expect(problems.map((p) => [p.file, p.code])).toEqual([
      ['the HTML pages', 'output/conflict'],
      ['public/volumes/5/errata.txt', 'output/conflict'],
    ]);
    expect(problems[0]!.message).toContain('volumes/5.html, read at /volumes/5');
    expect(problems[0]!.message).toContain('redirect');
  });

  it('is found for a folder deeper down, and not for pages beside folders of other names', () => {
    expect(
      findFolderClashes([
        { source: 'the HTML pages', outputs: [file('a/b.html'), file('a/bc/x.json'), file('volumes.json')] },
        { source: 'public/volumes/x/y/z.txt', outputs: [file('volumes/x/y/z.txt')] },
      ]),
    ).toEqual([]);
    const deep = findFolderClashes([
      { source: 'the HTML pages', outputs: [file('a/b.html')] },
      { source: 'public/a/b/c/d.txt', outputs: [file('a/b/c/d.txt')] },
    ]);
    expect(deep.map((p) => p.file)).toEqual(['the HTML pages', 'public/a/b/c/d.txt']);
  });

  it('is reported, as a file at the path of a folder, at both sources', () => {
    const problems = findFolderClashes([
      { source: 'the feed', outputs: [file('feed.xml')] },
      { source: 'public/feed.xml/notes.txt', outputs: [file('feed.xml/notes.txt')] },
    ]);
    expect(problems.map((p) => [p.file, p.code])).toEqual([
      ['the feed', 'output/conflict'],
      ['public/feed.xml/notes.txt', 'output/conflict'],
    ]);
    expect(problems[0]!.message).toContain('the file feed.xml');
    expect(problems[0]!.message).toContain('feed.xml/notes.txt');
    expect(problems[1]!.message).toContain('the file feed.xml');
  });

  it("passes over the pages served at a folder's own address", () => {
    expect(
      findFolderClashes([
        { source: 'the API lists', outputs: [file('api/authors/index.json'), file('api/authors/index.html')] },
        { source: 'the HTML pages', outputs: [file('index.html')] },
      ]),
    ).toEqual([]);
  });
});

describe('a folder of public/ named as a volume page', () => {
  it('stops the build and dev, and leaves dist/ as it was', async () => {
    const workspace = await createWorkspace();
    try {
      expect((await workspace.build()).ok).toBe(true);
      const before = await readFile(path.join(workspace.paths.out, 'volumes/1.html'));
      await mkdir(path.join(workspace.paths.public, 'volumes/1'), { recursive: true });
      await writeFile(path.join(workspace.paths.public, 'volumes/1/errata.txt'), 'errata\n');
      const result = await workspace.build();
      expect(result.ok).toBe(false);
      expect(result.problems.map((p) => p.file)).toEqual(['the HTML pages', 'public/volumes/1/errata.txt']);
      expect(await readFile(path.join(workspace.paths.out, 'volumes/1.html'))).toEqual(before);
      const live = await openLiveBuild(workspace.paths);
      expect(live.site.ok).toBe(false);
    } finally {
      await workspace.dispose();
    }
  });

  it('at the path of a file the build writes stops the build with both paths, not a failed write', async () => {
    const workspace = await createWorkspace();
    try {
      await mkdir(path.join(workspace.paths.public, 'feed.xml'), { recursive: true });
      await writeFile(path.join(workspace.paths.public, 'feed.xml/notes.txt'), 'notes\n');
      const result = await workspace.build();
      expect(result.ok).toBe(false);
      expect(result.problems.map((p) => [p.file, p.code])).toEqual([
        ['the feed', 'output/conflict'],
        ['public/feed.xml/notes.txt', 'output/conflict'],
      ]);
      expect(result.problems[1]!.message).toContain('feed.xml/notes.txt into the folder feed.xml/');
    } finally {
      await workspace.dispose();
    }
  });
});
