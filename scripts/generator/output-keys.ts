/**
 * Keys for outputs (issue 4, see OutputFile.key): a hash of the content hashes of every record an
 * output depends on, so that the write stage can reuse an unchanged file from the previous build.
 * The build code and the journal settings are not part of a key: the build cache is dropped as a
 * whole when they change.
 *
 * - A manuscript's landing page depends on the manuscript, its volume and its authors.
 * - The lists, the sitemap, the home page and the volume pages depend on (nearly) everything: they
 *   share one key over every record in published order, so any edit rewrites them.
 * - Anything else (host files, public/) has no key and is always written; it is small.
 */
import { createHash } from 'node:crypto';
import type { OutputFile } from '../shared/output-file.ts';
import { pageFile } from '../shared/contract.ts';
import { manuscriptPagePath } from './render-pages.ts';
import type { ResolvedJournal } from './resolve.ts';

export function attachKeys(groups: { source: string; outputs: OutputFile[] }[], site: ResolvedJournal, shared: readonly string[]): void {
  const all = [...site.authors, ...site.volumes, ...site.manuscripts];
  if (all.some((record) => record.origin.hash === undefined)) return;
  const siteHash = createHash('sha1');
  for (const record of all) siteHash.update(`${record.origin.hash}\n`);
  const siteKey = `site:${all.length}:${siteHash.digest('base64url')}`;

  const authors = new Map(site.authors.map((a) => [a.origin.key, a.origin.hash!]));
  const volumes = new Map(site.volumes.map((v) => [v.id, v.origin.hash!]));
  const pageKeys = new Map<string, string>();
  for (const m of site.manuscripts) {
    const hash = createHash('sha1').update(`${m.origin.hash}\n${volumes.get(m.citation_volume)}\n`);
    for (const ref of m.authors) hash.update(`${typeof ref === 'string' ? authors.get(ref) : JSON.stringify(ref)}\n`);
    pageKeys.set(pageFile(manuscriptPagePath(m)), `page:${hash.digest('base64url')}`);
  }
  for (const group of groups) {
    if (!shared.includes(group.source)) continue;
    for (const output of group.outputs) output.key = pageKeys.get(output.path) ?? siteKey;
  }
}
