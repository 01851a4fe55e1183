// The command line compiled into plain JavaScript once, by an explicit step: `npm install` (the
// `prepare` script runs this file) and the first step of `npm run build` when scripts/ changed since
// (compiledCliFor). Any other command whose compiled copy is not current runs the sources through
// the TypeScript loader instead (cli.cjs): correct, about 0.25 s of CPU slower, and it never
// compiles behind a command's back, so that one command's compile cannot pull the files from under
// another that is running.
//
// Why compiled: under the TypeScript loader each module is resolved and loaded through the loader's
// own thread, about 0.25 s of CPU of every command. esbuild (which the loader itself uses to compile
// each file) bundles cli.ts and the modules it imports instead; the packages in node_modules stay
// imports, but for those in BUNDLED. zod is bundled because importing it whole loads 99 modules, 64
// of them its messages in other languages: 47 ms of every command's start, and of each load
// worker's. Bundled, only what the schemas use is kept (180 KB), which loads in 12 ms. Each entry (a
// thread's first module) is one CommonJS file: an ES module entry starts Node's ES module loader
// first; the packages left as imports are `require`d, so each must offer CommonJS (yaml,
// http-server, @parcel/watcher and esbuild do).
//
// Where: node_modules/.cache/journal-cli/<checkout>/, one folder for each checkout, since several
// checkouts may share one node_modules (compiledDir). A compile replaces that folder whole, and its
// stamp (stamp.json) says which sources it was made from: currentCompiledCli compares it with the
// files' change times, a walk of scripts/ (about 1 ms), before every command.
'use strict';
const { isAscii } = require('node:buffer');
const { createHash, randomUUID } = require('node:crypto');
const {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');

const ROOT = path.join(__dirname, '..');
/**
 * The packages compiled into the command line rather than imported (see above). fast-glob (which
 * lists public/) is about 30 CommonJS modules, each resolved, read and compiled on its own: 23 ms of
 * every build's main thread; compiled in, 9 ms.
 */
const BUNDLED = ['zod', 'fast-glob'];
/** The modules that start a thread, under scripts/: each compiled into one file with the modules it imports. */
const ENTRIES = {
  cli: 'cli.ts',
  'load-worker': 'generator/engine/load/load-worker.ts',
  'list-writer-worker': 'generator/engine/write/list-writer-worker.ts',
  'file-writer-worker': 'generator/engine/write/file-writer-worker.ts',
};
/** What a compiled copy was made from, in its folder (written with it, so replaced with it). */
const STAMP = 'stamp.json';
/**
 * A change time this close to the compile's start is not trusted alone: a file saved again within
 * the same tick of the file system's clock (a few ms on Linux, 2 s on FAT) keeps it. Such files
 * are compared by content (racy), as git treats its index's racily clean entries.
 */
const RACY_MS = 3000;

/** The folder of the compiled copy of the checkout at `root`: its name says which checkout, for a person looking. */
function compiledDir(root = ROOT) {
  const scripts = path.join(root, 'scripts');
  const id = createHash('sha256').update(scripts).digest('base64url').slice(0, 12);
  const name = path.basename(root).replace(/[^\w.-]/g, '_');
  return path.join(root, 'node_modules', '.cache', 'journal-cli', `${name}-${id}`);
}

/**
 * The compiled command line (its file) when it is current: made from the files under scripts/ as
 * they are now, with the packages it compiled in (and esbuild) as installed now, and whole (each
 * file of the size it was written). Undefined otherwise: never stale code.
 */
function currentCompiledCli(root = ROOT) {
  try {
    const dir = compiledDir(root);
    const stamp = JSON.parse(readFileSync(path.join(dir, STAMP), 'utf8'));
    if (stamp.scripts !== path.join(root, 'scripts')) return undefined;
    // A file cut short (a copy of node_modules interrupted, a disk that filled) would run part of the code.
    for (const [name, size] of Object.entries(stamp.sizes))
      if (lstatSync(path.join(dir, name), { throwIfNoEntry: false })?.size !== size) return undefined;
    for (const [file, time] of Object.entries(packageTimes(root))) if (stamp.packages[file] !== time) return undefined;
    for (const entry of codeEntries(root)) {
      if (entry.time > stamp.newest) return undefined;
      if (entry.time > stamp.racyFrom && stamp.racy[nameOf(root, entry)] !== digestOf(entry)) return undefined;
    }
    return path.join(dir, 'cli.cjs');
  } catch {
    return undefined;
  }
}

/**
 * The compiled command line to run `command` with: the current copy, or for `build` (whose first
 * step this is) a copy compiled now; undefined when the sources are to run through the loader.
 */
async function compiledCliFor(command, root = ROOT) {
  const current = currentCompiledCli(root);
  if (current || command !== 'build') return current;
  try {
    return await compileCli(root);
  } catch {
    // No esbuild, a read-only node_modules, a syntax error: the loader runs the sources (and says
    // what is wrong in them).
    return undefined;
  }
}

/**
 * Every folder and file under scripts/ with its time: the later of its modification and change
 * times (a file put back with its old modification time, or moved in, has a new change time; a
 * file added, removed or renamed changes its folder's). Walked folder by folder: `readdirSync`'s
 * own recursive listing took 2 to 2.5 ms, this 1 ms.
 */
function codeEntries(root) {
  const entries = [];
  const folders = [path.join(root, 'scripts')];
  while (folders.length > 0) {
    const folder = folders.pop();
    const names = [];
    for (const dirent of readdirSync(folder, { withFileTypes: true })) {
      const file = path.join(folder, dirent.name);
      names.push(dirent.name);
      if (dirent.isDirectory()) folders.push(file);
      else entries.push({ file, names: undefined, time: timeOf(file) });
    }
    entries.push({ file: folder, names, time: timeOf(folder) });
  }
  return entries;
}

function timeOf(file) {
  const stat = lstatSync(file);
  return Math.max(stat.mtimeMs, stat.ctimeMs);
}

/** An entry's name in the stamp: its path under scripts/, with forward slashes. */
function nameOf(root, entry) {
  return path.relative(path.join(root, 'scripts'), entry.file).split(path.sep).join('/');
}

/** A recent entry's digest: a file's content, a folder's names. */
function digestOf(entry, bytes) {
  const hash = createHash('sha256');
  if (entry.names) hash.update([...entry.names].sort().join('\n'));
  else hash.update(bytes ?? readFileSync(entry.file));
  return hash.digest('base64url');
}

/** The package files of esbuild and of the packages compiled in, with their times (0: not installed). */
function packageTimes(root) {
  const times = {};
  for (const name of ['esbuild', ...BUNDLED]) {
    const stat = lstatSync(path.join(root, 'node_modules', name, 'package.json'), { throwIfNoEntry: false });
    times[name] = stat ? Math.max(stat.mtimeMs, stat.ctimeMs) : 0;
  }
  return times;
}

/**
 * Compiles the entries into the checkout's folder (compiledDir), replacing what was there, and
 * returns the compiled command line's file. The stamp is taken before esbuild reads a file: a file
 * changed while it compiles is newer than the stamp, or recent and compared by content, so the
 * copy is then not current. The code is told the key of what it is compiled from
 * (`COMPILED_CODE_KEY`: the build cache is keyed by the code, generator/engine/cache/cache.ts,
 * and the key says so without reading the sources again), its folder (`COMPILED_CODE_DIR`, where
 * its threads' files are) and the compile's id (`COMPILED_CODE_ID`: a thread starts from the
 * folder only while it holds the same compile, generator/engine/start-thread.ts).
 */
async function compileCli(root = ROOT) {
  const { build, transform } = await import('esbuild');
  const scripts = path.join(root, 'scripts');
  const dir = compiledDir(root);
  const racyFrom = Date.now() - RACY_MS;
  const packages = packageTimes(root);
  const entries = codeEntries(root)
    .map((entry) => ({ ...entry, name: nameOf(root, entry) }))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
  const key = createHash('sha256');
  for (const name of ['esbuild', ...BUNDLED]) {
    const manifest = path.join(root, 'node_modules', name, 'package.json');
    key.update(`\n${name}\n`).update(existsSync(manifest) ? readFileSync(manifest) : '');
  }
  const racy = {};
  let newest = 0;
  for (const entry of entries) {
    newest = Math.max(newest, entry.time);
    const bytes = entry.names ? undefined : readFileSync(entry.file);
    if (bytes) key.update(`\n${entry.name}\n`).update(bytes);
    if (entry.time > racyFrom) racy[entry.name] = digestOf(entry, bytes);
  }
  const id = randomUUID();
  const staging = `${dir}.${id}.staging`;
  try {
    await build({
      entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, path.join(scripts, file)])),
      outdir: staging,
      outExtension: { '.js': '.cjs' },
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      sourcemap: true,
      // The maps are read only with source maps enabled: the sources are next to them.
      sourcesContent: false,
      logLevel: 'silent',
      define: {
        COMPILED_CODE_KEY: JSON.stringify(key.digest('base64url').slice(0, 20)),
        COMPILED_CODE_DIR: JSON.stringify(dir),
        COMPILED_CODE_ID: JSON.stringify(id),
      },
      plugins: [packagesImportedBut(BUNDLED), ownModuleUrls],
    });
    await inAscii(path.join(staging, 'cli.cjs'), transform);
    const sizes = {};
    for (const name of Object.keys(ENTRIES)) sizes[`${name}.cjs`] = lstatSync(path.join(staging, `${name}.cjs`)).size;
    writeFileSync(
      path.join(staging, STAMP),
      `${JSON.stringify({ id, scripts, newest, racyFrom, racy, packages, sizes }, null, 1)}\n`,
    );
    replaceFolder(dir, staging, id);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  pruneOthers(path.dirname(dir));
  return path.join(dir, 'cli.cjs');
}

/** A folder being compiled (`.staging`) or replaced (`.old`) is another command's for this long. */
const UNFINISHED_MS = 3_600_000;

/**
 * Removes the copies of checkouts that are gone (their stamp names sources no longer there), what
 * an interrupted compile left, and anything else in the cache's folder (an older layout's copies).
 */
function pruneOthers(cache) {
  for (const name of readdirSync(cache)) {
    const folder = path.join(cache, name);
    try {
      if (/\.(staging|old)$/.test(name)) {
        if (Date.now() - lstatSync(folder).mtimeMs < UNFINISHED_MS) continue;
      } else if (existsSync(JSON.parse(readFileSync(path.join(folder, STAMP), 'utf8')).scripts)) continue;
    } catch {
      // no stamp: not a copy of this layout
    }
    rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * Puts the compiled `staging` folder in place of `dir`. A command still running from the old copy
 * starts its threads from the sources (start-thread.ts). Two compiles at once: the one that comes
 * second finds the folder taken and leaves it, a copy of the same sources.
 */
function replaceFolder(dir, staging, id) {
  mkdirSync(path.dirname(dir), { recursive: true });
  const old = `${dir}.${id}.old`;
  try {
    renameSync(dir, old);
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
  }
  try {
    renameSync(staging, dir);
  } catch (error) {
    if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
  } finally {
    rmSync(old, { recursive: true, force: true });
  }
}

/**
 * Makes the command line's compiled `file` ASCII where only comments are not: esbuild escapes every
 * other character of the code, but keeps a comment's (one of zod's has a dash). Each such character
 * (each UTF-16 unit, as source maps count) becomes `?`, if that leaves the code the same once
 * esbuild has dropped every comment from both. Decoded from UTF-8 with one character outside
 * ASCII, the file was a string of two bytes a character, which took 1.5 ms longer to read and 1 ms
 * longer to compile.
 */
async function inAscii(file, transform) {
  const bytes = readFileSync(file);
  if (isAscii(bytes)) return;
  const code = bytes.toString('utf8');
  const ascii = code.replace(/[\u0080-\uffff]/g, '?');
  const bare = async (text) => (await transform(text, { minifyWhitespace: true, logLevel: 'silent' })).code;
  if ((await bare(code)) === (await bare(ascii))) writeFileSync(file, ascii);
}

/**
 * Every package stays an import (as esbuild's `packages: 'external'`), but those in `bundled`, with
 * the packages they import in turn (a package compiled in whose own packages were left out would
 * still load them one CommonJS module at a time). A path is no package: it starts with `/`, `./`
 * or `../` (esbuild's own test), or is absolute.
 */
function packagesImportedBut(bundled) {
  return {
    name: 'packages-imported-but',
    setup(build) {
      build.onResolve({ filter: /^[^./]|^\.[^./]|^\.\.[^/]/ }, (args) => {
        if (path.isAbsolute(args.path)) return undefined; // an entry point, on Windows
        if (args.importer.split(path.sep).includes('node_modules')) return undefined; // a bundled package's own
        const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0];
        return bundled.includes(name) ? undefined : { path: args.path, external: true };
      });
    },
  };
}

/**
 * The modules find their workers and the sources they fingerprint relative to their own file
 * (`new URL('./worker-boot.mjs', import.meta.url)`): each keeps its own URL in the bundle, where
 * `import.meta.url` would otherwise be the bundle's.
 */
const ownModuleUrls = {
  name: 'own-module-urls',
  setup(build) {
    build.onLoad({ filter: /\.[cm]?ts$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8')
        .replace(/\bimport\.meta\.url\b/g, JSON.stringify(pathToFileURL(args.path).href))
        .replace(/\bimport\.meta\.dirname\b/g, JSON.stringify(path.dirname(args.path)))
        .replace(/\bimport\.meta\.filename\b/g, JSON.stringify(args.path));
      return { contents: source, loader: 'ts' };
    });
  },
};

/** `node scripts/compile-cli.cjs` (the `prepare` script): compiles the command line of this checkout. */
async function compileHere() {
  try {
    await compileCli();
  } catch (error) {
    // The install goes on: the command line then runs its sources through the loader, more slowly.
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    console.error(`The command line could not be compiled (${reason}): it runs from its sources, more slowly.`);
  }
}

if (require.main === module) void compileHere();

module.exports = { ENTRIES, compileCli, compiledCliFor, compiledDir, currentCompiledCli };
