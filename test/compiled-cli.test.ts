/**
 * The command line runs compiled once, at install and by `npm run build` when scripts/ changed
 * (scripts/compile-cli.cjs). What a developer relies on: an edit to any source is never run stale
 * (the compiled copy is then not current, and the sources run through the loader), each module
 * still finds its neighbours (workers) next to its own source, and checkouts sharing node_modules
 * never take each other's compiled files.
 */
import { isAscii } from 'node:buffer';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rename, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { compileCli, compiledCliFor, compiledDir, currentCompiledCli, ENTRIES } from '../scripts/compile-cli.cjs';
import { compiledThreadFile } from '../scripts/generator/engine/start-thread.ts';
import { REPO_ROOT } from './helpers/workspace.ts';

const run = promisify(execFile);
const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});

const WORKERS = ['load-worker', 'list-writer-worker', 'file-writer-worker'] as const;

/** A code checkout of two modules and the workers, with esbuild among its packages or without it. */
async function checkout(value: string, packages = true): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'journal-code-'));
  roots.push(dir);
  await mkdir(path.join(dir, 'scripts', 'generator'), { recursive: true });
  await writeFile(
    path.join(dir, 'scripts', 'cli.ts'),
    "import { value, here } from './generator/value.ts';\nconsole.log(JSON.stringify({ value, here }));\n",
  );
  await writeValue(dir, value);
  for (const [name, file] of Object.entries(ENTRIES)) {
    if (name === 'cli') continue;
    const worker = path.join(dir, 'scripts', file);
    const value = path
      .relative(path.dirname(worker), path.join(dir, 'scripts', 'generator', 'value.ts'))
      .split(path.sep)
      .join('/');
    await mkdir(path.dirname(worker), { recursive: true });
    await writeFile(
      worker,
      `import { value } from './${value}';\nconsole.log(JSON.stringify({ value, here: '${name.replaceAll('-', ' ')}' }));\n`,
    );
  }
  await mkdir(path.join(dir, 'node_modules'));
  if (packages)
    await symlink(path.join(REPO_ROOT, 'node_modules', 'esbuild'), path.join(dir, 'node_modules', 'esbuild'));
  return dir;
}

const valueFile = (root: string) => path.join(root, 'scripts', 'generator', 'value.ts');
const writeValue = (root: string, value: string) =>
  writeFile(
    valueFile(root),
    `export const value: string = '${value}';\nexport const here = new URL('./worker.mjs', import.meta.url).href;\n`,
  );

/** Runs a compiled file as cli.cjs does (require), with `options` for Node. */
const runCompiled = async (file: string, options: string[] = []) =>
  JSON.parse((await run(process.execPath, [...options, file])).stdout) as { value: string; here: string };

describe('the compiled command line', () => {
  it('is current until any file under scripts/ changes; then it is not, until compiled again', async () => {
    const root = await checkout('first');
    expect(currentCompiledCli(root)).toBeUndefined();
    const compiled = await compileCli(root);
    expect(currentCompiledCli(root)).toBe(compiled);
    expect((await runCompiled(compiled)).value).toBe('first');

    await writeValue(root, 'second');
    expect(currentCompiledCli(root)).toBeUndefined();
    // `check` runs the sources then; `build` compiles first.
    expect(await compiledCliFor('check', root)).toBeUndefined();
    expect(await compiledCliFor('build', root)).toBe(compiled);
    expect(currentCompiledCli(root)).toBe(compiled);
    expect((await runCompiled(compiled)).value).toBe('second');
    // One folder for the checkout: no copy kept per version of the code.
    expect(await readdir(path.dirname(path.dirname(compiled)))).toEqual([path.basename(path.dirname(compiled))]);
  });

  it('never runs stale code through cli.cjs: `check` runs an edited source through the loader, `build` compiles it first', async () => {
    const root = await checkout('first');
    for (const file of ['cli.cjs', 'compile-cli.cjs', 'build-process.cjs', 'node-version.cjs'])
      await writeFile(path.join(root, 'scripts', file), await readFile(path.join(REPO_ROOT, 'scripts', file)));
    await symlink(path.join(REPO_ROOT, 'node_modules', 'tsx'), path.join(root, 'node_modules', 'tsx'));
    await writeFile(path.join(root, 'package.json'), '{ "type": "module" }\n');
    const say = (value: string) =>
      writeFile(
        valueFile(root),
        `declare const COMPILED_CODE_ID: string;\nexport const value = '${value}';\nexport const here = typeof COMPILED_CODE_ID === 'string' ? 'compiled' : 'sources';\n`,
      );
    const command = async (name: string) =>
      JSON.parse((await run(process.execPath, [path.join(root, 'scripts', 'cli.cjs'), name])).stdout) as unknown;
    await say('one');
    expect(await command('check')).toEqual({ value: 'one', here: 'sources' });
    expect(await command('build')).toEqual({ value: 'one', here: 'compiled' });
    expect(await command('check')).toEqual({ value: 'one', here: 'compiled' });
    await say('two');
    expect(await command('check')).toEqual({ value: 'two', here: 'sources' });
    expect(await command('build')).toEqual({ value: 'two', here: 'compiled' });
    expect(await command('check')).toEqual({ value: 'two', here: 'compiled' });
  });

  it('is never current after a file is added, removed, renamed, or rewritten with its time put back', async () => {
    const root = await checkout('old');
    const past = new Date(Date.now() - 3600_000);
    const edits: ((scripts: string) => Promise<void>)[] = [
      (scripts) => writeFile(path.join(scripts, 'generator', 'added.ts'), 'export {};\n'),
      (scripts) => rename(path.join(scripts, 'generator', 'added.ts'), path.join(scripts, 'generator', 'renamed.ts')),
      (scripts) => rm(path.join(scripts, 'generator', 'renamed.ts')),
      async () => {
        // The same size, its modification time put back: its change time tells.
        const { mtime } = await stat(valueFile(root));
        await writeFile(valueFile(root), (await readFile(valueFile(root), 'utf8')).replace("'old'", "'new'"));
        await utimes(valueFile(root), mtime, mtime);
      },
    ];
    for (const edit of edits) {
      for (const entry of await readdir(path.join(root, 'scripts'), { recursive: true, withFileTypes: true }))
        await utimes(path.join(entry.parentPath, entry.name), past, past);
      await compileCli(root);
      expect(currentCompiledCli(root)).toBeDefined();
      await edit(path.join(root, 'scripts'));
      expect(currentCompiledCli(root), String(edit)).toBeUndefined();
    }
    expect((await runCompiled(await compileCli(root))).value).toBe('new');
  });

  it('is not current when an edit lands right after the compile, within the same tick of the clock', async () => {
    const root = await checkout('a');
    for (const value of ['b', 'c', 'd']) {
      await compileCli(root);
      await writeValue(root, value);
      expect(currentCompiledCli(root)).toBeUndefined();
    }
    // A clock that ticks coarsely gives the edit the compile's own time: recent files are compared by content.
    const stamp = path.join(compiledDir(root), 'stamp.json');
    const inTheSameTick = async () => {
      const { mtimeMs, ctimeMs } = await stat(valueFile(root));
      const written = JSON.parse(await readFile(stamp, 'utf8')) as { newest: number };
      await writeFile(stamp, JSON.stringify({ ...written, newest: Math.max(written.newest, mtimeMs, ctimeMs) }));
    };
    await compileCli(root);
    await writeValue(root, 'd');
    await inTheSameTick();
    expect(currentCompiledCli(root)).toBeDefined();
    await writeValue(root, 'e');
    await inTheSameTick();
    expect(currentCompiledCli(root)).toBeUndefined();
  });

  it('gives each checkout sharing node_modules its own copy: compiling one leaves the other whole and current', async () => {
    const root = await checkout('one');
    const other = await checkout('two');
    await rm(path.join(other, 'node_modules'), { recursive: true });
    await symlink(path.join(root, 'node_modules'), path.join(other, 'node_modules'));
    const first = await compileCli(root);
    const workers = await Promise.all(WORKERS.map((name) => readFile(path.join(path.dirname(first), `${name}.cjs`))));
    for (let edit = 0; edit < 3; edit++) {
      await writeValue(other, `two ${edit}`);
      await compileCli(other);
    }
    expect(currentCompiledCli(root)).toBe(first);
    expect(currentCompiledCli(other)).not.toBe(first);
    for (const [index, name] of WORKERS.entries())
      expect(await readFile(path.join(path.dirname(first), `${name}.cjs`)), name).toEqual(workers[index]);
    expect(await runCompiled(first)).toEqual({
      value: 'one',
      here: pathToFileURL(path.join(root, 'scripts', 'generator', 'worker.mjs')).href,
    });
    expect((await runCompiled(currentCompiledCli(other)!)).value).toBe('two 2');
  });

  it("removes, as it compiles, the copies of checkouts that are gone and an older layout's copies", async () => {
    const root = await checkout('kept');
    const gone = await checkout('gone');
    await rm(path.join(gone, 'node_modules'), { recursive: true });
    await symlink(path.join(root, 'node_modules'), path.join(gone, 'node_modules'));
    const cache = path.dirname(compiledDir(root));
    await compileCli(gone);
    const older = path.join(cache, 'jU-rVl2rMZe_VYF519cn');
    await mkdir(path.join(older, 'code-cache'), { recursive: true });
    await compileCli(root);
    expect((await readdir(cache)).sort()).toEqual(
      [path.basename(compiledDir(root)), path.basename(compiledDir(gone))].sort(),
    );
    await rm(path.join(gone, 'scripts'), { recursive: true });
    await compileCli(root);
    expect(await readdir(cache)).toEqual([path.basename(compiledDir(root))]);
  });

  it("starts a thread from its compiled file only while the folder holds the command line's own compile", async () => {
    const root = await checkout('threads');
    await writeFile(
      valueFile(root),
      [
        'declare const COMPILED_CODE_DIR: string;',
        'declare const COMPILED_CODE_ID: string;',
        'export const value = JSON.stringify([COMPILED_CODE_DIR, COMPILED_CODE_ID]);',
        "export const here = '';",
      ].join('\n'),
    );
    const compiled = await compileCli(root);
    const [dir, id] = JSON.parse((await runCompiled(compiled)).value) as [string, string];
    expect(dir).toBe(compiledDir(root));
    for (const name of WORKERS) {
      const file = compiledThreadFile(dir, id, name);
      expect(file).toBe(path.join(dir, `${name}.cjs`));
      expect((await runCompiled(file!)).here).toBe(name.replaceAll('-', ' '));
    }
    // Compiled again while a command of the old compile runs: its threads start from the sources.
    await compileCli(root);
    expect(compiledThreadFile(dir, id, 'load-worker')).toBeUndefined();
    await rm(dir, { recursive: true });
    expect(compiledThreadFile(dir, id, 'load-worker')).toBeUndefined();
  });

  it('tells the code the key of its sources, which an edit changes (the build cache is keyed by it)', async () => {
    const root = await checkout('keyed');
    const keyed = (text: string) =>
      writeFile(
        valueFile(root),
        `declare const COMPILED_CODE_KEY: string;\nexport const value = COMPILED_CODE_KEY;\nexport const here = '${text}';\n`,
      );
    await keyed('first');
    const first = (await runCompiled(await compileCli(root))).value;
    expect(first).toMatch(/^[\w-]{20}$/);
    await keyed('second');
    const second = (await runCompiled(await compileCli(root))).value;
    expect(second).toMatch(/^[\w-]{20}$/);
    expect(second).not.toBe(first);
  });

  it('compiles zod into the command line, other packages stay imports, and a new zod makes it not current', async () => {
    const root = await checkout('packages');
    const install = async (name: string, value: string) => {
      await mkdir(path.join(root, 'node_modules', name), { recursive: true });
      // CommonJS, as the packages left as imports must be (compile-cli.cjs).
      await writeFile(
        path.join(root, 'node_modules', name, 'package.json'),
        JSON.stringify({ name, version: value, exports: { '.': './index.js' } }),
      );
      await writeFile(path.join(root, 'node_modules', name, 'index.js'), `exports.value = '${value}';\n`);
    };
    await install('zod', 'zod one');
    await install('yaml', 'yaml one');
    await writeFile(
      path.join(root, 'scripts', 'cli.ts'),
      "import { value as zod } from 'zod';\nimport { value as yaml } from 'yaml';\nconsole.log(JSON.stringify({ value: `${zod}, ${yaml}`, here: '' }));\n",
    );
    const compiled = await compileCli(root);
    expect((await runCompiled(compiled)).value).toBe('zod one, yaml one');
    const code = await readFile(compiled, 'utf8');
    expect(code).toContain('zod one');
    expect(code).not.toMatch(/require\(["']zod["']\)/);
    expect(code).toMatch(/require\(["']yaml["']\)/);

    await install('zod', 'zod two');
    expect(currentCompiledCli(root)).toBeUndefined();
    expect((await runCompiled((await compiledCliFor('build', root))!)).value).toBe('zod two, yaml one');
  });

  it('is not current when a compiled file was cut short (a copy of node_modules interrupted)', async () => {
    const root = await checkout('whole');
    const compiled = await compileCli(root);
    for (const name of ['cli', ...WORKERS]) {
      const file = path.join(path.dirname(compiled), `${name}.cjs`);
      const bytes = await readFile(file);
      await writeFile(file, bytes.subarray(0, bytes.length >> 1));
      expect(currentCompiledCli(root), name).toBeUndefined();
      await writeFile(file, bytes);
      expect(currentCompiledCli(root), name).toBe(compiled);
    }
  });

  it("names the sources' lines in errors when source maps are enabled", async () => {
    const root = await checkout('mapped');
    await writeFile(
      path.join(root, 'scripts', 'cli.ts'),
      "const where: string = new Error().stack!.split('\\n')[1]!;\nconsole.log(JSON.stringify({ value: where, here: '' }));\n",
    );
    const compiled = await compileCli(root);
    expect((await runCompiled(compiled, ['--enable-source-maps'])).value).toContain(
      `${path.join(root, 'scripts', 'cli.ts')}:1:`,
    );
    expect((await runCompiled(compiled)).value).toContain('cli.cjs');
  });

  it('keeps the compiled command line in ASCII where only comments are not, and runs text outside ASCII as written', async () => {
    const text = 'naïve — “quoted” 😀';
    const root = await checkout('ascii');
    const cli = path.join(root, 'scripts', 'cli.ts');
    await writeFile(
      cli,
      [
        'const value: string = (',
        // esbuild keeps a comment within an expression (as one of zod's).
        '  // a comment — with a dash, and 😀',
        `  ${JSON.stringify(text)}`,
        ');',
        "const where: string = new Error().stack!.split('\\n')[1]!;",
        'console.log(JSON.stringify({ value, here: where }));',
      ].join('\n'),
    );
    const compiled = await compileCli(root);
    expect((await runCompiled(compiled)).value).toBe(text);
    expect(isAscii(await readFile(compiled))).toBe(true);
    // The comment's characters were replaced one for one: the source map still names the line and column.
    expect((await runCompiled(compiled, ['--enable-source-maps'])).here).toContain(`${cli}:5:23`);

    // A comment esbuild keeps whole (a licence) stays as written: the file is read as UTF-8.
    await writeFile(
      cli,
      `/*! © the authors */\nconsole.log(JSON.stringify({ value: ${JSON.stringify(text)}, here: '' }));\n`,
    );
    expect((await runCompiled(await compileCli(root))).value).toBe(text);
    expect(isAscii(await readFile(compiled))).toBe(false);
  });

  it('leaves the sources to the loader when they cannot be compiled, which then says what is wrong', async () => {
    const root = await checkout('any');
    await compileCli(root);
    await writeFile(valueFile(root), "export const value: string = 'unfinished;\n");
    await expect(compileCli(root)).rejects.toThrow(/Unterminated string/);
    expect(await compiledCliFor('build', root)).toBeUndefined();
    expect(currentCompiledCli(root)).toBeUndefined();
  });
});
