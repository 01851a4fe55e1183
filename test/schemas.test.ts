import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentJsonSchemas } from '../scripts/generator/model/schema.ts';
import { REPO_ROOT } from './helpers/workspace.ts';

describe("the editors' JSON Schemas", () => {
  it('the committed schemas are the ones the validator generates (run `npm run schema` after changing it)', async () => {
    const folder = path.join(REPO_ROOT, 'content/schemas');
    const generated = contentJsonSchemas();
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
    ]);
    expect(manuscript.required).toEqual([
      'id',
      'citation_volume',
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
});
