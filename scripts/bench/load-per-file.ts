/**
 * Where the load stage spends its time, per file, on one thread: decoding, the plain
 * YAML reader, the yaml package, and the whole `loadRecordFrom` (parse, validate, positions).
 * Files are read into memory first, so the disk is not measured; each stage runs a few passes
 * over every author and manuscript and the fastest pass is reported.
 *
 *   tsx scripts/bench/load-per-file.ts <content dir>      (e.g. a journal from `npm run bench`)
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { loadRecordFrom } from '../generator/stages/load.ts';
import { parseFile, parseWithYamlPackage } from '../generator/stages/parse.ts';
import { parsePlainYaml } from '../generator/stages/plain-yaml.ts';
import { authorSchema, manuscriptSchema } from '../generator/model/schema.ts';
import { validate } from '../generator/stages/validate.ts';

const PASSES = 5;

interface Sample {
  collection: 'authors' | 'manuscripts';
  key: string;
  file: string;
  bytes: Uint8Array;
  text: string;
}

function readSamples(contentDir: string): Sample[] {
  const samples: Sample[] = [];
  for (const collection of ['authors', 'manuscripts'] as const) {
    for (const name of readdirSync(path.join(contentDir, collection)).sort()) {
      if (!/\.ya?ml$/.test(name)) continue;
      const bytes = readFileSync(path.join(contentDir, collection, name));
      samples.push({
        collection,
        key: name.replace(/\.[^.]+$/, ''),
        file: `${collection}/${name}`,
        bytes,
        text: new TextDecoder().decode(bytes),
      });
    }
  }
  return samples;
}

/**
 * CPU microseconds per file of the fastest of a few passes (CPU time, not wall time: other work on
 * the machine then costs less precision).
 */
function perFile(samples: readonly Sample[], run: (sample: Sample) => unknown): number {
  let best = Infinity;
  for (let pass = 0; pass < PASSES; pass++) {
    const start = process.cpuUsage();
    for (const sample of samples) run(sample);
    const used = process.cpuUsage(start);
    best = Math.min(best, used.user + used.system);
  }
  return best / samples.length;
}

const contentDir = process.argv[2];
if (!contentDir) throw new Error('usage: load-per-file.ts <content dir>');
const all = readSamples(path.resolve(contentDir));
const groups: [string, Sample[]][] = [
  ['authors', all.filter((sample) => sample.collection === 'authors')],
  ['manuscripts', all.filter((sample) => sample.collection === 'manuscripts')],
  ['all', all],
];
const parsedBySample = new Map(all.map((sample) => [sample, parseFile(sample.file, sample.bytes).parsed!]));
const stages: [string, (sample: Sample) => unknown][] = [
  ['read from disk (readFileSync)', (sample) => readFileSync(path.join(contentDir, sample.file))],
  ['decode UTF-8', (sample) => new TextDecoder('utf-8', { fatal: true }).decode(sample.bytes)],
  ['yaml package (parseDocument + toJS)', (sample) => parseWithYamlPackage(sample.file, sample.text)],
  ['plain reader (parsePlainYaml)', (sample) => parsePlainYaml(sample.text)],
  ['parseFile (decode + plain reader or yaml)', (sample) => parseFile(sample.file, sample.bytes)],
  [
    'validate (zod schema)',
    (sample) =>
      validate(parsedBySample.get(sample)!, sample.collection === 'authors' ? authorSchema : manuscriptSchema),
  ],
  ['loadRecordFrom (parse + validate + positions)', (sample) => loadRecordFrom(sample, sample.bytes)],
];
for (const [name, samples] of groups) {
  const taken = samples.filter((sample) => parsePlainYaml(sample.text)).length;
  console.log(
    `${name}: ${samples.length} files (${taken} taken by the plain reader), CPU µs per file, best of ${PASSES} passes`,
  );
  for (const [stage, run] of stages)
    console.log(`  ${stage.padEnd(48)} ${perFile(samples, run).toFixed(1).padStart(7)}`);
}
