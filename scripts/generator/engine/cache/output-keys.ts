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
import { hash } from 'node:crypto';
import type { OutputFile } from '../../../shared/output-file.ts';
import { listFile, pageFile } from '../../../shared/contract.ts';
import { MANUSCRIPT_PAGES, manuscriptPagePath, volumePagePath } from '../../render/pages.ts';
import type { ResolvedJournal } from '../../stages/resolve.ts';

/**
 * The keys of the site's outputs, worked out once; the function returned attaches them to the
 * lists, pages and sitemap it is given (any other output given gets the site's key).
 */
export function outputKeys(site: ResolvedJournal): (outputs: readonly OutputFile[]) => void {
  const all = [...site.authors, ...site.volumes, ...site.manuscripts];
  if (all.some((record) => record.origin.hash === undefined)) return () => {};
  // One call over the joined hashes: an update per record cost a quarter of a second at 250,000.
  const siteKey = `site:${all.length}:${hash('sha1', `${all.map((record) => record.origin.hash).join('\n')}\n`, 'base64url')}`;

  const volumes = new Map(site.volumes.map((v) => [v.id, v.origin.hash!]));
  // The manuscripts list's items are keyed by their pages' keys, so these come first: the lists
  // start as soon as they are known (issue 4), before the pages are keyed.
  const manuscriptKeys = new Array<string>(site.manuscripts.length);
  for (let i = 0; i < site.manuscripts.length; i++) {
    const m = site.manuscripts[i]!;
    const found = site.manuscriptAuthors[i]!;
    // The inputs newline-joined, in one string built by `+=` (hashing flattens it once): an array
    // joined per page, with a closure per author, took twice as long (issue 4: 100,000 pages).
    let inputs = `${m.origin.hash!}\n${volumes.get(m.citation_volume) ?? ''}`;
    for (let k = 0; k < m.authors.length; k++) {
      const ref = m.authors[k]!;
      inputs += `\n${typeof ref === 'string' ? (found[k]?.origin.hash ?? '') : JSON.stringify(ref)}`;
    }
    // One call per page: a Hash object each cost more than the hashing (100,000 pages).
    manuscriptKeys[i] = `page:${hash('sha1', `${inputs}\n`, 'base64url')}`;
  }
  const itemKeys = new Map<string, readonly string[]>([
    [listFile('authors'), site.authors.map((a) => a.origin.hash!)],
    [listFile('volumes'), site.volumes.map((v) => v.origin.hash!)],
    [listFile('manuscripts'), manuscriptKeys],
  ]);
  /** The volumes' pages' keys by path, made when pages are first keyed (after the lists have started). */
  let volumePageKeys: Map<string, string> | undefined;
  const volumePages = () => {
    if (volumePageKeys) return volumePageKeys;
    // A volume's key hashes its own hash and its manuscripts' page keys in order, each newline-ended:
    // joined into one string per volume, not a hash updated 100,000 times.
    const inputs = new Map(site.volumes.map((v) => [v.id, [v.origin.hash!]]));
    site.manuscripts.forEach((m, i) => inputs.get(m.citation_volume)?.push(manuscriptKeys[i]!));
    volumePageKeys = new Map(
      site.volumes.map((v) => [
        pageFile(volumePagePath(v)),
        `volume:${hash('sha1', `${inputs.get(v.id)!.join('\n')}\n`, 'base64url')}`,
      ]),
    );
    return volumePageKeys;
  };
  /** Each manuscript's position by its page's path: made only for a page not where it was expected (pageKey). */
  let manuscriptPageAt: Map<string, number> | undefined;
  /**
   * The manuscripts' pages come in the manuscripts' order (render-pages.ts): a path is first compared
   * with the page of the manuscript after the last one found, so that 100,000 pages need no map by
   * path (issue 4: making it, and looking each page up in it, took the main thread a fifth of a
   * second after every edit). Anything else is looked up.
   */
  let nextManuscript = 0;
  const pageKey = (path: string): string | undefined => {
    const expected = site.manuscripts[nextManuscript];
    let at = expected && path === pageFile(manuscriptPagePath(expected)) ? nextManuscript : undefined;
    if (at === undefined) {
      const volumeKey = volumePages().get(path);
      if (volumeKey !== undefined || !path.startsWith(MANUSCRIPT_PAGES)) return volumeKey;
      manuscriptPageAt ??= new Map(site.manuscripts.map((m, i) => [pageFile(manuscriptPagePath(m)), i]));
      at = manuscriptPageAt.get(path);
      if (at === undefined) return undefined;
    }
    nextManuscript = at + 1;
    return manuscriptKeys[at];
  };
  return (outputs) => {
    for (const output of outputs) {
      // Only a list has items: a page's path is not looked up among the lists'.
      const keys = output.items ? itemKeys.get(output.path) : undefined;
      output.key = keys ? siteKey : (pageKey(output.path) ?? siteKey);
      if (output.items && keys?.length === output.items.count) output.items.keys = keys;
    }
  };
}
