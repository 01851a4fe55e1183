/**
 * What the web editor's own script decides, without a browser: how a record file is written back
 * (only the edited fields' lines change), a new record's file name, the next free id, keywords
 * typed with `;`, and which volume a typed numeral names. The browser test drives the same code
 * through the form (web-editor-form.test.ts).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  fileNameOf,
  nextFreeId,
  rankVolumeHits,
  splitKeywords,
  volumeSearchTerm,
} from '../scripts/admin/form-rules.ts';
import { readRecord, SOURCE, writeRecord } from '../scripts/admin/record-file.ts';
import { REPO_ROOT } from './helpers/workspace.ts';

/** A manuscript as `npm run new` leaves it once its TODOs are filled in: comments, a block abstract. */
const WRITTEN_BY_HAND = `# yaml-language-server: $schema=../schemas/manuscript.schema.json
# A new manuscript: replace each TODO; \`npm run check\` names every one still left.
# Volumes (a manuscript names its volume by the file name):
#   volume-v: Volume V (2023-12-20)
# Sections: Zoology, Botany
id: 43
volume: volume-v
citation_title: "The crested newt Triturus macedonicus at Lake Ohrid: new localities"
citation_date: 2024-02-28
udc: "597.6"
authors:
  - elena-kostova
  - ana-petrovska
section: Zoology
keywords: [Triturus, newts, Ohrid]
document: pdfs/kostova-2024-triturus.pdf # the PDF goes at content/media/pdfs/kostova-2024-triturus.pdf
abstract: |-
  <p>We report four new localities of <em>Triturus macedonicus</em> on the eastern shore of Lake Ohrid, in a survey that lasted from the spring of 2022 to the autumn of 2023.</p>
  <p>Two of them are temporary ponds at risk of drainage.</p>
`;

const ORDER = [
  'id',
  'volume',
  'citation_title',
  'citation_date',
  'udc',
  'authors',
  'section',
  'keywords',
  'document',
  'abstract',
  'doi',
];

/** The lines removed and added from `before` to `after`, as a diff counts them. */
function changedLines(before: string, after: string): { removed: string[]; added: string[] } {
  const a = before.split('\n');
  const b = after.split('\n');
  return { removed: a.filter((line) => !b.includes(line)), added: b.filter((line) => !a.includes(line)) };
}

describe('a record written back by the web editor', () => {
  it('is the same file when nothing was edited', () => {
    expect(writeRecord(readRecord(WRITTEN_BY_HAND), ORDER)).toBe(WRITTEN_BY_HAND);
  });

  it('changes only the line of a word fixed in a long abstract, keeping comments, order and block style', () => {
    const data = readRecord(WRITTEN_BY_HAND);
    const abstract = String(data['abstract']).replace('lasted', 'ran');
    const after = writeRecord({ ...data, abstract }, ORDER);
    const { removed, added } = changedLines(WRITTEN_BY_HAND, after);
    expect(removed).toHaveLength(1);
    expect(added).toEqual([removed[0]!.replace('lasted', 'ran')]);
    expect(after.split('\n').length).toBe(WRITTEN_BY_HAND.split('\n').length);
  });

  it('removes a field emptied, adds a new one where the form puts it, and keeps quoting and flow lists', () => {
    const data = readRecord(WRITTEN_BY_HAND);
    const { udc: _udc, ...rest } = data;
    const after = writeRecord(
      { ...rest, keywords: ['Triturus', 'newts', 'Ohrid', 'Macedonia'], doi: '10.1234/x.1' },
      ORDER,
    );
    const { removed, added } = changedLines(WRITTEN_BY_HAND, after);
    expect(removed).toEqual(['udc: "597.6"', 'keywords: [Triturus, newts, Ohrid]']);
    expect(added).toEqual(['keywords: [Triturus, newts, Ohrid, Macedonia]', 'doi: 10.1234/x.1']);
    expect(after.endsWith('<p>Two of them are temporary ponds at risk of drainage.</p>\ndoi: 10.1234/x.1\n')).toBe(
      true,
    );
  });

  it("drops a comment on the line of a value that changed, and keeps the editor's own keys out", () => {
    const data = readRecord(WRITTEN_BY_HAND);
    const after = writeRecord({ ...data, document: 'pdfs/triturus.pdf', __file_name: 'x' }, ORDER);
    expect(changedLines(WRITTEN_BY_HAND, after).added).toEqual(['document: pdfs/triturus.pdf']);
    expect(after).not.toContain('__');
  });

  it('writes a new record in the form order, its texts as the build reads them', () => {
    const text = writeRecord(
      { citation_title: 'Orchids', id: 44, citation_date: '2024-03-01', first_page: '7', abstract: 'a\nb' },
      ORDER,
    );
    expect(text).toBe(
      'id: 44\ncitation_title: Orchids\ncitation_date: 2024-03-01\nabstract: |-\n  a\n  b\nfirst_page: "7"\n',
    );
    expect(readRecord(text)).toMatchObject({ id: 44, citation_date: '2024-03-01', first_page: '7' });
  });

  it('keeps every sample record as written, dates and codes as text', async () => {
    const file = path.join(REPO_ROOT, 'content/volumes/volume-iii.yaml');
    const text = await readFile(file, 'utf8');
    const data = readRecord(text);
    expect(data).toMatchObject({ full_date: '2021-12-20', udc: '57 59', first_page: '1', [SOURCE]: text });
    expect(writeRecord(data)).toBe(text);
  });
});

describe("the form's own rules", () => {
  it('names a new record as npm run new does: Cyrillic transliterated, never an empty name', () => {
    expect(fileNameOf('authors', { name: 'Ана', surname: 'Петровска' })).toBe('ana-petrovska');
    expect(fileNameOf('authors', { name: 'Ѓорѓи', surname: 'Шоптрајанов' })).toBe('gjorgji-shoptrajanov');
    expect(fileNameOf('manuscripts', { id: 49, citation_title: 'Лишаите на Скопје' })).toBe('lishaite-na-skopje');
    expect(fileNameOf('volumes', { citation_journal_title: 'Volume VI' })).toBe('volume-vi');
    expect(fileNameOf('manuscripts', { id: 50, citation_title: '日本の蝶' })).toBe('manuscript-50');
  });

  it('offers the id after the highest', () => {
    expect(nextFreeId([3, 42, 7])).toBe(43);
    expect(nextFreeId([])).toBe(1);
  });

  it('splits keywords typed with semicolons', () => {
    expect(splitKeywords(['alpha; beta; gamma'])).toEqual(['alpha', 'beta', 'gamma']);
    expect(splitKeywords(['alpha', ' beta;gamma ', ''])).toEqual(['alpha', 'beta', 'gamma']);
  });

  it('puts the volume a numeral, number, label or file name names first', () => {
    const hits = ['I', 'II', 'III', 'IV', 'VI'].map((numeral) => ({
      slug: `volume-${numeral.toLowerCase()}`,
      data: { citation_journal_title: `Volume ${numeral}` },
    }));
    for (const typed of ['VI', 'vi', ' Volume VI', '6', 'volume-vi'])
      expect(rankVolumeHits(typed, hits)[0]!.slug, typed).toBe('volume-vi');
    expect(rankVolumeHits('Vol', hits).map((hit) => hit.slug)).toEqual(hits.map((hit) => hit.slug));
    expect(volumeSearchTerm('6')).toBe('VI');
    expect(volumeSearchTerm('VI')).toBe('VI');
  });
});
