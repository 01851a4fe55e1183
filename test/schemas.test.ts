import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { editorJsonSchemas, readContentChoices } from '../scripts/generator/editor-schemas.ts';
import { contentJsonSchemas } from '../scripts/generator/model/schema.ts';
import { createWorkspace, REPO_ROOT } from './helpers/workspace.ts';

describe("the editors' JSON Schemas", () => {
  it('the committed schemas are the ones the validator generates from the content (run `npm run schema` after changing either)', async () => {
    const folder = path.join(REPO_ROOT, 'content/schemas');
    const generated = editorJsonSchemas(await readContentChoices(path.join(REPO_ROOT, 'content')));
    expect((await readdir(folder)).sort()).toEqual(Object.keys(generated).sort());
    for (const [name, schema] of Object.entries(generated)) {
      expect(JSON.parse(await readFile(path.join(folder, name), 'utf8'))).toEqual(JSON.parse(JSON.stringify(schema)));
    }
  });

  it('describe every field the validator accepts, and refuse unknown ones', () => {
    const manuscript = contentJsonSchemas()['manuscript.schema.json'] as {
      properties: Record<string, unknown>;
      required: string[];
      additionalProperties: boolean;
    };
    expect(Object.keys(manuscript.properties)).toEqual([
      'id',
      'volume',
      'citation_volume',
      'citation_title',
      'citation_date',
      'citation_language',
      'udc',
      'citation_issn',
      'abstract',
      'keywords',
      'document',
      'authors',
      'section',
      'order',
      'doi',
      'first_page',
      'last_page',
      'license',
      'modified',
    ]);
    // A manuscript names its volume by `volume` or, in older files, `citation_volume`: one of them
    // is required (the validator says which is missing), neither alone.
    expect(manuscript.required).toEqual([
      'id',
      'citation_title',
      'citation_date',
      'abstract',
      'keywords',
      'document',
      'authors',
      'section',
    ]);
    expect(manuscript.additionalProperties).toBe(false);
  });

  it("offer the content's sections, author keys and volume keys for completion, sorted, as npm run schema writes them", async () => {
    const workspace = await createWorkspace({
      'authors/zoe-adams.yaml': 'name: Zoe\nsurname: Adams\ninstitution: X\n',
    });
    try {
      const { code } = await workspace.cli('schema');
      expect(code).toBe(0);
      type Offer = { enum?: unknown[]; anyOf?: Offer[]; type?: string };
      const written = JSON.parse(
        await readFile(path.join(workspace.paths.content, 'schemas/manuscript.schema.json'), 'utf8'),
      ) as { properties: Record<string, Offer & { items?: { anyOf: Offer[] } }> };
      expect(written.properties['section']!.enum).toEqual(['Zoology', 'Botany']);
      // Each volume's file name, then its label: what `volume` may be written as.
      expect(written.properties['volume']!.anyOf![0]!.enum).toEqual(['volume-i', 'volume-ii', 'Volume I', 'Volume II']);
      const authorKey = written.properties['authors']!.items!.anyOf[0]!;
      expect(authorKey.anyOf![0]!.enum).toEqual(['ana-petrovska', 'jane-doe', 'marko-nikolov', 'zoe-adams']);
      // A key not in the list yet still has the right shape: the build is what checks references.
      expect(authorKey.anyOf![1]).toMatchObject({ type: 'string' });
    } finally {
      await workspace.dispose();
    }
  });
});
