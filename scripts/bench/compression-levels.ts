/**
 * How the precompression levels were chosen (docs/performance.md): bytes saved against
 * seconds spent, for gzip and brotli at several levels, on one built list.
 *
 *   tsx scripts/bench/compression-levels.ts <dist>/api/manuscripts/index.json
 */
import { readFileSync } from 'node:fs';
import zlib from 'node:zlib';

const file = process.argv[2];
if (!file) throw new Error('usage: compression-levels.ts <file>');
const data = readFileSync(file);
console.log(`${file}: ${data.length} bytes\n`);
console.log('| codec | level | bytes | % of identity | seconds | MB/s |');
console.log('|---|---|---|---|---|---|');
const row = (codec: string, level: number, compress: () => Buffer) => {
  const started = performance.now();
  const out = compress();
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `| ${codec} | ${level} | ${out.length} | ${((100 * out.length) / data.length).toFixed(1)} | ${seconds.toFixed(2)} | ${(data.length / 1e6 / seconds).toFixed(0)} |`,
  );
};
for (const level of [1, 4, 5, 6, 9]) row('gzip', level, () => zlib.gzipSync(data, { level }));
for (const quality of [1, 4, 5, 6, 7, 9, 11]) {
  if (quality === 11 && data.length > 50e6) continue; // minutes per 100 MB; measured on the 10,000 size
  row('brotli', quality, () =>
    zlib.brotliCompressSync(data, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    }),
  );
}
