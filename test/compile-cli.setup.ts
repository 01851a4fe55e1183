/**
 * Before the tests: the command line compiled from the sources as they are, as `npm install` and
 * `npm run build` leave it, so that the tests that start it run what a user runs. Where it cannot
 * be compiled, or a source changes while the tests run, they run the sources (scripts/cli.cjs).
 */
import { compileCli, currentCompiledCli } from '../scripts/compile-cli.cjs';

export default async function compileCommandLine(): Promise<void> {
  if (currentCompiledCli()) return;
  try {
    await compileCli();
  } catch {
    // the sources run instead, and the tests report what is wrong in them
  }
}
