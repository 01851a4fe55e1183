/**
 * What the pages link to besides pages: each landing page's citation files, and the feed named in
 * every page's head. Read as a browser's DOM (jsdom), against the files the build wrote.
 */
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, type Workspace } from './helpers/workspace.ts';

describe('links from the pages of the fixture journal, as built', () => {
  let workspace: Workspace;
  const documentOf = async (file: string) =>
    new JSDOM(await readFile(path.join(workspace.paths.out, file), 'utf8')).window.document;
  beforeAll(async () => {
    workspace = await createWorkspace();
    expect((await workspace.build()).problems).toEqual([]);
  });
  afterAll(() => workspace.dispose());

  it("offers each manuscript's citation files for download, with their media types, and each one exists", async () => {
    for (const id of [3, 7, 12]) {
      const document = await documentOf(`manuscripts/${id}.html`);
      const cite = document.querySelector('article p.cite');
      expect(cite?.textContent).toBe('Cite: BibTeX · RIS · CSL-JSON');
      const links = [...cite!.querySelectorAll('a')].map((a) => ({
        href: a.getAttribute('href'),
        type: a.getAttribute('type'),
        download: a.hasAttribute('download'),
      }));
      expect(links).toEqual([
        { href: `/citations/${id}.bib`, type: 'application/x-bibtex', download: true },
        { href: `/citations/${id}.ris`, type: 'application/x-research-info-systems', download: true },
        { href: `/citations/${id}.json`, type: 'application/vnd.citationstyles.csl+json', download: true },
      ]);
      for (const { href } of links) await expect(readFile(path.join(workspace.paths.out, href!))).resolves.toBeTruthy();
    }
  });

  it("gives the 404 page the journal's name and a link home", async () => {
    const document = await documentOf('404.html');
    expect(document.title).toBe('Page not found | Bulletin of the Test Society');
    expect(document.querySelector('header a[href="/"]')?.textContent).toBe('Bulletin of the Test Society');
    expect([...document.querySelectorAll('main a')].map((a) => a.getAttribute('href'))).toContain('/');
  });

  it('names the feed in the head of every page, by its absolute URL', async () => {
    const pages = [
      'index.html',
      ...(await readdir(path.join(workspace.paths.out, 'volumes'))).map((f) => `volumes/${f}`),
      ...(await readdir(path.join(workspace.paths.out, 'manuscripts'))).map((f) => `manuscripts/${f}`),
    ];
    expect(pages).toHaveLength(6);
    for (const page of pages) {
      const links = (await documentOf(page)).head.querySelectorAll(
        'link[rel="alternate"][type="application/atom+xml"]',
      );
      expect(links, page).toHaveLength(1);
      expect(links[0]!.getAttribute('href')).toBe('https://journal.example.org/feed.xml');
      expect(links[0]!.getAttribute('title')).toBe('Bulletin of the Test Society');
    }
    await expect(readFile(path.join(workspace.paths.out, 'feed.xml'), 'utf8')).resolves.toMatch(/^<\?xml/);
  });
});
