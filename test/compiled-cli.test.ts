/**
 * The command line runs from a copy compiled once per change of the code (scripts/compiled-cli.cjs:
 * startup). What a developer relies on: an edit to any source reaches the next command,
 * each module still finds its neighbours (workers) next to its own source, and without esbuild
 * nothing is compiled, so cli.cjs runs the sources through the TypeScript loader.
 */
import { isAscii } from 'node:buffer';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { compiledCli, compiledEntry, ENTRIES } from '../scripts/compiled-cli.cjs';
import { REPO_ROOT } from './helpers/workspace.ts';

const run = promisify(execFile);
let root: string | undefined;
afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true });
  root = undefined;
});

/** A code checkout of two modules, with esbuild among its packages or without it. */
async function checkout(value: string, packages = true): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'journal-code-'));
  await mkdir(path.join(dir, 'scripts', 'generator'), { recursive: true });
  await writeFile(
    path.join(dir, 'scripts', 'cli.ts'),
    "import { value, here } from './generator/value.ts';\nconsole.log(JSON.stringify({ value, here }));\n",
  );
  await writeFile(
    path.join(dir, 'scripts', 'generator', 'value.ts'),
    `export const value: string = '${value}';\nexport const here = new URL('./worker.mjs', import.meta.url).href;\n`,
  );
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

/** Runs the command line of the checkout at `root` as cli.cjs does (runCompiledCli), for `command`. */
async function runCommand(root: string, command: string, nodeOptions: string[] = []) {
  const compiledCliModule = pathToFileURL(path.join(REPO_ROOT, 'scripts', 'compiled-cli.cjs')).href;
  const script = `const { runCompiledCli } = await import(${JSON.stringify(compiledCliModule)});
if (!(await runCompiledCli(['node', 'cli.cjs', ${JSON.stringify(command)}], ${JSON.stringify(root)}))) process.exit(9);`;
  const { stdout } = await run(process.execPath, [...nodeOptions, '--input-type=module', '--eval', script]);
  return JSON.parse(stdout) as { value: string; here: string };
}

const runCompiled = async (url: string) =>
  JSON.parse((await run(process.execPath, [fileURLToPath(url)])).stdout) as { value: string; here: string };

describe('the compiled command line', () => {
  it('runs the code as it is: an edit to any module is compiled before the next command', async () => {
    root = await checkout('first');
    const first = await compiledCli(root);
    expect(first).toBeDefined();
    expect((await runCompiled(first!)).value).toBe('first');
    // Compiled once: the next command takes the same copy.
    expect(await compiledCli(root)).toBe(first);

    await writeFile(
      path.join(root, 'scripts', 'generator', 'value.ts'),
      "export const value: string = 'second';\nexport const here = '';\n",
    );
    const second = await compiledCli(root);
    expect(second).not.toBe(first);
    expect((await runCompiled(second!)).value).toBe('second');
  });

  it("keeps each module's own URL, so workers are found next to its source", async () => {
    root = await checkout('any');
    const { here } = await runCompiled((await compiledCli(root))!);
    expect(here).toBe(pathToFileURL(path.join(root, 'scripts', 'generator', 'worker.mjs')).href);
  });

  it('tells the code the key it was compiled under, which an edit changes (the build cache is keyed by it)', async () => {
    root = await checkout('keyed');
    const value = path.join(root, 'scripts', 'generator', 'value.ts');
    const keyed = (text: string) =>
      writeFile(
        value,
        `declare const COMPILED_CODE_KEY: string | undefined;\nexport const value = typeof COMPILED_CODE_KEY === 'string' ? COMPILED_CODE_KEY : 'none';\nexport const here = '${text}';\n`,
      );
    await keyed('first');
    const first = (await compiledCli(root))!;
    const key = (await runCompiled(first)).value;
    // The key is the compiled copy's own folder name.
    expect(key).toBe(path.basename(path.dirname(fileURLToPath(first))));
    await keyed('second');
    const second = (await runCompiled((await compiledCli(root))!)).value;
    expect(second).toMatch(/^[\w-]{20}$/);
    expect(second).not.toBe(key);
  });

  it("tells the code its folder, where each thread's own compiled file is (start-thread.ts)", async () => {
    root = await checkout('threads');
    await writeFile(
      path.join(root, 'scripts', 'generator', 'value.ts'),
      "declare const COMPILED_CODE_DIR: string | undefined;\nexport const value = typeof COMPILED_CODE_DIR === 'string' ? COMPILED_CODE_DIR : 'none';\nexport const here = '';\n",
    );
    const compiled = (await compiledCli(root))!;
    const dir = (await runCompiled(compiled)).value;
    expect(dir).toBe(path.dirname(fileURLToPath(compiled)));
    for (const name of ['load-worker', 'list-writer-worker', 'file-writer-worker'])
      expect((await runCompiled(pathToFileURL(path.join(dir, `${name}.cjs`)).href)).here).toBe(
        name.replaceAll('-', ' '),
      );
  });

  it('gives two checkouts of the same code that share node_modules a copy each', async () => {
    root = await checkout('same');
    const other = await checkout('same');
    try {
      await rm(path.join(other, 'node_modules'), { recursive: true });
      await symlink(path.join(root, 'node_modules'), path.join(other, 'node_modules'));
      expect((await runCompiled((await compiledCli(root))!)).here).toBe(
        pathToFileURL(path.join(root, 'scripts', 'generator', 'worker.mjs')).href,
      );
      expect((await runCompiled((await compiledCli(other))!)).here).toBe(
        pathToFileURL(path.join(other, 'scripts', 'generator', 'worker.mjs')).href,
      );
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it('compiles the workers with the command line; a worker never compiles', async () => {
    root = await checkout('worker');
    expect(await compiledEntry('load-worker', { root })).toBeUndefined();
    await compiledCli(root);
    for (const name of ['load-worker', 'list-writer-worker', 'file-writer-worker'] as const) {
      const worker = await compiledEntry(name, { root });
      expect(worker, name).toBeDefined();
      expect(await runCompiled(worker!)).toEqual({ value: 'worker', here: name.replaceAll('-', ' ') });
    }
  });

  it('keeps a few compiled copies, not one per edit', async () => {
    root = await checkout('0');
    for (let edit = 1; edit <= 5; edit++) {
      await writeFile(
        path.join(root, 'scripts', 'generator', 'value.ts'),
        `export const value: string = '${edit}';\nexport const here = '';\n`,
      );
      expect((await runCompiled((await compiledCli(root))!)).value).toBe(String(edit));
    }
    expect(await readdir(path.join(root, 'node_modules', '.cache', 'journal-cli'))).toHaveLength(3);
  });

  it('compiles zod into the command line, other packages stay imports, and a new zod compiles again', async () => {
    root = await checkout('packages');
    const install = async (name: string, value: string) => {
      await mkdir(path.join(root!, 'node_modules', name), { recursive: true });
      // CommonJS, as the packages left as imports must be (compiled-cli.cjs).
      await writeFile(
        path.join(root!, 'node_modules', name, 'package.json'),
        JSON.stringify({ name, version: value, exports: { '.': './index.js' } }),
      );
      await writeFile(path.join(root!, 'node_modules', name, 'index.js'), `exports.value = '${value}';\n`);
    };
    await install('zod', 'zod one');
    await install('yaml', 'yaml one');
    await writeFile(
      path.join(root, 'scripts', 'cli.ts'),
      "import { value as zod } from 'zod';\nimport { value as yaml } from 'yaml';\nconsole.log(JSON.stringify({ value: `${zod}, ${yaml}`, here: '' }));\n",
    );
    const first = (await compiledCli(root))!;
    expect((await runCompiled(first)).value).toBe('zod one, yaml one');
    const compiled = await readdir(path.dirname(fileURLToPath(first)));
    const code = (
      await Promise.all(
        compiled
          .filter((name) => name.endsWith('.cjs'))
          .map((name) => readFile(path.join(path.dirname(fileURLToPath(first)), name), 'utf8')),
      )
    ).join('\n');
    expect(code).toContain('zod one');
    expect(code).not.toMatch(/require\(["']zod["']\)/);
    expect(code).toMatch(/require\(["']yaml["']\)/);

    // The compiled copy holds zod's code: a new version of it is compiled in before the next command.
    await install('zod', 'zod two');
    const second = (await compiledCli(root))!;
    expect(second).not.toBe(first);
    expect((await runCompiled(second)).value).toBe('zod two, yaml one');
  });

  it('remembers no key under stamps changed in the last seconds, and a file rewritten with its time put back compiles again', async () => {
    root = await checkout('old');
    const value = path.join(root, 'scripts', 'generator', 'value.ts');
    const past = new Date(Date.now() - 3600_000);
    for (const entry of await readdir(path.join(root, 'scripts'), { recursive: true, withFileTypes: true }))
      if (entry.isFile()) await utimes(path.join(entry.parentPath, entry.name), past, past);
    const keys = path.join(root, 'node_modules', '.cache', 'journal-cli', '.keys');
    // Every file's change time is new (utimes sets it): nothing is remembered yet.
    const first = await compiledCli(root);
    expect(await readdir(keys).catch(() => [])).toEqual([]);
    expect((await runCompiled(first!)).value).toBe('old');
    // Rewritten with the same size and its modification time put back: its change time tells.
    const { mtime } = await stat(value);
    await writeFile(value, (await readFile(value, 'utf8')).replace("'old'", "'new'"));
    await utimes(value, mtime, mtime);
    const second = await compiledCli(root);
    expect(second).not.toBe(first);
    expect((await runCompiled(second!)).value).toBe('new');
  });

  it("runs each command from V8's code cache of its first run, and makes again a cache V8 refuses", async () => {
    root = await checkout('cached');
    const caches = path.join(path.dirname(fileURLToPath((await compiledCli(root))!)), 'code-cache');
    const cacheOf = async (command: string) => {
      const names = (await readdir(caches)).filter((name) => name.startsWith(`${command}-`));
      expect(names, command).toHaveLength(1);
      return path.join(caches, names[0]!);
    };
    expect(await runCommand(root, 'check')).toEqual({ value: 'cached', here: expect.any(String) });
    const check = await cacheOf('check');
    const first = await readFile(check);
    expect(first.length).toBeGreaterThan(100);

    // Taken as it is: the second run leaves it alone.
    const { mtimeMs } = await stat(check);
    expect((await runCommand(root, 'check')).value).toBe('cached');
    expect(await readFile(check)).toEqual(first);
    expect((await stat(check)).mtimeMs).toBe(mtimeMs);

    // Each command has its own.
    expect((await runCommand(root, 'build')).value).toBe('cached');
    expect(await cacheOf('build')).not.toBe(check);

    // A cache that is not one (a disk's fault, another Node's) is refused, and this run makes it again.
    await writeFile(check, 'not a code cache');
    expect((await runCommand(root, 'check')).value).toBe('cached');
    expect((await readFile(check)).length).toBeGreaterThan(100);
  });

  it('runs the new code of a compiled file changed in place, though its length is the same', async () => {
    root = await checkout('aaaa');
    const compiled = fileURLToPath((await compiledCli(root))!);
    expect((await runCommand(root, 'check')).value).toBe('aaaa');
    expect((await runCommand(root, 'check')).value).toBe('aaaa');
    const code = await readFile(compiled, 'utf8');
    expect(code).toMatch(/(["'])aaaa\1/);
    await writeFile(compiled, code.replace(/(["'])aaaa\1/, '$1bbbb$1'));
    expect((await runCommand(root, 'check')).value).toBe('bbbb');
  });

  it("runs the compiled file as it is, with no code cache, when source maps are enabled: errors name the sources' lines", async () => {
    root = await checkout('mapped');
    await writeFile(
      path.join(root, 'scripts', 'cli.ts'),
      "const where: string = new Error().stack!.split('\\n')[1]!;\nconsole.log(JSON.stringify({ value: where, here: '' }));\n",
    );
    expect((await runCommand(root, 'check', ['--enable-source-maps'])).value).toContain(
      `${path.join(root, 'scripts', 'cli.ts')}:1:`,
    );
    expect((await runCommand(root, 'check')).value).toContain('cli.cjs');
    const compiled = path.dirname(fileURLToPath((await compiledCli(root))!));
    expect(await readdir(path.join(compiled, 'code-cache'))).toHaveLength(1);
  });

  it('keeps the compiled command line in ASCII where only comments are not, and runs text outside ASCII as written', async () => {
    const text = 'naïve — “quoted” 😀';
    root = await checkout('ascii');
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
    expect((await runCommand(root, 'check')).value).toBe(text);
    const compiled = fileURLToPath((await compiledCli(root))!);
    expect(isAscii(await readFile(compiled))).toBe(true);
    // The comment's characters were replaced one for one: the source map still names the line and column.
    expect((await runCommand(root, 'check', ['--enable-source-maps'])).here).toContain(`${cli}:5:23`);

    // A comment esbuild keeps whole (a licence) stays as written: the file is read as UTF-8.
    await writeFile(
      cli,
      `/*! © the authors */\nconsole.log(JSON.stringify({ value: ${JSON.stringify(text)}, here: '' }));\n`,
    );
    expect((await runCommand(root, 'check')).value).toBe(text);
    expect(isAscii(await readFile(fileURLToPath((await compiledCli(root))!)))).toBe(false);
  });

  for (const sourceMaps of [false, true])
    it(`compiles again a compiled command line cut short, says so in one line, and runs the command${sourceMaps ? ', with source maps' : ''}`, async () => {
      root = await checkout('whole');
      const options = sourceMaps ? ['--enable-source-maps'] : [];
      expect((await runCommand(root, 'check', options)).value).toBe('whole');
      const compiled = fileURLToPath((await compiledCli(root))!);
      const bytes = await readFile(compiled);
      await writeFile(compiled, bytes.subarray(0, bytes.length >> 1));

      const compiledCliModule = pathToFileURL(path.join(REPO_ROOT, 'scripts', 'compiled-cli.cjs')).href;
      const script = `const { runCompiledCli } = await import(${JSON.stringify(compiledCliModule)});
await runCompiledCli(['node', 'cli.cjs', 'check'], ${JSON.stringify(root)});`;
      const { stdout, stderr } = await run(process.execPath, [...options, '--input-type=module', '--eval', script]);
      expect(JSON.parse(stdout)).toMatchObject({ value: 'whole' });
      expect(stderr).toMatch(
        /^The compiled command line \(node_modules\/\.cache\/journal-cli\/[\w-]+\/cli\.cjs\) was cut short: it is compiled again\.\n$/,
      );
      expect(await readFile(compiled)).toEqual(bytes);
      // Whole again: the next command says nothing.
      expect((await run(process.execPath, [...options, '--input-type=module', '--eval', script])).stderr).toBe('');
    });

  it('compiles nothing without esbuild: the command line then runs the sources through the loader', async () => {
    root = await checkout('any', false);
    expect(await compiledCli(root)).toBeUndefined();
  });
});
