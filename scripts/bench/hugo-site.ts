/**
 * A small Hugo site that does the bare JSON job on the benchmark's journal: it reads the same content
 * files as data (every YAML file under content/, the media left out) and writes the three lists as
 * JSON arrays, nothing else: no validation, no pages, no PDFs, no twins. The benchmark runs it where
 * `hugo` is installed (Debian: `apt-get install -y hugo`, 0.111.3 on bookworm; elsewhere a release
 * from the Hugo project), as the measure of what a fast static site generator takes for the same
 * reading and writing: a cold build of a small journal is to be no slower.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

const LISTS = ['authors', 'volumes', 'manuscripts'] as const;

/** Writes the site into `site`, reading `content` (an absolute path); returns the arguments to run `hugo` with. */
export async function writeHugoSite(site: string, content: string, out: string): Promise<string[]> {
  await mkdir(path.join(site, 'layouts'), { recursive: true });
  const formats = LISTS.map(
    (list) => `[outputFormats.${list}]
  mediaType = "application/json"
  baseName = "index"
  path = "api/${list}"
  isPlainText = true
  notAlternative = true
`,
  ).join('');
  await writeFile(
    path.join(site, 'hugo.toml'),
    `# Written by scripts/bench/hugo-site.ts: the bare JSON job, for the benchmark.
baseURL = "https://journal.example.org/"
contentDir = "no-content"
disableKinds = ["taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404", "section", "page"]
${formats}[outputs]
  home = [${LISTS.map((list) => `"${list}"`).join(', ')}]

# The journal's content folder as Hugo's data: site.Data.authors, .volumes, .manuscripts, .journal.
[module]
[[module.mounts]]
  source = ${JSON.stringify(content)}
  target = "data"
  excludeFiles = ["media/**", "schemas/**"]
[[module.mounts]]
  source = "layouts"
  target = "layouts"
`,
  );
  for (const list of LISTS) {
    // Every record of the collection, in file-name order, as one JSON array.
    await writeFile(
      path.join(site, 'layouts', `index.${list}.json`),
      `{{- $items := slice -}}\n{{- range site.Data.${list} -}}{{- $items = $items | append . -}}{{- end -}}\n{{- jsonify $items -}}\n`,
    );
  }
  return ['--quiet', '--source', site, '--destination', out];
}
