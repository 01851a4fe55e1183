/**
 * Keys for outputs (issue 4, see OutputFile.key): a hash of the content hashes of every record an
 * output depends on, so that the write stage can reuse an unchanged file from the previous build.
 * The build code and the journal settings are not part of a key: the build cache is dropped as a
 * whole when they change.
 *
 * - A manuscript's landing page depends on the manuscript, its volume and its authors.
 * - A volume's page depends on the volume and on its manuscripts' pages' inputs, in order.
 * - The lists, the sitemap and the home page depend on (nearly) everything: they share one key over
 *   every record in published order, so any edit rewrites them. The lists' items are keyed one by
 *   one too (ListItems.keys), so that rewriting a list renders only the items that changed.
 * - Anything else (host files, public/) has no key and is always written; it is small.
 */
import { createHash, hash } from 'node:crypto';
import type { OutputFile } from '../shared/output-file.ts';
import { listFile, pageFile } from '../shared/contract.ts';
import { manuscriptPagePath, volumePagePath } from './render-pages.ts';
import type { ResolvedJournal } from './resolve.ts';

/**
 * The keys of the site's outputs, worked out once; the function returned attaches them to the
 * lists, pages and sitemap it is given (any other output given gets the site's key).
 */
export function outputKeys(site: ResolvedJournal): (outputs: readonly OutputFile[]) => void {
  const all = [...site.authors, ...site.volumes, ...site.manuscripts];
  if (all.some((record) => record.origin.hash === undefined)) return () => {};
  // One call over the joined hashes: an update per record cost a quarter of a second at 250,000.
  const siteKey = `site:${all.length}:${hash('sha1', `${all.map((record) => record.origin.hash).join('\n')}\n`, 'base64url')}`;

  const authors = new Map(site.authors.map((a) => [a.origin.key, a.origin.hash!]));
  const volumes = new Map(site.volumes.map((v) => [v.id, v.origin.hash!]));
  const pageKeys = new Map<string, string>();
  const manuscriptKeys: string[] = [];
  const volumeHashes = new Map(site.volumes.map((v) => [v.id, createHash('sha1').update(`${v.origin.hash}\n`)]));
  for (const m of site.manuscripts) {
    let inputs = `${m.origin.hash}\n${volumes.get(m.citation_volume)}\n`;
    for (const ref of m.authors) inputs += `${typeof ref === 'string' ? authors.get(ref) : JSON.stringify(ref)}\n`;
    // One call per page: a Hash object each cost more than the hashing (100,000 pages).
    const key = `page:${hash('sha1', inputs, 'base64url')}`;
    pageKeys.set(pageFile(manuscriptPagePath(m)), key);
    manuscriptKeys.push(key);
    volumeHashes.get(m.citation_volume)?.update(`${key}\n`);
  }
  for (const v of site.volumes) pageKeys.set(pageFile(volumePagePath(v)), `volume:${volumeHashes.get(v.id)!.digest('base64url')}`);
  const itemKeys = new Map<string, readonly string[]>([
    [listFile('authors'), site.authors.map((a) => a.origin.hash!)],
    [listFile('volumes'), site.volumes.map((v) => v.origin.hash!)],
    [listFile('manuscripts'), manuscriptKeys],
  ]);
  return (outputs) => {
    for (const output of outputs) {
      output.key = pageKeys.get(output.path) ?? siteKey;
      const keys = itemKeys.get(output.path);
      if (output.items && keys?.length === output.items.count) output.items.keys = keys;
    }
  };
}
