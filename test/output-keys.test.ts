/**
 * The outputs' keys (issue 4, output-keys.ts): what decides that a page of the previous build can
 * stand for this build's. A key must change with everything the page shows, and with nothing else.
 */
import { describe, expect, it } from 'vitest';
import { outputKeys } from '../scripts/generator/engine/cache/output-keys.ts';
import type { AuthorRecord, ManuscriptRecord, VolumeRecord } from '../scripts/generator/model/records.ts';
import { renderApi } from '../scripts/generator/render/api.ts';
import { renderPages } from '../scripts/generator/render/pages.ts';
import { renderSitemap } from '../scripts/generator/render/sitemap.ts';
import type { OutputFile } from '../scripts/shared/output-file.ts';
import { author, manuscript, site, volume } from './helpers/synthetic-site.ts';

/** A record as loading gives it: with its file's content hash. */
function hashed<T extends AuthorRecord | VolumeRecord | ManuscriptRecord>(record: T, hash: string): T {
  return { ...record, origin: { ...record.origin, hash } };
}

/** Two volumes of three manuscripts; `hashes` replaces a record's content hash, by key. */
function journal(hashes: Record<string, string> = {}) {
  const hashOf = (key: string) => hashes[key] ?? `hash of ${key}`;
  const authors = ['a1', 'a2', 'a3'].map((key) =>
    hashed(author(key, 'Ана', `Surname ${key}`, 'Institute'), hashOf(key)),
  );
  const volumes = [volume(1, 'Volume I', '2020-06-01'), volume(2, 'Volume II', '2021-06-01')].map((v) =>
    hashed(v, hashOf(v.origin.key)),
  );
  const manuscripts = Array.from({ length: 6 }, (_, i) => {
    const m = manuscript(i + 1, { citation_volume: i < 3 ? 1 : 2, authors: i % 2 === 0 ? ['a1', 'a2'] : ['a3'] });
    return hashed(m, hashOf(m.origin.key));
  });
  return site({ authors, volumes, manuscripts });
}

/** Every page's key, and the sitemap's and the lists', with the pages given in the order `order` makes. */
function keysOf(
  journalSite: ReturnType<typeof journal>,
  order: (pages: OutputFile[]) => OutputFile[] = (pages) => pages,
): Map<string, string | undefined> {
  const attach = outputKeys(journalSite);
  const lists = renderApi(journalSite);
  attach(lists);
  const pages = renderPages(journalSite);
  attach(order([...pages]));
  const sitemap = renderSitemap(journalSite);
  attach(sitemap);
  return new Map([...lists, ...pages, ...sitemap].map((output) => [output.path, output.key]));
}

describe('output keys', () => {
  it('give each page the same key in whatever order the pages come', () => {
    const inOrder = keysOf(journal());
    expect(new Set([...inOrder.values()]).size).toBeGreaterThan(8);
    expect(keysOf(journal(), (pages) => pages.reverse())).toEqual(inOrder);
    // Pages out of order among pages in order, and outputs that are no page in between.
    expect(keysOf(journal(), (pages) => [pages[0]!, pages[5]!, ...pages.slice(1, 5), ...pages.slice(6)])).toEqual(
      inOrder,
    );
    expect(
      keysOf(journal(), (pages) => [...pages.slice(3), ...renderSitemap(journal()), ...pages.slice(0, 3)]),
    ).toEqual(inOrder);
  });

  it("change a manuscript's page with its manuscript, its volume and its authors, and a volume's page with its manuscripts", () => {
    const before = keysOf(journal());
    const changed = (hashes: Record<string, string>) => {
      const after = keysOf(journal(hashes));
      return [...after]
        .filter(([path, key]) => before.get(path) !== key)
        .map(([path]) => path)
        .sort();
    };
    // The home page, the sitemaps and the lists share the key over every record: any change reaches them.
    const everything = [...before.keys()].filter((path) => !/^(manuscripts|volumes)\//.test(path));
    expect(changed({ 'm-2': 'edited' })).toEqual([...everything, 'manuscripts/2.html', 'volumes/1.html'].sort());
    // a3 is named by manuscripts 2, 4 and 6, in both volumes.
    expect(changed({ a3: 'edited' })).toEqual(
      [
        ...everything,
        'manuscripts/2.html',
        'manuscripts/4.html',
        'manuscripts/6.html',
        'volumes/1.html',
        'volumes/2.html',
      ].sort(),
    );
    expect(changed({ 'volume-2': 'edited' })).toEqual(
      [...everything, 'manuscripts/4.html', 'manuscripts/5.html', 'manuscripts/6.html', 'volumes/2.html'].sort(),
    );
    expect(changed({})).toEqual([]);
  });
});
