/**
 * Renderer: `sitemap.xml` over the site's HTML pages, and the `robots.txt` that names it
 * (docs/indexing.md). SPEC-NOTES: the original site had a `/sitemap.xml` over manuscripts.
 *
 * - URLs are absolute, under `base_url` (the sitemaps.org protocol requires full URLs).
 * - `<lastmod>` is a date from the content (a manuscript's `citation_date`, a volume's
 *   `full_date`), never the build's clock, so a rebuild writes the same bytes.
 * - A sitemap file holds at most 50,000 URLs (the protocol's limit). Above that, `/sitemap.xml`
 *   becomes a sitemap index naming `/sitemap-1.xml`, `/sitemap-2.xml`, ... at the site's root:
 *   a sitemap may only list URLs at or below its own folder, so the parts cannot live in a subfolder.
 */
import type { OutputFile } from '../../shared/output-file.ts';
import { sitePages, type SitePage } from './pages.ts';
import type { Site } from '../model/site.ts';

/** sitemaps.org: "no more than 50,000 URLs" per sitemap and per sitemap index. */
export const SITEMAP_MAX_URLS = 50_000;
export const SITEMAP_PATH = 'sitemap.xml';
export const sitemapPartPath = (n: number) => `sitemap-${n}.xml`;

const NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const HEADER = '<?xml version="1.0" encoding="UTF-8"?>\n';
/** URLs per yielded chunk while a sitemap is written. */
const URLS_PER_CHUNK = 1_000;

export function renderSitemap(site: Site, maxUrls = SITEMAP_MAX_URLS): OutputFile[] {
  const base = site.journal.base_url;
  const robots: OutputFile = { path: 'robots.txt', body: renderRobots(base) };
  // The bodies list the pages themselves: what they read is what the sitemap depends on. Only how
  // many files there are is decided here, from how many pages there are (home, volumes, manuscripts).
  const count = 1 + site.volumes.length + site.manuscripts.length;
  if (count <= maxUrls) return [{ path: SITEMAP_PATH, body: () => urlset(base, sitePages(site)) }, robots];

  const parts = Math.ceil(count / maxUrls);
  if (parts > maxUrls)
    throw new Error(`${count} pages need more than ${maxUrls} sitemaps, more than one sitemap index may name`);
  // A part reads only the pages it lists: after an edit, the part that lists the page and the index
  // are made again, and no part holds every page of the site (at 100,000 manuscripts, the index
  // listed all 100,101 pages once for each of its three parts).
  const part = (n: number) => sitePages(site, n * maxUrls, (n + 1) * maxUrls);
  return [
    {
      path: SITEMAP_PATH,
      body: () => [
        sitemapIndex(
          base,
          Array.from({ length: parts }, (_, n) => newestDate(part(n))),
        ),
      ],
    },
    ...Array.from({ length: parts }, (_, n): OutputFile => ({
      path: sitemapPartPath(n + 1),
      body: () => urlset(base, part(n)),
    })),
    robots,
  ];
}

function* urlset(base: string, pages: Iterable<SitePage>): Generator<string> {
  yield `${HEADER}<urlset xmlns="${NAMESPACE}">\n`;
  let chunk = '';
  let urls = 0;
  for (const page of pages) {
    chunk += `<url><loc>${escapeXml(base + page.path)}</loc>${page.lastmod ? `<lastmod>${escapeXml(page.lastmod)}</lastmod>` : ''}</url>\n`;
    if (++urls % URLS_PER_CHUNK === 0) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
  yield '</urlset>\n';
}

/** The newest date among the pages (ISO dates compare as text), if any has one. */
function newestDate(pages: Iterable<SitePage>): string | undefined {
  let newest: string | undefined;
  for (const { lastmod } of pages) if (lastmod && (!newest || lastmod > newest)) newest = lastmod;
  return newest;
}

function sitemapIndex(base: string, newest: readonly (string | undefined)[]): string {
  const entries = newest.map(
    (lastmod, i) =>
      `<sitemap><loc>${escapeXml(`${base}/${sitemapPartPath(i + 1)}`)}</loc>${lastmod ? `<lastmod>${escapeXml(lastmod)}</lastmod>` : ''}</sitemap>\n`,
  );
  return `${HEADER}<sitemapindex xmlns="${NAMESPACE}">\n${entries.join('')}</sitemapindex>\n`;
}

/** Everything may be crawled; the Sitemap line must be an absolute URL (robots.txt, RFC 9309 and sitemaps.org). */
export function renderRobots(base: string): string {
  return `User-agent: *\nAllow: /\n\nSitemap: ${base}/${SITEMAP_PATH}\n`;
}

/** The five characters sitemaps.org says must be entity-escaped in a sitemap. */
export function escapeXml(value: string): string {
  return value.replace(/[&<>"']/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&apos;',
  );
}
