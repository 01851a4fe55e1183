/**
 * As a browser-based reference manager, feed reader or API explorer meets the files: a page on
 * another origin, in a real headless Chromium, fetches a manuscript's three citation files, the
 * feed and the OpenAPI description from each real server the shared suite runs (but wrangler,
 * whose Cloudflare Pages sends CORS on every file by itself), and reads them. Without
 * `Access-Control-Allow-Origin` the browser refuses the answer to the script, whatever it holds.
 */
import { readFile, readdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, haveChromium, launchChromium } from '../helpers/chromium.ts';
import { apacheServer } from './apache.ts';
import { caddyServer } from './caddy.ts';
import { TYPED_FILES } from './http-contract-routes.ts';
import { nginxServer } from './nginx.ts';
import { previewServer } from './preview.ts';
import type { RunningServer } from './server.ts';
import { buildSample, type BuiltSite } from './site.ts';

const SERVERS = [
  previewServer(),
  nginxServer(process.env),
  apacheServer(process.env, 'vhost'),
  caddyServer(process.env),
];

// Skipped with the reason where Chromium is missing; under CI, which installs it, that is a failure.
const skip = !haveChromium && !process.env['CI'];
if (skip) console.warn(`${CHROMIUM} is not installed (Debian chromium): the cross-origin browser test is skipped`);

/** What the page's script got: the answer as the browser lets it read it, or the browser's refusal. */
type Fetched = { status: number; type: string | null; text: string } | { refused: string };

describe.skipIf(skip)('a page on another origin reads the citation files, the feed and the OpenAPI description', () => {
  let site: BuiltSite;
  let browser: Browser;
  let reader: Server;
  let page: Page;
  /** The built files a reader fetches, by URL path, with their type and their bytes as text. */
  const files = new Map<string, { type: string; text: string }>();

  beforeAll(async () => {
    if (!haveChromium) throw new Error(`${CHROMIUM} is missing: CI installs Debian's chromium (.ci/run)`);
    site = await buildSample();
    const [bib] = (await readdir(path.join(site.dist, 'citations'))).filter((name) => name.endsWith('.bib')).sort();
    if (!bib) throw new Error('the built sample has no citation files');
    const id = bib.slice(0, -'.bib'.length);
    // The shared suite's typed files; the citations are the built sample's first record's (the table's are 7's).
    for (const typed of TYPED_FILES) {
      const file = typed.file.replace(/^citations\/7\./, `citations/${id}.`);
      files.set(`/${file}`, { type: typed.type, text: await readFile(path.join(site.dist, file), 'utf8') });
    }
    // The reader's own origin: a blank page on another port, which makes every server another origin.
    reader = createServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      response.end('<!doctype html><title>reader</title>');
    });
    await new Promise<void>((resolve) => reader.listen(0, '127.0.0.1', resolve));
    browser = await launchChromium();
    page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${(reader.address() as AddressInfo).port}/`);
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => (reader ? reader.close(resolve) : resolve(undefined)));
    await site?.dispose();
  });

  /** `fetch` in the page, as a reference manager's or feed reader's script calls it. */
  function fetchInPage(url: string): Promise<Fetched> {
    return page.evaluate(async (target) => {
      try {
        const response = await fetch(target);
        return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
      } catch (error) {
        return { refused: String(error) };
      }
    }, url);
  }

  describe.each(SERVERS)('$title', (server) => {
    // A server missing here is skipped with the reason; under CI, which installs them all, it fails.
    const missing = server.unavailable();
    if (missing && !process.env['CI']) console.warn(`[${server.host}] skipped: ${missing}`);
    let running: RunningServer;

    beforeAll(async () => {
      if (missing && !process.env['CI']) return;
      if (missing) throw new Error(missing);
      running = await server.start(site);
    });
    afterAll(async () => {
      await running?.stop();
    });

    it.skipIf(missing !== undefined && !process.env['CI'])('gets each file whole, with its type', async () => {
      for (const [file, { type, text }] of files) {
        const fetched = await fetchInPage(running.origin + file);
        expect(fetched, `${file}\n${running.describe()}`).toEqual({ status: 200, type, text });
      }
    });
  });
});
