/**
 * Plain-text values an original deployment published (a pasted line break, a tab, a space before a
 * name, text with angle brackets) are data: the import keeps them exactly, the build publishes them
 * byte for byte in the JSON API and warns about each at its file and line. What no journal should
 * publish (a script, an event handler, a javascript: address) is still refused.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { build } from '../scripts/generator/build.ts';
import { toJson } from '../scripts/generator/render/json-text.ts';
import { importJournal } from '../scripts/import/import.ts';
import { projectPaths } from '../scripts/project.ts';
import { generateDump } from './fixtures/import/generate-dump.ts';

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
    for (const warning of warned) {
      expect(warning.line, warning.file).toBeGreaterThan(0);
      expect(warning.file).toMatch(/^content\/(journal|authors\/|manuscripts\/)/);
    }
  }, 120_000);

  it('a script, an event handler or a javascript: address is still named, with its list, index and field', async () => {
    const dump = generateDump({ seed: 32, authors: 4, manuscripts: 4 });
    dump.authors[1]!.institution = 'Institute <script>alert(1)</script>';
    dump.manuscripts[2]!.keywords = 'frogs <img src=x onerror=alert(1)>, toads.';
    dump.authors[3]!.name = 'javascript:alert(1)';
    const { result } = await importDump(dump);
    expect(!result.ok && result.problems.map((p) => [p.code, p.field])).toEqual([
      ['import/not-representable', 'authors[1].institution'],
      ['import/not-representable', 'authors[3].name'],
      ['import/not-representable', 'manuscripts[2].keywords'],
    ]);
  }, 120_000);
});
