/**
 * Huge values in one record: a list of keywords or authors longer than any journal prints. The
 * renderers take any length without running out of stack, and a journal's problems are reported
 * however many there are: never a stack trace.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Problem } from '../scripts/generator/model/problems.ts';
import { RENDERERS } from '../scripts/generator/render/renderers.ts';
import { createWorkspace, type Workspace } from './helpers/workspace.ts';
import { manuscript, site, volume } from './helpers/synthetic-site.ts';

let workspace: Workspace | undefined;
afterEach(async () => {
  await workspace?.dispose();
  workspace = undefined;
});

const where = (p: Problem) => `${p.code} ${p.file}:${p.line}:${p.column} ${p.field}`;

/** The fixture's salamanders.yaml with some fields replaced (each given as its YAML lines). */
function salamanders(fields: { title?: string; abstract?: string; keywords?: string; authors?: string }): string {
  return [
    'id: 7',
    'volume: Volume I',
    `citation_title: ${fields.title ?? 'Distribution of the fire salamander in the Jakupica mountains'}`,
    'citation_date: 2021-03-04',
    `abstract: ${fields.abstract ?? '<p>New localities.</p>'}`,
    `keywords:${fields.keywords ?? '\n  - Salamandra salamandra\n  - distribution'}`,
    'document: pdfs/salamanders.pdf',
    `authors:${fields.authors ?? '\n  - ana-petrovska\n  - jane-doe'}`,
    'section: Zoology',
    '',
  ].join('\n');
}

const listOf = (count: number, item: (i: number) => string) =>
  '\n' + Array.from({ length: count }, (_, i) => `  - ${item(i)}`).join('\n');

/** Every file every renderer makes of the site, each made whole, as the write stage makes it. */
function renderEverything(manuscripts: ReturnType<typeof manuscript>[]): Map<string, string> {
  const whole = site({ volumes: [volume(1, 'Volume I', '2021-12-01')], manuscripts });
  const files = new Map<string, string>();
  for (const renderer of RENDERERS)
    for (const file of renderer.render(whole)) {
      const { body } = file;
      if (typeof body === 'string') files.set(file.path, body);
      else if (body instanceof Uint8Array) files.set(file.path, Buffer.from(body).toString('utf8'));
      else {
        let text = '';
        for (const part of body()) text += String(part);
        files.set(file.path, text);
      }
    }
  return files;
}

describe('the renderers write a record of any length', () => {
  it('200,000 keywords: every output, the landing page head included', () => {
    const keywords = Array.from({ length: 200_000 }, (_, i) => `kw${i}`).join(', ') + '.';
    const files = renderEverything([manuscript(1, { keywords })]);
    const page = files.get('manuscripts/1.html')!;
    expect(page.split('<meta name="citation_keywords"')).toHaveLength(200_001);
    expect(page).toContain('<meta property="article:tag" content="kw199999">');
  });

  it('200,000 authors kept as published', () => {
    const authors = Array.from({ length: 200_000 }, (_, i) => ({ as_published: `Person ${i}` }));
    const files = renderEverything([manuscript(1, { authors })]);
    expect(files.get('manuscripts/1.html')!.split('<meta name="citation_author"')).toHaveLength(200_001);
  });
});

describe('a journal with more problems than a call can take arguments', () => {
  it('140,000 unknown authors in 14 manuscripts: every one reported at its line', async () => {
    const files: Record<string, string> = {};
    for (let m = 0; m < 14; m++)
      files[`manuscripts/m${m}.yaml`] = salamanders({
        authors: listOf(10_000, (i) => `nobody-${m}-${i}`),
      }).replace('id: 7', `id: ${100 + m}`);
    workspace = await createWorkspace(files);
    const result = await workspace.build('check');
    expect(result.problems).toHaveLength(140_000);
    expect(new Set(result.problems.map((p) => p.code))).toEqual(new Set(['ref/unknown-author']));
    expect(where(result.problems.at(-1)!)).toBe('ref/unknown-author content/manuscripts/m9.yaml:10010:5 authors[9999]');
  });
});
