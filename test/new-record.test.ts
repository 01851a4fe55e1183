/**
 * `npm run new -- manuscript|author|volume`, run as an editor runs it, on a copy of the sample
 * journal: the file it writes, its next free id, its name, and what `check` says of it as written
 * and once the editor has filled in what only they can.
 */
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { slugOf } from '../scripts/new/slug.ts';
import { createWorkspace, REPO_ROOT, type Workspace } from './helpers/workspace.ts';

let workspace: Workspace;
beforeEach(async () => {
  workspace = await createWorkspace({}, path.join(REPO_ROOT, 'content'));
});
afterEach(async () => {
  await workspace.dispose();
});

/** Today where the command runs, as it writes it. */
function today(): string {
  const now = new Date();
  const two = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${two(now.getMonth() + 1)}-${two(now.getDate())}`;
}

const read = (file: string) => readFile(path.join(workspace.root, file), 'utf8');
/** Replaces a line starting with `field:` (its TODO comment with it). */
const fill = (text: string, field: string, value: string) =>
  text.replace(new RegExp(`^${field}:.*$`, 'm'), `${field}: ${value}`);
const anyPdf = path.join(REPO_ROOT, 'content/media/pdfs/petrovska-2023-salamandra.pdf');

describe('new manuscript', () => {
  it('writes the next id, a transliterated file name, the schema line and the choices, and check names each TODO', async () => {
    const made = await workspace.cli(
      'new',
      'manuscript',
      '--title',
      'Нови наоди на Salamandra: Галичица',
      '--authors',
      'ana-petrovska,jan-novak',
      '--section',
      'Zoology',
    );
    expect(made.code).toBe(0);
    const file = 'content/manuscripts/novi-naodi-na-salamandra-galichica.yaml';
    expect(made.stdout.trim()).toBe(file);
    const text = await read(file);
    const lines = text.split('\n');
    expect(lines[0]).toBe('# yaml-language-server: $schema=../schemas/manuscript.schema.json');
    expect(text).toContain('# Sections: Zoology, Botany, Ecology, Microbiology, Short Communications');
    expect(text).toContain('#   volume-v: Volume V (2023-12-18)');
    // The sample's highest id is 42; its latest volume (Volume V, whose id is 1) is named by its file name.
    expect(text).toMatch(/^id: 43$/m);
    expect(text).toMatch(/^volume: volume-v$/m);
    expect(text).toContain(`citation_date: ${today()}`);
    expect(text).toContain('citation_title: "Нови наоди на Salamandra: Галичица"');

    const checked = await workspace.cli('check');
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain(`${file}:`);
    expect(checked.stderr).toMatch(/keywords: is an empty list/);
    expect(checked.stderr).toMatch(/abstract: is empty/);

    // Filled in as the comments say, with its PDF in place: check accepts it.
    let filled = fill(text, 'keywords', '[salamanders, Galičica]');
    filled = fill(filled, 'abstract', '"<p>Nine new localities.</p>"');
    await writeFile(path.join(workspace.root, file), filled);
    await copyFile(anyPdf, path.join(workspace.paths.content, 'media/pdfs/novi-naodi-na-salamandra-galichica.pdf'));
    const accepted = await workspace.cli('check');
    expect(errorLines(accepted.stderr)).toEqual([]);
    expect(accepted.code).toBe(0);
  });

  it('refuses to overwrite a file, and says so in one sentence', async () => {
    expect((await workspace.cli('new', 'manuscript', '--title', 'Pinus peuce')).code).toBe(0);
    const file = 'content/manuscripts/pinus-peuce.yaml';
    await writeFile(path.join(workspace.root, file), 'edited by hand\n');
    const again = await workspace.cli('new', 'manuscript', '--title', 'Pinus Peuce!');
    expect(again.code).toBe(2);
    expect(again.stderr.trim().split('\n')).toHaveLength(1);
    expect(again.stderr).toContain(`${file} (or a file of that name) already exists: nothing was written`);
    expect(await read(file)).toBe('edited by hand\n');
  });

  it('takes --volume as the build reads `volume`: a file name, a label or a numeral, never an id', async () => {
    for (const [title, volume] of [
      ['By label', 'Volume III'],
      ['By numeral', 'iii'],
      ['By number', '3'],
      ['By file', 'volume-iii'],
    ] as const) {
      const made = await workspace.cli('new', 'manuscript', '--title', title, '--volume', volume);
      expect(made.code).toBe(0);
      expect(await read(made.stdout.trim())).toMatch(/^volume: volume-iii$/m);
    }
    const unknown = await workspace.cli('new', 'manuscript', '--title', 'Nowhere', '--volume', 'Volume IX');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--volume Volume IX names no volume');
    expect(unknown.stderr).toContain('volume-v (Volume V)');
  });

  it('gives the next id after the one it wrote', async () => {
    await workspace.cli('new', 'manuscript', '--title', 'First');
    await workspace.cli('new', 'manuscript', '--title', 'Second');
    expect(await read('content/manuscripts/first.yaml')).toMatch(/^id: 43$/m);
    expect(await read('content/manuscripts/second.yaml')).toMatch(/^id: 44$/m);
  });

  it('answers an unknown option, a missing title or an unknown author with one sentence', async () => {
    const unknown = await workspace.cli('new', 'manuscript', '--titel', 'x');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim()).toBe(
      'new manuscript does not take --titel; it takes --title, --volume, --authors, --section, --content.',
    );
    const untitled = await workspace.cli('new', 'manuscript');
    expect(untitled.stderr.trim()).toBe('new manuscript needs --title "..." (its file name is made from it).');
    const stranger = await workspace.cli('new', 'manuscript', '--title', 'x', '--authors', 'jane-do');
    expect(stranger.stderr.trim().split('\n')).toHaveLength(1);
    expect(stranger.stderr).toContain('"jane-do"');
    expect(existsSync(path.join(workspace.paths.content, 'manuscripts/x.yaml'))).toBe(false);
  });
});

describe('new author', () => {
  it('writes a file named after the author that check accepts as written', async () => {
    const made = await workspace.cli(
      'new',
      'author',
      '--name',
      'Ѓорѓи',
      '--surname',
      'Шопов',
      '--institution',
      'Институт за биологија, Скопје',
    );
    expect(made.stdout.trim()).toBe('content/authors/gjorgji-shopov.yaml');
    const text = await read('content/authors/gjorgji-shopov.yaml');
    expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=../schemas/author.schema.json');
    expect(text).toContain('surname: Шопов');
    const checked = await workspace.cli('check');
    expect(errorLines(checked.stderr)).toEqual([]);
    expect(checked.code).toBe(0);
  });
});

describe('new volume', () => {
  it('writes the next id and the next numeral, today as its date, and check names what is left', async () => {
    const made = await workspace.cli('new', 'volume');
    const file = 'content/volumes/volume-vi.yaml';
    expect(made.stdout.trim()).toBe(file);
    const text = await read(file);
    expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=../schemas/volume.schema.json');
    expect(text).toMatch(/^id: 6$/m);
    expect(text).toMatch(/^citation_journal_title: Volume VI$/m);
    expect(text).toContain(`full_date: ${today()}`);
    const checked = await workspace.cli('check');
    expect(checked.code).toBe(1);
    expect(checked.stderr).toMatch(/volume-vi\.yaml:\d+:\d+ last_page: is the string ""/);

    await writeFile(path.join(workspace.root, file), fill(text, 'last_page', '"120"'));
    const pdf = path.join(workspace.paths.content, `media/volumes/pdfs/${today().slice(0, 4)}/volume-vi.pdf`);
    await mkdir(path.dirname(pdf), { recursive: true });
    await copyFile(anyPdf, pdf);
    const accepted = await workspace.cli('check');
    expect(errorLines(accepted.stderr)).toEqual([]);
    expect(accepted.code).toBe(0);
  });
});

describe('slugOf', () => {
  it('transliterates Cyrillic, drops accents, and keeps letters and digits', () => {
    expect(slugOf('Џиновски и Ќосевски: Љубојна, Њивје, Ѕвездa')).toBe(
      'dzhinovski-i-kjosevski-ljubojna-njivje-dzvezda',
    );
    expect(slugOf('Щука в Києві')).toBe('shchuka-v-kijevi');
    expect(slugOf('Galičica, 2022 (Ohrid)')).toBe('galicica-2022-ohrid');
    expect(slugOf('★ ★')).toBe('');
  });
});

/** What a command printed on stderr besides its warnings (the sample's ISSN and example address warn). */
function errorLines(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line !== '' && !line.startsWith('Warning: '));
}
