/**
 * The benchmark's `oai` step (run.ts): what the OAI-PMH repository (docs/oai-pmh.md) costs. The
 * synthetic journal has no `oai` setting, and its bytes must stay those of every other step, so
 * this step builds a copy of it with `oai` set, next to it (`<root>-oai`, its content hard-linked,
 * journal.yaml written anew), and prints:
 *
 *   - the CPU and wall of rendering every OAI file in memory, from the loaded journal (as
 *     search-index.ts times the search index), and the files and bytes the build wrote under dist/oai/;
 *   - a full harvest through the preview server, in this process on a free port: ListIdentifiers
 *     and ListRecords followed through every resumptionToken, their pages, requests a second and
 *     bytes, and a check that every manuscript came exactly once;
 *   - the CPU each kind of request costs the Cloudflare Pages worker, warm and cold, against the
 *     Free plan's 10 ms (oai-cpu.ts).
 *
 *   tsx scripts/bench/oai-harvest.ts <project root>
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadContentFiles } from '../generator/engine/content.ts';
import { silentProgress } from '../generator/progress.ts';
import { renderOai } from '../generator/render/oai/oai.ts';
import { orderJournal, siteOf } from '../generator/stages/resolve.ts';
import { createPreviewServer } from '../preview/server.ts';
import { projectPaths } from '../project.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const TSX = fileURLToPath(import.meta.resolve('tsx'));
const OAI_SETTING = 'oai:\n  admin_email: editor@journal.example.org\n';

async function main(root: string): Promise<void> {
  const copy = await copyWithOai(root);
  await renderInMemory(copy);
  // Cold on the step's first run only: later runs reuse the copy's output and cache, so this wall
  // is no figure of the repository's cost; the render above is.
  const cold = !existsSync(path.join(copy, 'dist'));
  const building = performance.now();
  execFileSync(process.execPath, [path.join(REPO, 'scripts/cli.cjs'), 'build'], { cwd: copy, stdio: 'ignore' });
  const built = (performance.now() - building) / 1000;
  const written = await filesUnder(path.join(copy, 'dist', 'oai'));
  console.log(
    `dist/oai: ${written.files.toLocaleString('en-US')} files, ${mb(written.bytes)} (records ${mb(written.records)}), ` +
      `after a ${cold ? 'cold' : 'cached'} build of the copy in ${built.toFixed(1)} s`,
  );
  const manuscripts = (await readdir(path.join(copy, 'content', 'manuscripts'))).length;
  const server = createPreviewServer({ root: path.join(copy, 'dist') });
  const address = await server.listen(0, '127.0.0.1');
  try {
    const base = `http://127.0.0.1:${address.port}/oai`;
    // One request first, untimed: the first one to a new server pays for its start, not the harvest's.
    await (await fetch(`${base}?verb=Identify`)).text();
    for (const verb of ['ListIdentifiers', 'ListRecords']) console.log(await harvest(base, verb, manuscripts));
  } finally {
    await server.close();
  }
  // In a process of its own: a worker's isolate holds no journal loaded, as this one has.
  const cpu = [TSX, path.join(REPO, 'scripts/bench/oai-cpu.ts'), path.join(copy, 'dist')];
  console.log(execFileSync(process.execPath, ['--import', ...cpu], { encoding: 'utf8' }).trimEnd());
}

/** `<root>-oai`: the journal's content hard-linked, its journal.yaml a file of its own with `oai` set. */
async function copyWithOai(root: string): Promise<string> {
  const copy = `${root}-oai`;
  const journalYaml = await readFile(path.join(root, 'content', 'journal.yaml'), 'utf8');
  const wanted = `${journalYaml}${OAI_SETTING}`;
  const copied = path.join(copy, 'content', 'journal.yaml');
  if (!existsSync(copied) || (await readFile(copied, 'utf8')) !== wanted) {
    // Afresh, with whatever a journal generated again may have changed.
    await rm(path.join(copy, 'content'), { recursive: true, force: true });
    await rm(path.join(copy, 'public'), { recursive: true, force: true });
    await mkdir(copy, { recursive: true });
    for (const folder of ['content', 'public'])
      if (existsSync(path.join(root, folder))) execFileSync('cp', ['-al', path.join(root, folder), copy]);
    // Removed first: writing through the hard link would change the journal's own file.
    await rm(copied);
    await writeFile(copied, wanted);
  }
  return copy;
}

async function renderInMemory(copy: string): Promise<void> {
  const content = await loadContentFiles(projectPaths(copy), 'build', { progress: silentProgress, cache: false });
  if (!content.journal || !content.records || content.problems.some((p) => p.severity !== 'warning'))
    throw new Error(`the journal in ${copy} does not load`);
  const site = siteOf(orderJournal(content.journal, content.records));
  const cpu = process.cpuUsage();
  const started = performance.now();
  const outputs = renderOai(site);
  let bytes = 0;
  for (const output of outputs) {
    const body = output.body;
    if (typeof body === 'string') bytes += Buffer.byteLength(body);
    else if (body instanceof Uint8Array) bytes += body.byteLength;
    else for (const part of body()) if (typeof part === 'string') bytes += Buffer.byteLength(part);
  }
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  console.log(
    `render: ${outputs.length.toLocaleString('en-US')} OAI files, ${mb(bytes)}, in ${seconds.toFixed(3)} s wall, ` +
      `${((used.user + used.system) / 1e6).toFixed(2)} s CPU`,
  );
}

async function filesUnder(folder: string): Promise<{ files: number; bytes: number; records: number }> {
  const total = { files: 0, bytes: 0, records: 0 };
  for (const entry of await readdir(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const { size } = await stat(path.join(entry.parentPath, entry.name));
    total.files++;
    total.bytes += size;
    if (path.basename(entry.parentPath) === 'records') total.records += size;
  }
  return total;
}

/** One list followed through its tokens: pages, time, bytes; every manuscript exactly once, or an error. */
async function harvest(base: string, verb: string, manuscripts: number): Promise<string> {
  const seen = new Map<string, number>();
  let pages = 0;
  let bytes = 0;
  let query = `verb=${verb}&metadataPrefix=oai_dc`;
  const started = performance.now();
  for (;;) {
    const response = await fetch(`${base}?${query}`);
    const body = await response.text();
    if (response.status !== 200 || body.includes('<error '))
      throw new Error(`${verb} page ${pages + 1} was answered ${response.status}: ${body.slice(0, 300)}`);
    pages++;
    bytes += Buffer.byteLength(body);
    for (const [, id] of body.matchAll(/<header>\s*<identifier>([^<]+)<\/identifier>/g))
      seen.set(id!, (seen.get(id!) ?? 0) + 1);
    const token = /<resumptionToken[^>]*>([^<]*)<\/resumptionToken>/.exec(body)?.[1];
    if (!token) break;
    query = `verb=${verb}&resumptionToken=${encodeURIComponent(unescapeXml(token))}`;
  }
  const seconds = (performance.now() - started) / 1000;
  const twice = [...seen].filter(([, count]) => count > 1).length;
  if (seen.size !== manuscripts || twice)
    throw new Error(`${verb} gave ${seen.size} of ${manuscripts} manuscripts, ${twice} more than once`);
  return (
    `${verb}: ${manuscripts.toLocaleString('en-US')} manuscripts, each once, in ${pages} pages, ${mb(bytes)}, ` +
    `in ${seconds.toFixed(3)} s (${(pages / seconds).toFixed(1)} requests a second)`
  );
}

const unescapeXml = (text: string) =>
  text.replace(
    /&(lt|gt|quot|apos|amp);/g,
    (_, name: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[name]!,
  );
const mb = (n: number) => `${(n / 1e6).toFixed(2)} MB`;

await main(path.resolve(process.argv[2] ?? '.'));
