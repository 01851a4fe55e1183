/**
 * Plain-text values an original deployment published (a pasted line break, a tab, a space before a
 * name, text with angle brackets) are data: the import keeps them exactly, the build publishes them
 * byte for byte in the JSON API and warns about each at its file and line. What no journal should
 * publish (a script, an event handler, a javascript: address) is written all the same, named at its
 * file and line with the fix, and refused by the build until it is fixed.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { build } from '../scripts/generator/build.ts';
import { toJson } from '../scripts/generator/render/json-text.ts';
import { importJournal } from '../scripts/import/import.ts';
import { formatImportSummary } from '../scripts/import/summary.ts';
import { projectPaths } from '../scripts/project.ts';
import { generateDump } from './fixtures/import/generate-dump.ts';
import { runCli } from './helpers/workspace.ts';

const roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.splice(0).map((root) => rm(root, { recursive: true, force: true })));
});

async function importDump(dump: unknown) {
  const root = await mkdtemp(path.join(os.tmpdir(), 'journal-import-plain-'));
  roots.push(root);
  const paths = projectPaths(root);
  await writeFile(path.join(root, 'dump.json'), toJson(dump));
  return { paths, result: await importJournal(paths, { source: 'dump.json' }) };
}

describe('plain-text values as the original published them', () => {
  it('line breaks, tabs, surrounding spaces and angle brackets: imported exactly, published byte for byte, warned about at file:line', async () => {
    const dump = generateDump({ seed: 31, authors: 6, manuscripts: 8 });
    dump.authors[0]!.name = ` ${dump.authors[0]!.name}`;
    dump.authors[1]!.institution = 'Institute of Biology,\nSkopje';
    dump.authors[2]!.surname = `${dump.authors[2]!.surname}\t`;
    dump.manuscripts[0]!.citation_title = 'A title pasted\r\nover two lines ';
    dump.manuscripts[1]!.keywords = 'Rana <graeca>, frogs.';
    dump.manuscripts[2]!.section = 'Zoology & <Ecology>';
    dump.manuscripts[3]!.authors = [...dump.manuscripts[3]!.authors, '  Nobody\u2028Known'];
    const { paths, result } = await importDump(dump);
    if (!result.ok) throw new Error(JSON.stringify(result.problems));

    const built = await build(paths, 'build');
    expect(built.problems).toEqual([]);
    for (const list of ['authors', 'volumes', 'manuscripts'] as const)
      expect(await readFile(path.join(paths.out, 'api', list, 'index.json'), 'utf8')).toBe(toJson(dump[list]));

    const warned = (built.contentWarnings ?? []).filter((w) => w.code === 'warn/plain-text');
    expect(warned.map((w) => w.field).sort()).toEqual(
      [
        'authors[2].as_published',
        'citation_title',
        'institution',
        'keywords',
        'name',
        'section',
        'sections[2]',
        'surname',
      ].sort(),
    );
    // Every other output escapes and folds them: no meta tag of a page holds a line break or a tab.
    const page = await readFile(path.join(paths.out, 'manuscripts', `${dump.manuscripts[0]!.id}.html`), 'utf8');
    for (const tag of page.match(/<meta [^>]*>/g) ?? []) expect(tag).not.toMatch(/[\n\r\t\u2028]|content=" | ">/);
    expect(page).toContain('content="A title pasted over two lines"');
    // BibTeX and RIS: the title and the authors on one line each, white space folded.
    const id = dump.manuscripts[0]!.id;
    const ris = await readFile(path.join(paths.out, 'citations', `${id}.ris`), 'utf8');
    expect(ris).toContain('TI  - A title pasted over two lines\r\n');
    for (const line of ris.split('\r\n').filter((l) => l !== ''))
      expect(line, 'RIS').toMatch(/^[A-Z][A-Z0-9] {2}- |^ER {2}-/);
    const bib = await readFile(path.join(paths.out, 'citations', `${id}.bib`), 'utf8');
    expect(bib).not.toMatch(/[\t\u2028]/);
    expect(bib).toMatch(/title = \{\{?A\}? title pasted over two lines\}/);
    // The feed escapes the angle brackets of a keyword or a section.
    const feed = await readFile(path.join(paths.out, 'feed.xml'), 'utf8');
    expect(feed).not.toContain('<Ecology>');
    for (const warning of warned) {
      expect(warning.line, warning.file).toBeGreaterThan(0);
      expect(warning.file).toMatch(/^content\/(journal|authors\/|manuscripts\/)/);
    }
  }, 120_000);

  it('a script, an event handler or a javascript: address: the record is written, named at file:line with the fix, and the command exits 1', async () => {
    const dump = generateDump({ seed: 32, authors: 4, manuscripts: 4 });
    dump.authors[1]!.institution = 'Institute <script>alert(1)</script>';
    dump.manuscripts[2]!.keywords = 'frogs <img src=x onerror=alert(1)>, toads.';
    dump.authors[3]!.name = 'javascript:alert(1)';
    dump.authors[0]!.surname = `${dump.authors[0]!.surname}\n`;
    const { paths, result } = await importDump(dump);
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    const refused = result.report.refused;
    expect(refused.map((p) => [p.code, p.field])).toEqual([
      ['schema/markup', 'institution'],
      ['schema/markup', 'name'],
      ['schema/markup', 'keywords'],
    ]);
    for (const p of refused) {
      expect(p.file).toMatch(/^content\/(authors|manuscripts)\/[^/]+\.yaml$/);
      expect(p.line).toBeGreaterThan(0);
      expect(p.expected).toBeTruthy();
      // The value is in the file exactly as the source had it, for the editor to fix.
      expect(await readFile(path.join(paths.root, p.file), 'utf8')).toMatch(/<script>|onerror|javascript:/);
    }
    expect(result.report.warnings.map((w) => [w.code, w.field])).toContainEqual(['warn/plain-text', 'surname']);
    const summary = formatImportSummary(result.report);
    expect(summary).toContain('3 values the build refuses until fixed');
    expect(summary).toContain(`${refused[0]!.file}:${refused[0]!.line}:${refused[0]!.column} institution`);
    expect((await build(paths, 'build')).ok).toBe(false);

    // The command line: the same tree written, the list printed, exit code 1.
    const cli = await runCli(paths.root, ['import', '--force', 'dump.json']);
    expect(cli.code).toBe(1);
    expect(cli.stdout).toContain('3 values the build refuses until fixed');
    expect(cli.stdout + cli.stderr).not.toContain('Nothing was written');
  }, 120_000);
});
