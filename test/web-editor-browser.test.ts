/**
 * End to end, as an editor meets the web editor: a copy of the sample journal in a fresh git
 * repository, `npm run admin`'s editor started on it (the CMS's local backend, decap-server, and the
 * admin page), and a real headless Chromium that fills in a new manuscript and saves it. The build
 * must accept the saved file, and the file must hold what was typed. Every request that leaves the
 * machine is refused and recorded: the CMS needs nothing but our two servers.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { type Browser, type Page } from 'playwright-core';
import { CHROMIUM, haveChromium, launchChromium } from './helpers/chromium.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startLocalEditor, type LocalEditor } from '../scripts/admin/local-editor.ts';
import { loadJournal } from '../scripts/generator/stages/load.ts';
import { createWorkspace, REPO_ROOT, type Workspace } from './helpers/workspace.ts';

// Skipped with the reason where Chromium is missing; under CI, which installs it, that is a failure.
const skip = !haveChromium && !process.env['CI'];
if (skip) console.warn(`${CHROMIUM} is not installed (Debian chromium): the web editor browser test is skipped`);

const git = promisify(execFile);

/** A small valid PDF, as an editor's upload. */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

describe.skipIf(skip)('the web editor in a browser, saving through the local backend', () => {
  let workspace: Workspace;
  let editor: LocalEditor;
  let browser: Browser;
  let page: Page;

  /** A fresh tab, signed in to the local backend, at `route` of the editor (its hash part). */
  async function openEditor(route: string): Promise<Page> {
    await page?.close();
    page = await browser.newPage();
    page.setDefaultTimeout(20_000);
    await page.route('**/*', (request) => {
      const url = new URL(request.request().url());
      if (url.hostname === '127.0.0.1') return request.continue();
      external.push(url.href);
      return request.abort('blockedbyclient');
    });
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(editor.url);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.goto(`${editor.url}${route}`);
    return page;
  }
  /** Requests for any other host than the two local servers, refused. */
  const external: string[] = [];
  /** Local responses that failed (a missing chunk of the bundle would show here). */
  const failed: string[] = [];

  beforeAll(async () => {
    if (!haveChromium) throw new Error(`${CHROMIUM} is missing: CI installs Debian's chromium (.ci/run)`);
    workspace = await createWorkspace({}, path.join(REPO_ROOT, 'content'));
    const inRepo = (...args: string[]) => git('git', ['-C', workspace.root, ...args]);
    await inRepo('init', '-q', '-b', 'main');
    await inRepo('add', '-A');
    await inRepo('-c', 'user.name=Test', '-c', 'user.email=test@example.org', 'commit', '-q', '-m', 'The journal');
    const { journal, problems } = await loadJournal(
      'content/journal.yaml',
      path.join(workspace.paths.content, 'journal.yaml'),
    );
    // The sample's ISSN has a wrong check digit: a warning, which leaves the journal valid.
    expect(problems.filter((problem) => problem.severity !== 'warning')).toEqual([]);
    editor = await startLocalEditor({
      root: workspace.root,
      content: workspace.paths.content,
      journal: journal!,
      host: '127.0.0.1',
      port: 0,
      env: process.env,
    });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await editor?.close();
    await workspace?.dispose();
  });

  it('creates a manuscript through the form that the build accepts, with what was typed', async () => {
    const page = await openEditor('#/collections/manuscripts/new');

    // The form offers the next free id first (web-editor-form.test.ts); this manuscript takes another.
    const id = page.getByLabel('ID', { exact: true });
    await expect.poll(() => id.inputValue(), { timeout: 20_000 }).not.toBe('');
    await id.fill('9001');
    await chooseOption(page, 'volume', 'Volume III', 'Volume III (2021-12-20)');
    await page.getByLabel('Title', { exact: true }).fill('Ground beetles of Galichica');
    // An optional field typed in and emptied again is left out: the record takes the journal's language.
    await page.getByLabel('Language (optional)').fill('Macedonian');
    await page.getByLabel('Language (optional)').fill('');
    await page.getByLabel('Publication date').fill('2024-05-06');
    await page.getByLabel('Abstract').fill('<p>Beetles of <em>Carabus</em> on H<sub>2</sub>O-rich soils.</p>');
    await page.getByLabel('Keywords').fill('Carabidae, Galichica');
    // The relation widget shows name and surname, and saves the author's key (the file name).
    for (const [search, shown] of [
      ['Nikolovski', 'Marko Nikolovski'],
      ['Петровска', 'Ана Петровска'],
    ] as const) {
      await page.getByRole('button', { name: 'Add author' }).click();
      await chooseOption(page, 'author', search, shown);
    }
    await chooseOption(page, 'section', 'Zoology', 'Zoology');

    await page.getByRole('button', { name: 'Choose a file' }).click();
    await page
      .locator('input[type=file]')
      .setInputFiles({ name: 'galichica-beetles.pdf', mimeType: 'application/pdf', buffer: PDF });
    await page.getByRole('button', { name: 'Choose selected' }).click();

    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('menuitem', { name: 'Publish now' }).click();
    await page.getByText('Entry saved').first().waitFor();

    // Exactly the record and its PDF were written, beside nothing else.
    const { stdout } = await git('git', ['-C', workspace.root, 'status', '--porcelain', '--untracked-files=all']);
    expect(stdout.trim().split('\n').sort()).toEqual([
      '?? content/manuscripts/ground-beetles-of-galichica.yaml',
      '?? content/media/pdfs/galichica-beetles.pdf',
    ]);
    const saved = parse(
      await readFile(path.join(workspace.paths.content, 'manuscripts/ground-beetles-of-galichica.yaml'), 'utf8'),
    ) as Record<string, unknown>;
    expect(saved).toEqual({
      id: 9001,
      volume: 'volume-iii',
      citation_title: 'Ground beetles of Galichica',
      citation_date: '2024-05-06',
      abstract: '<p>Beetles of <em>Carabus</em> on H<sub>2</sub>O-rich soils.</p>',
      keywords: ['Carabidae', 'Galichica'],
      document: 'pdfs/galichica-beetles.pdf',
      authors: ['marko-nikolovski', 'ana-petrovska'],
      section: 'Zoology',
    });
    expect(await readFile(path.join(workspace.paths.content, 'media/pdfs/galichica-beetles.pdf'))).toEqual(PDF);

    const result = await workspace.build('build');
    expect(result.problems).toEqual([]);
    const list = JSON.parse(await readFile(path.join(workspace.paths.out, 'api/manuscripts/index.json'), 'utf8')) as {
      id: number;
      citation_title: string;
      authors: string[];
      keywords: string;
      document: string;
    }[];
    expect(list.find((item) => item.id === 9001)).toMatchObject({
      citation_title: 'Ground beetles of Galichica',
      authors: ['Marko Nikolovski', 'Ана Петровска'],
      keywords: 'Carabidae, Galichica.',
      document: 'https://bulletin.example.org/media/pdfs/galichica-beetles.pdf',
    });

    expect(external).toEqual([]);
    expect(failed).toEqual([]);
  });

  it('edits a record written by hand, changing only what was edited', async () => {
    // Its keywords are one string, its abstract two lines: both must survive as they were.
    const file = path.join(workspace.paths.content, 'manuscripts/blazhevska-2021-lichens-skopje.yaml');
    const before = parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    expect(typeof before['keywords']).toBe('string');

    const page = await openEditor('#/collections/manuscripts/entries/blazhevska-2021-lichens-skopje');
    const title = page.getByLabel('Title', { exact: true });
    await title.fill(`${String(before['citation_title'])} (revised)`);
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('menuitem', { name: 'Publish now' }).click();
    // The first test's notice may still show: the file itself says when this save is done.
    await expect
      .poll(async () => (parse(await readFile(file, 'utf8')) as Record<string, unknown>)['citation_title'], {
        timeout: 20_000,
      })
      .toBe(`${String(before['citation_title'])} (revised)`);

    const after = parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    expect(after).toEqual({ ...before, citation_title: `${String(before['citation_title'])} (revised)` });
    expect((await workspace.build('check')).problems).toEqual([]);
    expect(external).toEqual([]);
  });

  it("files a volume's new PDF under the year of the volume's date", async () => {
    const file = path.join(workspace.paths.content, 'volumes/volume-iii.yaml');
    const before = parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    expect(before['full_date']).toBe('2021-12-20');

    const page = await openEditor('#/collections/volumes/entries/volume-iii');
    await page.getByRole('button', { name: 'Choose different file' }).click();
    await page
      .locator('input[type=file]')
      .setInputFiles({ name: 'volume-iii-corrected.pdf', mimeType: 'application/pdf', buffer: PDF });
    await page.getByRole('button', { name: 'Choose selected' }).click();
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('menuitem', { name: 'Publish now' }).click();
    await expect
      .poll(async () => (parse(await readFile(file, 'utf8')) as Record<string, unknown>)['pdf'], { timeout: 20_000 })
      .toBe('volumes/pdfs/2021/volume-iii-corrected.pdf');

    expect(
      await readFile(path.join(workspace.paths.content, 'media/volumes/pdfs/2021/volume-iii-corrected.pdf')),
    ).toEqual(PDF);
    expect((await workspace.build('check')).problems).toEqual([]);
    expect(external).toEqual([]);
    expect(failed).toEqual([]);
  });
});

/** A relation or select widget (a searchable drop-down): type, then pick the option shown. */
async function chooseOption(page: Page, field: string, search: string, shown: string): Promise<void> {
  const input = page.locator(`[id^="${field}-field-"]`).last();
  await input.click();
  await input.fill(search);
  await page.getByText(shown, { exact: true }).first().click();
}
