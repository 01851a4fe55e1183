// The command line compiled into plain JavaScript, once per change of the code. Under the
// TypeScript loader, each module is resolved and loaded through the loader's own thread: at startup
// that was about 0.25 s of CPU of every command, a sixth of `check` after one edit at 100,000
// manuscripts, and it competed with the threads that stamp the content. esbuild (which the loader
// itself uses to compile each file) bundles cli.ts and the modules it imports instead; the packages
// in node_modules stay imports, but for those in BUNDLED. zod is bundled because importing it whole
// loads 99 modules, 64 of them its messages in other languages: 47 ms of every command's start, and
// of each load worker's. Bundled, only what the schemas use is kept (180 KB), which loads in 12 ms.
//
// Each entry (a thread's first module) is compiled into one CommonJS file, and the command line runs
// from V8's code cache of its file (runCompiledCli): V8 compiles a script's functions to bytecode
// the first time each runs, and a command's run takes the bytecode its previous run left. At 1,000
// manuscripts that is about 25 ms of the 0.17 s of `check` after one edit, and 70 ms of a cold
// build's 1.1 s (docs/performance.md). Node 20 keeps no code cache of ES modules, hence CommonJS; the
// packages left as imports are `require`d, so each must offer CommonJS (yaml, http-server,
// @parcel/watcher and esbuild do).
//
// The compiled copy lives in node_modules/.cache/, keyed by the content of every file under
// scripts/, where they are, and the versions of esbuild and of the bundled packages (the key is
// remembered under the files' stamps: stampedKey): an edit to any of them compiles again (about
// 0.2 s, once), and nothing can run stale code. Whatever goes wrong here (no esbuild, a read-only
// node_modules, a syntax error) returns nothing, and cli.cjs runs the sources through the loader
// as before.
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
  statSync,
  writeFileSync,
} = require('node:fs');
const { createRequire } = require('node:module');
const path = require('node:path');
const { fileURLToPath, pathToFileURL } = require('node:url');
const vm = require('node:vm');

const ROOT = path.join(__dirname, '..');
const STAGING = '.staging';
/**
 * The packages compiled into the command line rather than imported (see above). fast-glob (which
 * lists public/) is about 30 CommonJS modules, each resolved, read and compiled on its own: 23 ms of
 * every build's main thread; compiled in, 9 ms.
 */
const BUNDLED = ['zod', 'fast-glob'];
/** Compiled copies kept: a command still running from an older one may yet start one of its workers. */
const KEPT = 3;
/** Keys remembered under the files' stamps (stampedKey). */
const KEPT_KEYS = 16;
/** A stamp younger than this is not trusted: a file changed right after it was read could keep it. */
const RACY_MS = 3000;

/** The modules that start a thread, under scripts/: each compiled into one file with the modules it imports. */
const ENTRIES = {
  cli: 'cli.ts',
  'load-worker': 'generator/engine/load/load-worker.ts',
  'list-writer-worker': 'generator/engine/write/list-writer-worker.ts',
  'file-writer-worker': 'generator/engine/write/file-writer-worker.ts',
};

/**
 * The URL of the compiled command line (scripts/cli.ts) for the code of `root` as it is now,
 * compiled first if need be; undefined if it cannot be.
 */
function compiledCli(root = ROOT) {
  return compiledEntry('cli', { root, compile: true });
}

/** Where a compiled copy keeps V8's code caches of its command line (runCompiledCli). */
const CODE_CACHES = 'code-cache';
/** At most this many code caches a copy: one a command and set of Node options, a few in practice. */
const KEPT_CODE_CACHES = 16;

/**
 * Runs the compiled command line (scripts/cli.ts) in this thread, for the command in `argv`; false
 * if it cannot be compiled. The bytecode of the command's previous run is taken from its code cache,
 * which the run leaves when there was none or V8 refused it (a new Node, other V8 options): each
 * command and set of Node options has its own, so that each finds the functions it runs. V8 checks
 * a cache against its own version and flags and its source's length; a cache lives in the compiled
 * copy's folder, whose key is its source's, under the compiled file's stamp (codeCacheName), and is
 * written whole or not at all (renamed into place). The source map is read only when asked for
 * (NODE_OPTIONS=--enable-source-maps, which an internal error's report suggests: the file is then
 * required as it is, and Node reads its map): reading it took about 13 ms of every command's start.
 */
async function runCompiledCli(argv = process.argv, root = ROOT) {
  const compiled = await wholeCompiledCli(root);
  if (!compiled) return false;
  const { file, source } = compiled;
  if (process.sourceMapsEnabled) {
    createRequire(file)(file);
    return true;
  }
  const caches = path.join(path.dirname(file), CODE_CACHES);
  const cache = path.join(caches, `${codeCacheName(argv, statSync(file))}.bin`);
  let cachedData;
  try {
    cachedData = readFileSync(cache);
  } catch {
    // none yet: this run leaves one
  }
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  if (!cachedData || script.cachedDataRejected) process.once('exit', () => keepCodeCache(script, caches, cache));
  const module = { exports: {} };
  script.runInThisContext().call(module.exports, module.exports, createRequire(file), module, file, path.dirname(file));
  return true;
}

/**
 * The compiled command line's file and text, compiled again first when the file was cut short (a
 * copy of node_modules interrupted, a disk that filled while it was restored): it then failed
 * with a SyntaxError, or ran part of the code. esbuild ends every file it writes with its source
 * map's comment, which a file cut short has lost. One line says so; the command then runs as usual.
 */
async function wholeCompiledCli(root) {
  for (let again = false; ; again = true) {
    const url = await compiledCli(root);
    if (!url) return undefined;
    const file = fileURLToPath(url);
    const source = readSource(file);
    // Compiled again, it is taken as it is: a file esbuild has just written is whole.
    if (again || source.endsWith(`\n//# sourceMappingURL=${path.basename(file)}.map\n`)) return { file, source };
    console.error(`The compiled command line (${path.relative(root, file)}) was cut short: it is compiled again.`);
    rmSync(path.dirname(file), { recursive: true, force: true });
  }
}

/**
 * The compiled file's text. In ASCII (inAscii), it is read one byte a character, as V8 keeps it:
 * decoded from UTF-8 with one character outside ASCII, it was a string of two bytes a character,
 * which took 1.5 ms longer to read and 1 ms longer to compile from the code cache.
 */
function readSource(file) {
  const bytes = readFileSync(file);
  return bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
}

/**
 * The command (its name, as typed) and a digest of the Node options it runs with, which V8's flags
 * follow (a large build's process starts with options of its own: build-process.cjs), and of the
 * compiled file's stamp: V8 checks a cache against its source's length only, and a file changed in
 * place by hand would otherwise run its old code.
 */
function codeCacheName(argv, stat) {
  const command = /^[a-z][a-z-]{0,31}$/.test(argv[2] ?? '') ? argv[2] : 'other';
  const options = `${process.execArgv.join('\n')}\n${process.env.NODE_OPTIONS ?? ''}\n${stat.size} ${stat.mtimeMs} ${stat.ino}`;
  return `${command}-${createHash('sha256').update(options).digest('base64url').slice(0, 12)}`;
}

/** Writes the code cache of `script` as it is now, with every function this run compiled; best effort. */
function keepCodeCache(script, caches, cache) {
  const staging = `${cache}.${randomUUID()}${STAGING}`;
  try {
    // Not recursive: a copy pruned while this command ran stays gone.
    if (!existsSync(caches)) mkdirSync(caches);
    if (!existsSync(cache) && readdirSync(caches).length >= KEPT_CODE_CACHES) return;
    writeFileSync(staging, script.createCachedData());
    renameSync(staging, cache);
  } catch {
    rmSync(staging, { force: true });
  }
}

/**
 * The URL of one compiled entry (ENTRIES) for the code as it is now. A worker asks with
 * `compile: false`: the command line that started it compiled the code; under anything else (the
 * tests), the worker runs its sources through the TypeScript loader.
 */
async function compiledEntry(name, { root = ROOT, compile: compileIfMissing = false } = {}) {
  try {
    const scripts = path.join(root, 'scripts');
    const cache = path.join(root, 'node_modules', '.cache', 'journal-cli');
    const key = stampedKey(root, scripts, cache);
    const dir = path.join(cache, key);
    const entry = path.join(dir, `${name}.cjs`);
    if (!existsSync(entry)) {
      if (!compileIfMissing) return undefined;
      await compile(scripts, dir, cache, key);
    }
    return pathToFileURL(entry).href;
  } catch {
    return undefined;
  }
}

/**
 * The code's key (codeKey), remembered under the stamps (size, modification time, inode) of the
 * files it reads: reading and hashing the 100 files under scripts/ (900 KB) took 15 to 20 ms of
 * every command, and again of each worker thread it starts (worker-boot.mjs), where their stamps
 * take about 1 ms. A key is remembered only when every stamp is older than RACY_MS, as git trusts
 * its index: a file rewritten within the same clock tick keeps its stamp. Whatever goes wrong
 * here, the key is computed from the contents.
 */
function stampedKey(root, scripts, cache) {
  const files = codeFiles(root, scripts);
  const stamps = createHash('sha256').update(`${scripts}\n`);
  const now = Date.now();
  let trusted = true;
  for (const file of files) {
    const stat = lstatSync(file, { throwIfNoEntry: false });
    if (!stat) {
      stamps.update(`\n${file}\n-`);
      continue;
    }
    stamps.update(`\n${file}\n${stat.size} ${stat.mtimeMs} ${stat.ino} ${stat.ctimeMs}`);
    if (now - stat.mtimeMs < RACY_MS || now - stat.ctimeMs < RACY_MS) trusted = false;
  }
  const keys = path.join(cache, KEYS);
  const remembered = path.join(keys, stamps.digest('base64url').slice(0, 24));
  try {
    const key = readFileSync(remembered, 'utf8');
    if (/^[\w-]{20}$/.test(key)) return key;
  } catch {
    // not remembered: computed below
  }
  const key = codeKey(root, scripts, files);
  if (trusted) {
    try {
      mkdirSync(keys, { recursive: true });
      const staging = `${remembered}.${randomUUID()}`;
      writeFileSync(staging, key);
      renameSync(staging, remembered);
      pruneKeys(keys);
    } catch {
      // a read-only cache: the key is computed each time
    }
  }
  return key;
}

/** Where the remembered keys are, in the cache folder (never taken for a compiled copy). */
const KEYS = '.keys';

/**
 * The files the code's key reads: every file under scripts/ (sorted, so the key does not depend on
 * directory order), the package file of esbuild and of the packages bundled. Walked folder by
 * folder: `readdirSync`'s own recursive listing took 2 to 2.5 ms of every command, this 1 ms.
 */
function codeFiles(root, scripts) {
  const files = [];
  const folders = [scripts];
  while (folders.length > 0) {
    const folder = folders.pop();
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const file = path.join(folder, entry.name);
      if (entry.isDirectory()) folders.push(file);
      else if (entry.isFile()) files.push(file);
    }
  }
  files.sort();
  return [
    path.join(root, 'node_modules', 'esbuild', 'package.json'),
    ...BUNDLED.map((name) => path.join(root, 'node_modules', name, 'package.json')),
    ...files,
  ];
}

/**
 * Every file under scripts/, the package files of esbuild and of the packages bundled, and where
 * the sources are: the compiled modules find their workers there.
 */
function codeKey(root, scripts, files = codeFiles(root, scripts)) {
  const hash = createHash('sha256').update(`${scripts}\n`);
  hash.update(readFileSync(path.join(root, 'node_modules', 'esbuild', 'package.json')));
  // A bundled package that is not installed is imported by no module of this checkout.
  for (const name of BUNDLED) {
    const manifest = path.join(root, 'node_modules', name, 'package.json');
    hash.update(`\n${name}\n`).update(existsSync(manifest) ? readFileSync(manifest) : '');
  }
  for (const file of files.slice(1 + BUNDLED.length))
    hash.update(`\n${path.relative(scripts, file)}\n`).update(readFileSync(file));
  return hash.digest('base64url').slice(0, 20);
}

/** Keeps the newest remembered keys only. */
function pruneKeys(keys) {
  keepNewest(keys, readdirSync(keys), KEPT_KEYS);
}

/**
 * Compiles the entries into `dir`. The code is told the key it is compiled under
 * (`COMPILED_CODE_KEY`): the build cache is keyed by the code (generator/engine/cache/cache.ts),
 * and the key says so without reading the sources again. It is told its folder too
 * (`COMPILED_CODE_DIR`), where its threads' files are (generator/engine/start-thread.ts).
 */
async function compile(scripts, dir, cache, key) {
  const { build, transform } = await import('esbuild');
  // Its own staging folder: two commands (or two threads of one) may compile the same code at once.
  const staging = `${dir}.${randomUUID()}${STAGING}`;
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
      // The maps are read only with source maps enabled (runCompiledCli): the sources are next to them.
      sourcesContent: false,
      logLevel: 'silent',
      define: { COMPILED_CODE_KEY: JSON.stringify(key), COMPILED_CODE_DIR: JSON.stringify(dir) },
      plugins: [packagesImportedBut(BUNDLED), ownModuleUrls],
    });
    await inAscii(path.join(staging, 'cli.cjs'), transform);
    renameSync(staging, dir);
  } catch (error) {
    // Another command may have compiled the same code at the same time: its copy is as good.
    if (!existsSync(path.join(dir, 'cli.cjs'))) throw error;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  prune(cache);
}

/**
 * Makes the command line's compiled `file` ASCII (readSource) where only comments are not: esbuild
 * escapes every other character of the code, but keeps a comment's (one of zod's has a dash). Each
 * such character (each UTF-16 unit, as source maps count) becomes `?`, if that leaves the code the
 * same once esbuild has dropped every comment from both.
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

/** Keeps the newest compiled copies only (copies being written by other commands are theirs to finish). */
function prune(cache) {
  keepNewest(
    cache,
    readdirSync(cache).filter((name) => !name.endsWith(STAGING) && name !== KEYS),
    KEPT,
  );
}

/** Removes all but the `count` most recently modified of `names` in `folder` (one another command removed counts as oldest). */
function keepNewest(folder, names, count) {
  if (names.length <= count) return;
  const known = names
    .map((name) => ({ name, time: statSync(path.join(folder, name), { throwIfNoEntry: false })?.mtimeMs ?? 0 }))
    .sort((a, b) => b.time - a.time);
  for (const old of known.slice(count)) rmSync(path.join(folder, old.name), { recursive: true, force: true });
}

module.exports = { ENTRIES, compiledCli, compiledEntry, runCompiledCli };
