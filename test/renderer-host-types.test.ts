/**
 * A renderer declares how hosts serve its files (`types`, scripts/generator/model/site.ts), and every
 * host configuration is rendered from those declarations: a new output with a type of its own is one
 * renderer, registered once. The recipe of docs/architecture.md ("Adding an output"), tried here with
 * a renderer the build has never seen.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { build } from '../scripts/generator/build.ts';
import type { Renderer } from '../scripts/generator/model/site.ts';
import { renderHostFiles } from '../scripts/generator/render/host-files.ts';
import { volumeNumber } from '../scripts/generator/render/page-paths.ts';
import { RENDERERS } from '../scripts/generator/render/renderers.ts';
import { renderCaddy } from '../scripts/hosts/caddy.ts';
import { renderNginx } from '../scripts/hosts/nginx.ts';
import { CROSS_ORIGIN_HEADERS, hostRules, hostRulesFor } from '../scripts/hosts/rules.ts';
import { createWorkspace, type Workspace } from './helpers/workspace.ts';

let ws: Workspace | undefined;
afterEach(async () => {
  await ws?.dispose();
  ws = undefined;
});

/** A reading list per volume in BibTeX, a type no host gives `.bib` by itself. */
const volumeReadingLists: Renderer = {
  name: 'the reading lists',
  render: (site) =>
    site.volumes.map((volume) => ({
      path: `reading-lists/${volume.id}.bib`,
      body: () =>
        site
          .manuscriptsIn(volume)
          .map((manuscript) => `@misc{m${manuscript.id}, title = {${manuscript.citation_title}}}\n`),
    })),
  types: [
    {
      folder: '/reading-lists/',
      extension: '.bib',
      contentType: 'application/x-bibtex; charset=utf-8',
      headers: CROSS_ORIGIN_HEADERS,
    },
  ],
};

const HOST_RULES_FILES = 'the host rules';

/** The renderers with `extra` registered before the host rules files, which are made from the whole list. */
function registered(extra: Renderer): Renderer[] {
  const renderers: Renderer[] = [];
  for (const renderer of RENDERERS) {
    if (renderer.name !== HOST_RULES_FILES) renderers.push(renderer);
    else renderers.push(extra, { name: HOST_RULES_FILES, render: () => renderHostFiles(hostRulesFor(renderers)) });
  }
  return renderers;
}

describe('host type rules are declared with the outputs', () => {
  it("are the renderers' declarations, in the renderers' order", () => {
    expect(hostRules.types).toEqual(RENDERERS.flatMap((renderer) => renderer.types ?? []));
    const declaring = RENDERERS.filter((renderer) => renderer.types !== undefined).map((renderer) => renderer.name);
    expect(declaring).toEqual(['the citation files', 'the feed', 'the OpenAPI description', 'the OAI-PMH repository']);
  });

  it("serve a new renderer's files with its type on every host, from its declaration alone", async () => {
    ws = await createWorkspace();
    const result = await build(ws.paths, 'build', { renderers: registered(volumeReadingLists) });
    expect(result.problems).toEqual([]);
    const [first] = await readdir(path.join(ws.paths.out, 'reading-lists'));
    expect(await readFile(path.join(ws.paths.out, 'reading-lists', first!), 'utf8')).toMatch(
      /^@misc\{m\d+, title = \{/,
    );

    // The files the build writes for hosts that read them from the output...
    const cloudflare = await readFile(path.join(ws.paths.out, '_headers'), 'utf8');
    expect(cloudflare).toContain(
      '/reading-lists/:name.bib\n  Content-Type: application/x-bibtex; charset=utf-8\n  Access-Control-Allow-Origin: *\n',
    );
    const apache = await readFile(path.join(ws.paths.out, '.htaccess'), 'utf8');
    expect(apache).toContain('^/reading-lists/[^/]+\\.bib$');
    // ...and the configurations printed for servers.
    const rules = hostRulesFor(registered(volumeReadingLists));
    const server = { root: '/srv/journal/dist', port: 80, serverName: 'example.org' };
    expect(renderNginx(rules, server)).toContain('location ~ ^/reading-lists/[^/]+\\.bib$ {');
    expect(renderCaddy(rules, server)).toContain('path_regexp ^/reading-lists/[^/]+\\.bib$');
    // The other hosts' rules stay where they were: the new one comes after them.
    expect(rules.types.slice(0, hostRules.types.length)).toEqual(hostRules.types);
  });

  it('refuse a folder an output names as a page, with both paths in one sentence', async () => {
    ws = await createWorkspace();
    const errata: Renderer = {
      name: 'the errata',
      render: (site) =>
        site.volumes.map((volume) => ({ path: `volumes/${volumeNumber(volume)}/errata.txt`, body: 'none\n' })),
    };
    const result = await build(ws.paths, 'build', { renderers: [...RENDERERS, errata] });
    expect(result.ok).toBe(false);
    const [page, folder] = result.problems;
    expect([page?.file, folder?.file, page?.code]).toEqual(['the HTML pages', 'the errata', 'output/conflict']);
    expect(page?.message).toMatch(/the page volumes\/\d+\.html, .* writes into the folder volumes\/\d+\//);
  });

  it('refuse a folder at the path of a file, with both paths in one sentence', async () => {
    ws = await createWorkspace();
    const feedNotes: Renderer = {
      name: 'the feed notes',
      render: () => [{ path: 'feed.xml/notes.txt', body: 'none\n' }],
    };
    const result = await build(ws.paths, 'build', { renderers: [...RENDERERS, feedNotes] });
    expect(result.ok).toBe(false);
    expect(result.problems.map((problem) => [problem.file, problem.code])).toEqual([
      ['the feed', 'output/conflict'],
      ['the feed notes', 'output/conflict'],
    ]);
    expect(result.problems[0]?.message).toContain('feed.xml');
    expect(result.problems[1]?.message).toContain('feed.xml/notes.txt');
  });
});
