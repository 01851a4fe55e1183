/**
 * The yaml package, loaded the first time something needs it. Record files are nearly always plain
 * YAML (stages/plain-yaml.ts) and the web editor's files are rendered only where it is on: loading
 * the package (72 modules) costs about 30 ms of a command's start, and of each load worker's, for
 * a package most runs never call. `check` after an edit at 1,000 manuscripts takes about 0.2 s in
 * all. Required, not imported: its callers stay synchronous, and on Node the package's `import`
 * and `require` both give its CommonJS build, so this is the same module.
 */
import { createRequire } from 'node:module';
import type * as YamlPackage from 'yaml';

let loaded: typeof YamlPackage | undefined;

export function yamlPackage(): typeof YamlPackage {
  return (loaded ??= createRequire(import.meta.url)('yaml') as typeof YamlPackage);
}
