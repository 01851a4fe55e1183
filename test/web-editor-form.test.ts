/**
 * The web editor's form as an editor of the sample journal meets it, in headless Chromium through
 * `npm run admin`'s local editor: Cyrillic names give Latin file names, a new record is offered
 * the next free id and refused a taken one, "VI" and Enter choose Volume VI, keywords typed with
 * `;` become one item each, a one-word fix changes one line of the file, and the form reads in the
 * order and words of docs/editors.md, on a phone too.
 */
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startLocalEditor, type LocalEditor } from '../scripts/admin/local-editor.ts';
import { loadJournal } from '../scripts/generator/stages/load.ts';
import { CHROMIUM, haveChromium, launchChromium } from './helpers/chromium.ts';
import { createWorkspace, REPO_ROOT, type Workspace } from './helpers/workspace.ts';

// Skipped with the reason where Chromium is missing; under CI, which installs it, that is a failure.
const skip = !haveChromium && !process.env['CI'];
if (skip) console.warn(`${CHROMIUM} is not installed (Debian chromium): the web editor form test is skipped`);

const git = promisify(execFile);

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

/** A sixth volume, so that "VI" has a volume to name among I to V. */
const VOLUME_VI = `id: 6
citation_journal_title: Volume VI
udc: "57 59"
first_page: "1"
last_page: "96"
full_date: 2024-12-20
pdf: volumes/pdfs/2024/volume-vi.pdf
`;

/** A sample manuscript as `npm run new` leaves one: its schema line and lists as comments on top. */
const COMMENTED = 'manuscripts/blazhevska-2021-lichens-skopje.yaml';
const HEADER = `# yaml-language-server: $schema=../schemas/manuscript.schema.json
# Volumes (a manuscript names its volume by the file name):
#   volume-iii: Volume III (2021-12-20)
# Sections: Zoology, Botany, Ecology, Microbiology, Short Communications
`;

/** A manuscript written before `volume`: it names its volume by id (4 is Volume III's). */
const OLDER = 'manuscripts/older-by-volume-id.yaml';
const OLDER_TEXT = `id: 900
citation_volume: 4
citation_title: Lichens of Vodno
citation_date: 2021-03-16
authors:
  - sofija-blazhevska
section: Botany
keywords: lichens, Vodno.
document: pdfs/blazhevska-2021-lichens-skopje.pdf
abstract: <p>Lichens of Vodno.</p>
`;

describe.skipIf(skip)('the web editor form, in a browser', () => {
  let workspace: Workspace;
  let editor: LocalEditor;
  let browser: Browser;
  let page: Page;
  let nextId: number;
  const external: string[] = [];

  const inRepo = (...args: string[]) => git('git', ['-C', workspace.root, ...args]);

  async function openEditor(route: string, viewport = { width: 1280, height: 900 }): Promise<Page> {
    await page?.close();
    page = await browser.newPage({ viewport });
    page.setDefaultTimeout(20_000);
    await page.route('**/*', (request) => {
      const url = new URL(request.request().url());
      if (url.hostname === '127.0.0.1') return request.continue();
      external.push(url.href);
      return request.abort('blockedbyclient');
    });
    await page.goto(editor.url);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.goto(`${editor.url}${route}`);
    return page;
  }

  async function publish(): Promise<void> {
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('menuitem', { name: 'Publish now' }).click();
  }

  const file = (name: string) => path.join(workspace.paths.content, name);
  const exists = async (name: string) =>
    readFile(file(name)).then(
      () => true,
      () => false,
    );

  beforeAll(async () => {
    if (!haveChromium) throw new Error(`${CHROMIUM} is missing: CI installs Debian's chromium (.ci/run)`);
    workspace = await createWorkspace({}, path.join(REPO_ROOT, 'content'));
    await workspace.write('volumes/volume-vi.yaml', VOLUME_VI);
    await workspace.write('media/volumes/pdfs/2024/volume-vi.pdf', PDF);
    await workspace.write(COMMENTED, HEADER + (await readFile(file(COMMENTED), 'utf8')));
    await workspace.write(OLDER, OLDER_TEXT);
    await inRepo('init', '-q', '-b', 'main');
    await inRepo('add', '-A');
    await inRepo('-c', 'user.name=Test', '-c', 'user.email=test@example.org', 'commit', '-q', '-m', 'The journal');
    const ids = await Promise.all(
      (await readdir(file('manuscripts')))
        .filter((name) => name.endsWith('.yaml'))
        .map(async (name) => (parse(await readFile(file(`manuscripts/${name}`), 'utf8')) as { id: number }).id),
    );
    nextId = Math.max(...ids) + 1;
    const { journal } = await loadJournal('content/journal.yaml', file('journal.yaml'));
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

  it("names a Cyrillic author's file in Latin letters, as npm run new does", async () => {
    await openEditor('#/collections/authors/new');
    await page.getByLabel('Name', { exact: true }).fill('Ѓорѓи');
    await page.getByLabel('Surname', { exact: true }).fill('Шоптрајанов');
    await page.getByLabel('Institution', { exact: true }).fill('Институт за биологија, Скопје');
    await publish();
    await expect.poll(() => exists('authors/gjorgji-shoptrajanov.yaml'), { timeout: 20_000 }).toBe(true);
    expect(parse(await readFile(file('authors/gjorgji-shoptrajanov.yaml'), 'utf8'))).toEqual({
      name: 'Ѓорѓи',
      surname: 'Шоптрајанов',
      institution: 'Институт за биологија, Скопје',
    });
    expect((await workspace.build('check')).problems).toEqual([]);
  });

  it('offers a new manuscript the next free id, refuses a taken one and bad markup, and says why', async () => {
    await openEditor('#/collections/manuscripts/new');
    const id = page.getByLabel('ID', { exact: true });
    await expect.poll(() => id.inputValue(), { timeout: 20_000 }).toBe(String(nextId));
    await id.fill('28');
    // Markup the build refuses, too: refused in the form, at the field.
    await page.getByLabel('Abstract').fill('<p>Lichens of <span>Skopje</span>.</p>');
    await publish();
    await page.getByText('28 is already the id of blazhevska-2021-lichens-skopje').waitFor();
    await page
      .getByText(/Plain text, or paragraphs as/)
      .first()
      .waitFor();
    // The notice says what happened, not that a required field was missed.
    const notice = page.getByText(/Not saved/);
    await notice.first().waitFor();
    expect(await page.getByText(/missed a required field/).count()).toBe(0);
    const { stdout } = await inRepo('status', '--porcelain', '--untracked-files=all', 'content/manuscripts');
    expect(stdout).toBe('');
  });

  it('creates a manuscript with a Cyrillic title, volume "VI" chosen with Enter, keywords split at ";"', async () => {
    await openEditor('#/collections/manuscripts/new');
    await expect
      .poll(() => page.getByLabel('ID', { exact: true }).inputValue(), { timeout: 20_000 })
      .toBe(String(nextId));
    const volume = page.locator('[id^="volume-field-"]').last();
    await volume.click();
    await volume.fill('VI');
    await page.getByText('Volume VI (2024-12-20)').first().waitFor();
    await volume.press('Enter');
    await page.getByLabel('Title', { exact: true }).fill('Лишаите на Скопје');
    // A text box for year-month-day, not the browser's date picker in its own order.
    const date = page.getByLabel('Publication date');
    expect(await date.getAttribute('type')).not.toBe('date');
    await date.fill('2024-05-06');
    await page.getByLabel('Abstract').fill('<p>Lichens of <em>Tilia</em> in Skopje.</p>');
    await page.getByLabel('Keywords').fill('alpha; beta; gamma');
    await page.getByRole('button', { name: 'Add author' }).click();
    const author = page.locator('[id^="author-field-"]').last();
    await author.click();
    await author.fill('Петровска');
    await page.getByText('Ана Петровска', { exact: true }).first().click();
    const section = page.locator('[id^="section-field-"]').last();
    await section.click();
    await section.fill('Botany');
    await page.getByText('Botany', { exact: true }).first().click();
    await page.getByRole('button', { name: 'Choose a file' }).click();
    await page
      .locator('input[type=file]')
      .setInputFiles({ name: 'lishaite.pdf', mimeType: 'application/pdf', buffer: PDF });
    await page.getByRole('button', { name: 'Choose selected' }).click();

    // The preview reads like the published record: names and labels, not keys; the abstract's markup applied.
    const preview = page.frameLocator('#preview-pane');
    await preview.getByText('Ана Петровска').waitFor();
    await preview
      .getByText(/Volume VI/)
      .first()
      .waitFor();
    expect(await preview.locator('em', { hasText: 'Tilia' }).count()).toBe(1);
    expect(await preview.getByText('ana-petrovska').count()).toBe(0);

    await publish();
    const name = 'manuscripts/lishaite-na-skopje.yaml';
    // The local backend writes the record and the PDF one after the other.
    await expect.poll(() => exists(name), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => exists('media/pdfs/lishaite.pdf'), { timeout: 20_000 }).toBe(true);
    expect(parse(await readFile(file(name), 'utf8'))).toEqual({
      id: nextId,
      volume: 'volume-vi',
      citation_title: 'Лишаите на Скопје',
      citation_date: '2024-05-06',
      authors: ['ana-petrovska'],
      section: 'Botany',
      keywords: ['alpha', 'beta', 'gamma'],
      document: 'pdfs/lishaite.pdf',
      abstract: '<p>Lichens of <em>Tilia</em> in Skopje.</p>',
    });
    expect((await workspace.build('check')).problems).toEqual([]);
  });

  it("changes only the line of a one-word fix, keeping the file's comments, order and block style", async () => {
    const before = await readFile(file(COMMENTED), 'utf8');
    const abstract = (parse(before) as { abstract: string }).abstract;
    await openEditor('#/collections/manuscripts/entries/blazhevska-2021-lichens-skopje');
    await page.getByLabel('Abstract').fill(abstract.replace('were surveyed', 'were studied'));
    await publish();
    await expect.poll(() => readFile(file(COMMENTED), 'utf8'), { timeout: 20_000 }).toContain('were studied');
    const { stdout } = await inRepo('diff', '--numstat', '--', `content/${COMMENTED}`);
    expect(stdout.trim().split('\t').slice(0, 2)).toEqual(['1', '1']);
    expect((await readFile(file(COMMENTED), 'utf8')).startsWith(HEADER)).toBe(true);
  });

  it('names the volume of an older record by the one chosen, in place of its volume id', async () => {
    await openEditor('#/collections/manuscripts/entries/older-by-volume-id');
    const volume = page.locator('[id^="volume-field-"]').last();
    await volume.click();
    await volume.fill('III');
    await page.getByText('Volume III (2021-12-20)').first().waitFor();
    await volume.press('Enter');
    await publish();
    await expect.poll(() => readFile(file(OLDER), 'utf8'), { timeout: 20_000 }).toContain('volume: volume-iii');
    expect(await readFile(file(OLDER), 'utf8')).toBe(
      OLDER_TEXT.replace('citation_volume: 4\n', 'volume: volume-iii\n'),
    );
    expect((await workspace.build('check')).problems).toEqual([]);
  });

  it('asks for a manuscript in the order and words of docs/editors.md, with no legacy volume id', async () => {
    await openEditor('#/collections/manuscripts/new');
    await page.getByLabel('Abstract').waitFor();
    const labels = (await page.locator('label').allTextContents()).map((label) => label.replace(/\s+/g, ' ').trim());
    const at = (label: string) => labels.findIndex((text) => text.startsWith(label));
    const order = [
      'ID',
      'Volume',
      'Title',
      'Publication date',
      'UDC',
      'Authors',
      'Section',
      'Keywords',
      'PDF',
      'Abstract',
    ];
    expect(order.map(at).every((index) => index >= 0)).toBe(true);
    expect(order.map(at)).toEqual([...order.map(at)].sort((a, b) => a - b));
    expect(labels.some((label) => /Volume id/i.test(label))).toBe(false);
    const text = await page.locator('body').innerText();
    expect(text).not.toMatch(/citation_volume|YYYY-MM-DD/);
  });

  it('keeps Publish, and every button of the top bar, on the screen of a phone', async () => {
    await openEditor('#/collections/manuscripts/new', { width: 390, height: 844 });
    await page.getByLabel('Title', { exact: true }).fill('Orchids of Jablanica');
    const buttons = page.locator('[class*="-ToolbarContainer"] button, [class*="-ToolbarContainer"] [role=button]');
    await page.getByRole('button', { name: 'Publish' }).waitFor();
    expect(await buttons.count()).toBeGreaterThan(1);
    for (const button of await buttons.all()) {
      const box = (await button.boundingBox())!;
      expect(box.x, await button.innerText()).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, await button.innerText()).toBeLessThanOrEqual(390);
    }
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('menuitem', { name: 'Publish now' }).waitFor();
    expect(external).toEqual([]);
  });
});
