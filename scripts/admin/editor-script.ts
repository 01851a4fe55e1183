/**
 * The web editor's own script (editor-browser.ts and what it imports, the yaml package among them)
 * as one browser file, published as `admin/editor.js` beside the CMS's bundle. esbuild, which the
 * command line compiles with too, bundles it where the editor is on: in a build whose previous
 * output has no copy of it under the same key, and when `npm run admin` starts. Bundling takes a
 * tenth of a second or more; the key, a hash of the sources and of the packages' versions, a
 * millisecond.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type * as Esbuild from 'esbuild';

/** The script's name beside the page. */
export const EDITOR_SCRIPT = 'editor.js';

const ENTRY = new URL('./editor-browser.ts', import.meta.url);

/**
 * Every file the script is made of but the packages (test/web-editor-script.test.ts checks this
 * list against what esbuild reads), and the packages' manifests, for their versions.
 */
export const EDITOR_SCRIPT_SOURCES: readonly URL[] = [
  ENTRY,
  new URL('./abstract-pattern.ts', import.meta.url),
  new URL('./form-rules.ts', import.meta.url),
  new URL('./record-file.ts', import.meta.url),
  new URL('../generator/model/formats.ts', import.meta.url),
  new URL('../new/slug.ts', import.meta.url),
  new URL('../shared/latin-letters.ts', import.meta.url),
  new URL('../../node_modules/yaml/package.json', import.meta.url),
  new URL('../../node_modules/esbuild/package.json', import.meta.url),
];

export function editorScriptKey(): string {
  const hash = createHash('sha256');
  for (const source of EDITOR_SCRIPT_SOURCES) hash.update(source.pathname).update('\0').update(readFileSync(source));
  return `editor-script/${hash.digest('hex')}`;
}

const OPTIONS = {
  entryPoints: [fileURLToPath(ENTRY)] as string[],
  bundle: true,
  write: false,
  format: 'iife' as const,
  platform: 'browser' as const,
  target: 'es2020',
  minify: true,
  legalComments: 'none' as const,
  charset: 'utf8' as const,
  logLevel: 'silent' as const,
  metafile: true,
} satisfies Esbuild.BuildOptions;

/** The script's text (the build writes it where the write stage asks for it, synchronously). */
export function editorScriptSync(): string {
  // Loaded here: a build that does not publish the editor never needs it.
  const { buildSync } = createRequire(import.meta.url)('esbuild') as typeof Esbuild;
  return buildSync(OPTIONS).outputFiles![0]!.text;
}

export async function editorScript(): Promise<{ text: string; inputs: string[] }> {
  // Required, not imported: the compiled command line runs this module where a dynamic import fails.
  const { build } = createRequire(import.meta.url)('esbuild') as typeof Esbuild;
  const result = await build(OPTIONS);
  return { text: result.outputFiles![0]!.text, inputs: Object.keys(result.metafile!.inputs) };
}
