/**
 * A mistake in how a command is called gets one clear sentence and the command to run: never a
 * stack trace, never the argument parser's own text.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkspace, type Workspace } from './helpers/workspace.ts';

let workspace: Workspace | undefined;
afterEach(async () => {
  await workspace?.dispose();
  workspace = undefined;
});

function expectNoTrace(output: string) {
  expect(output).not.toMatch(/\n\s+at |Error:|ERR_PARSE_ARGS|To specify a positional argument/);
}

describe('the command line explains a wrong call', () => {
  it('preview before any build says to build first', async () => {
    workspace = await createWorkspace();
    const { code, stdout, stderr } = await workspace.cli('preview', '--port', '0');
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(
      'There is no built site in dist/ yet: build it first with npm run build (or npm start, which builds and previews).',
    );
    expectNoTrace(stdout + stderr);
  });

  it('an unknown option names the closest one and the command that lists them', async () => {
    workspace = await createWorkspace();
    const { code, stdout, stderr } = await workspace.cli('preview', '--prot', '8081');
    expect(code).toBe(2);
    expect(stderr.trim()).toBe(
      'npm run preview has no option --prot; did you mean --port?\nEvery command and option: npm run preview -- --help',
    );
    expectNoTrace(stdout + stderr);
  });

  it('an option without its value says which value it needs', async () => {
    workspace = await createWorkspace();
    const { code, stderr } = await workspace.cli('build', '--content');
    expect(code).toBe(2);
    expect(stderr).toContain('--content needs a value: --content <value>');
    expectNoTrace(stderr);
  });

  it('an unknown host names the closest one and the command to run', async () => {
    workspace = await createWorkspace();
    const { code, stdout, stderr } = await workspace.cli('config', 'nginxx');
    expect(code).toBe(2);
    expect(stderr.trim()).toBe(
      '"nginxx" is not a host we write a configuration for; did you mean nginx?\nRun: npm run config -- nginx --root /srv/journal/dist',
    );
    expectNoTrace(stdout + stderr);
  });

  it('an unknown host close to a platform names the platform and its command, which takes no --root', async () => {
    workspace = await createWorkspace();
    const { code, stderr } = await workspace.cli('config', 'netlfy');
    expect(code).toBe(2);
    expect(stderr.trim()).toBe(
      '"netlfy" is not a host we write a configuration for; did you mean netlify?\nRun: npm run config -- netlify',
    );
  });

  it('a host close to none lists every host', async () => {
    workspace = await createWorkspace();
    const { code, stderr } = await workspace.cli('config', 'mainframe');
    expect(code).toBe(2);
    expect(stderr.trim()).toMatch(
      /^"mainframe" is not a host we write a configuration for\.\nRun: npm run config -- nginx --root \/srv\/journal\/dist \(hosts: nginx, .*netlify.*\)$/,
    );
  });

  it('an unknown command names the closest one', async () => {
    workspace = await createWorkspace();
    const { code, stderr } = await workspace.cli('biuld');
    expect(code).toBe(2);
    expect(stderr).toContain('unknown command "biuld"; did you mean build?');
    expectNoTrace(stderr);
  });
});
