/**
 * A manuscript the build keeps compact (its long fields packed) is read by renderers as an ordinary
 * record: whatever a renderer does with it (spread it, copy it, list its fields, serialize it),
 * it sees every field the content file gave, as it would in the development server.
 */
import { describe, expect, it } from 'vitest';
import { createUnpacker, packManuscript } from '../scripts/generator/engine/load/packed-manuscript.ts';
import { LONG_FIELDS, type ManuscriptRecord } from '../scripts/generator/model/records.ts';
import { manuscript } from './helpers/synthetic-site.ts';

const full: ManuscriptRecord = manuscript(7, {
  abstract: '<p>Пакошево, 12&nbsp;°C</p>',
  keywords: 'Triturus, Пакошево.',
  citation_language: 'mk',
  udc: '597.9',
  citation_issn: '1857 - 9914',
});

function packedAndPlain() {
  const unpack = createUnpacker(() => {
    throw new Error('a packed record is never read from its file');
  });
  const { slim, packed } = packManuscript(full);
  return unpack(slim, packed);
}

describe('a packed manuscript', () => {
  it('has the test record fill every long field', () => {
    for (const field of LONG_FIELDS) expect(full[field], field).toBeDefined();
  });

  it('keeps every field when a renderer spreads it', () => {
    const copy = { ...packedAndPlain() };
    expect(copy).toEqual(full);
    for (const field of LONG_FIELDS) expect(copy[field], field).toEqual(full[field]);
  });

  it('lists every field, as a plain record does', () => {
    expect(Object.keys(packedAndPlain()).sort()).toEqual(Object.keys(full).sort());
  });

  it('keeps every field when copied with Object.assign or structuredClone, or serialized', () => {
    expect(Object.assign({}, packedAndPlain())).toEqual(full);
    expect(structuredClone(packedAndPlain())).toEqual(full);
    expect(JSON.parse(JSON.stringify(packedAndPlain()))).toEqual(JSON.parse(JSON.stringify(full)));
  });

  it('keeps a field a renderer overrides in a spread, and the others', () => {
    const changed = { ...packedAndPlain(), keywords: ['other'] };
    expect(changed.keywords).toEqual(['other']);
    expect(changed.abstract).toBe(full.abstract);
  });
});
