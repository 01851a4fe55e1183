/**
 * An Eleventy site that makes the same site as the build from the benchmark's journal, file for file,
 * as hugo-site.ts does with Hugo: the API lists and details as JSON, the landing pages, the
 * citation files, the feed, the sitemap, the PDFs copied, the files that depend on no record
 * (peer-static.ts) as static files. No validation, no sanitizer, no search index, no twins.
 *
 * Eleventy 3 (`@11ty/eleventy`, a devDependency for this alone) reads the journal's content folder
 * as its global data, through a YAML data extension with the project's `yaml` package
 * (data.authors, .volumes, .manuscripts, .journal); one JavaScript template per output kind, those
 * made per record paginated over the records with size 1. A record's values are made once
 * (eleventy-templates.ts, `manuscript()` in lib.js) and read by each file made from it.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ELEVENTY_LIB, ELEVENTY_TEMPLATES } from './eleventy-templates.ts';
import { writePeerStatic } from './peer-static.ts';

// The package exports no path to its command line: it is next to the package's `src/`.
const ELEVENTY = path.join(path.dirname(fileURLToPath(import.meta.resolve('@11ty/eleventy'))), '..', 'cmd.cjs');
const YAML = import.meta.resolve('yaml');

/** Writes the site into `site`, reading `content` (an absolute path); returns the shell command that runs Eleventy into `out`. */
export async function writeEleventySite(site: string, content: string, out: string): Promise<string[]> {
  await writePeerStatic(path.join(site, 'static'), content);
  const templates = path.join(site, 'templates');
  await mkdir(templates, { recursive: true });
  await writeFile(path.join(site, 'package.json'), '{ "type": "module", "private": true }\n');
  await writeFile(
    path.join(site, 'eleventy.config.js'),
    `// Written by scripts/bench/eleventy-site.ts: the build's site, for the benchmark.
import { parse } from ${JSON.stringify(YAML)};

export default function (config) {
  config.addDataExtension('yaml', (text) => parse(text));
  config.addPassthroughCopy({ ${JSON.stringify(path.join(content, 'media'))}: 'media', static: '.' });
  config.setQuietMode(true);
  return {
    templateFormats: ['11ty.js'],
    dir: { input: 'templates', data: ${JSON.stringify(path.relative(templates, content))} },
  };
}
`,
  );
  await writeFile(path.join(site, 'lib.js'), ELEVENTY_LIB);
  for (const [file, text] of Object.entries(ELEVENTY_TEMPLATES)) await writeFile(path.join(templates, file), text);
  return [
    '-c',
    'cd "$1" && exec "$0" "$2" --config=eleventy.config.js --output="$3" --quiet',
    process.execPath,
    site,
    ELEVENTY,
    out,
  ];
}
