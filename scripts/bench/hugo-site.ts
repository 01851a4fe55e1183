/**
 * A Hugo site that makes the same site as the build from the benchmark's journal, file for file:
 * the three API lists and each record's detail as JSON, the landing pages of the journal, its
 * volumes and manuscripts with the same metadata, each manuscript's RIS, BibTeX and CSL-JSON, the
 * feed, the sitemap, the PDFs copied; the files that depend on no record (peer-static.ts) as static
 * files. No validation, no sanitizer, no search index, no precompressed twins.
 *
 * Hugo 0.111.3 (Debian bookworm: `apt-get install -y hugo`) reads every YAML file of `content/` as
 * data (site.Data) and has no content adapters: a page exists only for a content file. So one
 * small stub file per record and output folder (`manuscripts/1.md`, `citations/1.md`,
 * `api/manuscripts/1.md`, ...) names the record by its file name, and the templates read the
 * record from site.Data. A script written next to the site (write-stubs.mjs) writes the stubs,
 * reading only each record's `id` line (and a volume's label, for its page's numeral); the
 * benchmark times it and Hugo as one step, since a site made this way must write them each time.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { HUGO_TEMPLATES } from './hugo-templates.ts';
import { writePeerStatic } from './peer-static.ts';

/**
 * Writes the site into `site`, reading `content` (an absolute path); returns the shell command that
 * writes the stubs and runs `hugo` (the program's path) into `out`.
 */
export async function writeHugoSite(site: string, content: string, out: string, hugo: string): Promise<string[]> {
  const journal = await writePeerStatic(path.join(site, 'static'), content);
  await writeFile(
    path.join(site, 'hugo.toml'),
    `# Written by scripts/bench/hugo-site.ts: the build's site, for the benchmark.
baseURL = ${JSON.stringify(`${journal.base_url}/`)}
title = ${JSON.stringify(journal.title)}
uglyURLs = true
disableKinds = ["taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404", "section"]

[mediaTypes."application/x-research-info-systems"]
  suffixes = ["ris"]
[mediaTypes."application/x-bibtex"]
  suffixes = ["bib"]
[mediaTypes."application/vnd.citationstyles.csl+json"]
  suffixes = ["json"]
[mediaTypes."application/atom+xml"]
  suffixes = ["xml"]

[outputFormats.detail]
  mediaType = "application/json"
  isPlainText = true
  notAlternative = true
[outputFormats.ris]
  mediaType = "application/x-research-info-systems"
  isPlainText = true
  notAlternative = true
[outputFormats.bib]
  mediaType = "application/x-bibtex"
  isPlainText = true
  notAlternative = true
[outputFormats.csl]
  mediaType = "application/vnd.citationstyles.csl+json"
  isPlainText = true
  notAlternative = true
${['authors', 'volumes', 'manuscripts', 'sections', 'root']
  .map(
    (list) => `[outputFormats.api${list}]
  mediaType = "application/json"
  baseName = "index"
  path = "api${list === 'root' ? '' : `/${list}`}"
  isPlainText = true
  notAlternative = true
`,
  )
  .join('')}[outputFormats.feed]
  mediaType = "application/atom+xml"
  baseName = "feed"
  isPlainText = true
  notAlternative = true
[outputFormats.sitemapxml]
  mediaType = "application/xml"
  baseName = "sitemap"
  isPlainText = true
  notAlternative = true

[outputs]
  home = ["html", "apiauthors", "apivolumes", "apimanuscripts", "apisections", "apiroot", "feed", "sitemapxml"]

# The journal's content folder as Hugo's data (site.Data.authors, .volumes, .manuscripts, .journal),
# its PDFs as static files where the build copies them, the stubs as Hugo's content.
[module]
[[module.mounts]]
  source = ${JSON.stringify(content)}
  target = "data"
  excludeFiles = ["media/**", "schemas/**"]
[[module.mounts]]
  source = ${JSON.stringify(path.join(content, 'media'))}
  target = "static/media"
[[module.mounts]]
  source = "static"
  target = "static"
[[module.mounts]]
  source = "stubs"
  target = "content"
[[module.mounts]]
  source = "layouts"
  target = "layouts"
`,
  );
  for (const [file, text] of Object.entries(HUGO_TEMPLATES)) {
    await mkdir(path.dirname(path.join(site, 'layouts', file)), { recursive: true });
    await writeFile(path.join(site, 'layouts', file), text);
  }
  await writeFile(path.join(site, 'write-stubs.mjs'), STUB_WRITER);
  const stubs = path.join(site, 'stubs');
  return [
    '-c',
    `"$0" "$1/write-stubs.mjs" "$3" "$2" && "$4" --quiet --source "$1" --destination "$5"`,
    process.execPath,
    site,
    stubs,
    content,
    hugo,
    out,
  ];
}

/** Run by plain `node` as part of Hugo's step: `write-stubs.mjs <content> <stubs>`. */
const STUB_WRITER = `import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const [content, stubs] = process.argv.slice(2);
const ROMAN = { I: 1, V: 5, X: 10, L: 50, C: 100, D: 500, M: 1000 };
const numeral = (label) => {
  const letters = /([IVXLCDM]+)\\s*$/.exec(label)?.[1] ?? '';
  let value = 0;
  for (let i = 0; i < letters.length; i++) {
    const here = ROMAN[letters[i]];
    value += here < (ROMAN[letters[i + 1]] ?? 0) ? -here : here;
  }
  return value;
};
const field = (text, name) => new RegExp('^' + name + ': *"?([^"\\\\n]*)"?$', 'm').exec(text)?.[1];
const made = new Set();
const stub = (folder, name, key, type, outputs) => {
  const dir = path.join(stubs, folder);
  if (!made.has(dir)) mkdirSync(dir, { recursive: true });
  made.add(dir);
  writeFileSync(path.join(dir, name + '.md'), '---\\nkey: "' + key + '"\\ntype: ' + type + '\\noutputs: [' + outputs + ']\\n---\\n');
};
const records = (list) =>
  readdirSync(path.join(content, list))
    .filter((name) => /\\.ya?ml$/.test(name))
    .map((name) => {
      const key = name.replace(/\\.ya?ml$/, '');
      return { key, text: list === 'authors' ? '' : readFileSync(path.join(content, list, name), 'utf8') };
    });
for (const { key } of records('authors')) stub('api/authors', key, key, 'author-api', 'detail');
for (const { key, text } of records('volumes')) {
  stub('api/volumes', field(text, 'id'), key, 'volume-api', 'detail');
  stub('volumes', String(numeral(field(text, 'citation_journal_title'))), key, 'volume', 'html');
}
for (const { key, text } of records('manuscripts')) {
  const id = field(text, 'id');
  stub('api/manuscripts', id, key, 'manuscript-api', 'detail');
  stub('manuscripts', id, key, 'manuscript', 'html');
  stub('citations', id, key, 'citation', 'ris, bib, csl');
}
`;
