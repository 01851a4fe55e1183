// Where a build runs: a large journal's build on Linux (and its export, which builds into a folder
// of its own) in a child process, with settings that can only be given when a process starts;
// anything else in the command line's own process (cli.cjs). Deciding it before the loader and the
// command's modules load costs one Node start (about 50 ms) rather than two starts of the whole
// command line. Plain JavaScript: cli.cjs runs it before any TypeScript can load. Types:
// build-process.d.cts.
//
// The settings, measured at 100,000 manuscripts:
// - glibc gives every thread that allocates its own malloc arena, and keeps in it what the load
//   workers and the compression threads freed: 160 MB of the build's peak (988 MiB with the
//   default, 826 MiB with two arenas). With one, the threads waited on its lock: the system time of
//   a cold build doubled for 20 MB less.
// - glibc raises its threshold for serving an allocation from its own mapping (freed to the system
//   at once) up to 32 MB as large blocks are freed, so the lists' buffers and the compression
//   threads' blocks end up in the arenas, kept after they are freed. A fixed 128 KB (its initial
//   value) took the cold build's peak from 985 to 952 and from 1,003 to 933 MiB in two pairs of
//   runs, for about 2 s more CPU.
// - A young generation of 32 MB semi-spaces (V8's default is 16): a page's text lives until its
//   file is written, long enough to be promoted and collected again with the records. It saved
//   about 10 s of CPU in garbage collection for no measurable memory (64 MB saved 15 s but added
//   100 MB).
// - The old generation grows by a quarter of what it holds: V8's own factor (up to four times)
//   peaked at 1,230 MiB in a cold build; 15% saved another 50 to 70 MiB for 11 s more CPU. `gc()`
//   is exposed for one full collection once loading is done, and for two in the write stage
//   (cli.ts, withCollections). A build
//   after an edit (a build cache newer than the journal's settings, whose change invalidates it)
//   takes nearly every record from the index, without their long fields, and renders few pages:
//   a quarter's growth from its start made it collect again and again while it restored 250,000
//   records, and V8's own factor peaked too near 1 GiB; it grows by half (CHILD_AFTER_EDIT).
// A small journal needs none of them: its peak is a few hundred MB at most, and the child's start
// would cost more than they save (LARGE_JOURNAL). The same build in both ways writes the same
// bytes (test/build-process.test.ts).
'use strict';
const { opendirSync, statSync } = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');

/**
 * Manuscript files from which a build runs in a child process. Cold builds with the output in
 * memory, alternating: at 10,000 manuscripts the child's settings took 5.88 to 7.66 s against 7.71
 * to 8.86 s without (and 272 to 278 against 295 to 334 MiB); at 1,000, 1.20 to 1.71 s against 1.16
 * to 1.76 s, no difference the child's own start (about 50 ms) would not cancel. The gain grows
 * with the journal (the semi-spaces' saving in garbage collection), the start does not.
 */
const LARGE_JOURNAL = 2_000;

const ENV = Object.freeze({ MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' });
/** The child's V8 flags and environment, for a cold build. */
const CHILD = Object.freeze({
  execArgv: Object.freeze(['--max-semi-space-size=32', '--heap-growing-percent=25', '--expose-gc']),
  env: ENV,
});
/**
 * The same for a build after an edit: half again what the heap holds. Outputs keyed by what they
 * read keep more alive after an edit (the previous build's reads, a proxy per record), and V8's own
 * factor peaked at 987 to 999 MiB there at 100,000 manuscripts; 50% peaked at 923 to 928 MiB for
 * about 0.5 s more (alternating runs), and 35% gained nothing more.
 */
const CHILD_AFTER_EDIT = Object.freeze({
  execArgv: Object.freeze(['--max-semi-space-size=32', '--heap-growing-percent=50', '--expose-gc']),
  env: ENV,
});
/** The build cache's index, as project.ts places it (under the working directory). */
const CACHE_INDEX = path.join('.cache', 'journal-build', 'check-index.bin');

/**
 * The child process a command (`args`, after `node cli.cjs`) runs in, or undefined to run it here:
 * a build or an export on Linux of a content folder of at least LARGE_JOURNAL manuscripts, unless
 * this process already has the allocator's settings (it is the child, or they were given).
 */
function buildProcess(args, env, platform, cwd = process.cwd()) {
  const [command, ...rest] = args;
  if (command !== 'build' && command !== 'export') return undefined;
  if (platform !== 'linux' || env.MALLOC_ARENA_MAX !== undefined) return undefined;
  const content = contentFolder(rest, cwd);
  if (!holdsAtLeast(path.join(content, 'manuscripts'), LARGE_JOURNAL)) return undefined;
  return command === 'build' && !rest.includes('--no-cache') && afterEdit(content, cwd) ? CHILD_AFTER_EDIT : CHILD;
}

/** Whether the build cache's index is there, and newer than the journal's settings (whose change invalidates it). */
function afterEdit(content, cwd) {
  const index = statSync(path.resolve(cwd, CACHE_INDEX), { throwIfNoEntry: false });
  if (!index) return false;
  return JOURNAL_FILES.every(
    (name) => (statSync(path.join(content, name), { throwIfNoEntry: false })?.mtimeMs ?? 0) < index.mtimeMs,
  );
}

/** The names the journal's settings may have (discover.ts). */
const JOURNAL_FILES = ['journal.yaml', 'journal.yml', 'journal.json'];

/** Whether the folder holds at least `count` entries: read only as far as that (a few ms at 100,000). */
function holdsAtLeast(folder, count) {
  let dir;
  try {
    dir = opendirSync(folder, { bufferSize: 1024 });
    let entries = 0;
    while (entries < count && dir.readSync() !== null) entries++;
    return entries >= count;
  } catch {
    return false;
  } finally {
    dir?.closeSync();
  }
}

/** The content folder the command names (`--content`), as cli.ts reads it, from the working directory. */
function contentFolder(args, cwd) {
  try {
    const { values } = parseArgs({ args, strict: false, options: { content: { type: 'string' } } });
    return path.resolve(cwd, typeof values.content === 'string' ? values.content : 'content');
  } catch {
    return path.resolve(cwd, 'content');
  }
}

module.exports = { LARGE_JOURNAL, CHILD, CHILD_AFTER_EDIT, buildProcess };
