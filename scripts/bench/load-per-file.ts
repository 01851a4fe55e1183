/**
 * Where the load stage spends its time, per file, on one thread (issue 4): decoding, the plain
 * YAML reader, the yaml package, and the whole `loadRecordFrom` (parse, validate, positions).
 * Files are read into memory first, so the disk is not measured; each stage runs a few passes
 * over every author and manuscript and the fastest pass is reported.
 *
 *   tsx scripts/bench/load-per-file.ts <content dir>      (e.g. a journal from `npm run bench`)
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadRecordFrom } from '../generator/load.ts';
import { parseFile, parseWithYamlPackage } from '../generator/parse.ts';
import { parsePlainYaml } from '../generator/plain-yaml.ts';
import { authorSchema, manuscriptSchema } from '../generator/schema.ts';
import { validate } from '../generator/validate.ts';

const PASSES = 3;

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
      samples.push({ collection, key: name.replace(/\.[^.]+$/, ''), file: `${collection}/${name}`, bytes, text: new TextDecoder().decode(bytes) });
    }
  }
  return samples;
}

/** Microseconds per file of the fastest of a few passes. */
function perFile(samples: readonly Sample[], run: (sample: Sample) => unknown): number {
  let best = Infinity;
  for (let pass = 0; pass < PASSES; pass++) {
    const start = performance.now();
    for (const sample of samples) run(sample);
    best = Math.min(best, performance.now() - start);
  }
  return (best * 1000) / samples.length;
}

const contentDir = process.argv[2];
if (!contentDir) throw new Error('usage: load-per-file.ts <content dir>');
const samples = readSamples(path.resolve(contentDir));
const taken = samples.filter((sample) => parsePlainYaml(sample.text)).length;
const parsedBySample = new Map(samples.map((sample) => [sample, parseFile(sample.file, sample.bytes).parsed!]));

const rows: [string, number][] = [
  ['read from disk (readFileSync)', perFile(samples, (sample) => readFileSync(path.join(contentDir, sample.file)))],
  ['decode UTF-8', perFile(samples, (sample) => new TextDecoder('utf-8', { fatal: true }).decode(sample.bytes))],
  ['yaml package (parseDocument + toJS)', perFile(samples, (sample) => parseWithYamlPackage(sample.file, sample.text))],
  ['plain reader (parsePlainYaml)', perFile(samples, (sample) => parsePlainYaml(sample.text))],
  ['parseFile (decode + plain reader or yaml)', perFile(samples, (sample) => parseFile(sample.file, sample.bytes))],
  ['validate (zod)', perFile(samples, (sample) => validate(parsedBySample.get(sample)!, sample.collection === 'authors' ? authorSchema : manuscriptSchema))],
  ['loadRecordFrom (parse + validate + positions)', perFile(samples, (sample) => loadRecordFrom(sample, sample.bytes))],
];
console.log(`${samples.length} files (${taken} taken by the plain reader), µs per file, best of ${PASSES} passes:`);
for (const [stage, micros] of rows) console.log(`  ${stage.padEnd(48)} ${micros.toFixed(1).padStart(7)}`);
