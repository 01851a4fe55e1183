/**
 * The preview's copy of Cloudflare Pages' HTML handling (docs/indexing.md), on a folder
 * shaped like every case it decides; the shared HTTP suite checks the built sample over HTTP, and
 * `wrangler pages dev` is the reference it copies (test/servers/wrangler.test.ts, same suite).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { htmlHandling } from '../../scripts/preview/server.ts';

let parent: string;
let root: string;
beforeAll(async () => {
  parent = await mkdtemp(path.join(os.tmpdir(), 'preview-html-'));
  root = path.join(parent, 'dist');
  for (const file of [
    'index.html',
    'manuscripts/7.html',
    'guide/index.html',
    'api/authors/index.json',
    'media/a.pdf',
  ]) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), 'x');
  }
  // Beside the output folder, never inside it.
  await writeFile(path.join(parent, 'secret.html'), 'x');
});
afterAll(() => rm(parent, { recursive: true, force: true }));

describe('htmlHandling', () => {
  it("answers a page's URL with its .html file", () => {
    expect(htmlHandling(root, '/manuscripts/7')).toEqual({ path: '/manuscripts/7.html' });
  });

  it('moves the .html and slash spellings to the URL with 308, as Cloudflare Pages does', () => {
    expect(htmlHandling(root, '/manuscripts/7.html')).toEqual({ path: '/manuscripts/7', status: 308 });
    expect(htmlHandling(root, '/manuscripts/7/')).toEqual({ path: '/manuscripts/7', status: 308 });
  });

  it("keeps a folder's index.html at its slash path, and moves the other spellings there", () => {
    expect(htmlHandling(root, '/')).toBeUndefined();
    expect(htmlHandling(root, '/guide/')).toBeUndefined();
    expect(htmlHandling(root, '/index.html')).toEqual({ path: '/', status: 308 });
    expect(htmlHandling(root, '/guide/index.html')).toEqual({ path: '/guide/', status: 308 });
    expect(htmlHandling(root, '/guide')).toEqual({ path: '/guide/', status: 308 });
  });

  it('leaves other files, and paths that name nothing, to the server (which answers 404)', () => {
    for (const pathname of [
      '/api/authors/index.json',
      '/media/a.pdf',
      '/manuscripts/8',
      '/manuscripts/8.html',
      '/manuscripts/8/',
      '/manuscripts/%E0%A4%A',
    ]) {
      expect(htmlHandling(root, pathname), pathname).toBeUndefined();
    }
  });

  it('never looks outside the output folder', () => {
    expect(htmlHandling(root, '/..%2Fsecret.html')).toBeUndefined();
    expect(htmlHandling(root, '/%2E%2E/secret')).toBeUndefined();
  });
});
