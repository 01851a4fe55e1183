/**
 * The benchmark's floor, defined so that it cannot drift: one thread, `readFileSync` and
 * `yaml.parse` of every content file, then `JSON.stringify` of the three arrays to disk. No
 * validation, no PDFs, no compression, no cache. The cold build is measured against it in the same run.
 *
 *   tsx scripts/bench/floor.ts <content dir> <output dir>
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

function runFloor(contentDir: string, outDir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  parse(readFileSync(path.join(contentDir, 'journal.yaml'), 'utf8'));
  files++;
  mkdirSync(outDir, { recursive: true });
  for (const list of ['authors', 'volumes', 'manuscripts']) {
    const folder = path.join(contentDir, list);
    const records: unknown[] = [];
    for (const name of readdirSync(folder).sort()) {
      records.push(parse(readFileSync(path.join(folder, name), 'utf8')));
      files++;
    }
    const json = JSON.stringify(records);
    writeFileSync(path.join(outDir, `${list}.json`), json);
    bytes += Buffer.byteLength(json);
  }
  return { files, bytes };
}

const [contentDir, outDir] = process.argv.slice(2);
if (!contentDir || !outDir) throw new Error('usage: floor.ts <content dir> <output dir>');
const { files, bytes } = runFloor(path.resolve(contentDir), path.resolve(outDir));
console.log(`floor: ${files} files parsed, ${bytes} bytes written`);
