/**
 * Runs a build or an import in a process of its own that stops at one step of its swap and waits
 * there, printing `held <step>`, for the test that started it to kill it (`kill -9`) at that step:
 * a step of the swap or update of the output folder, or of the switch of the output's link (a build
 * whose output is a link it switches, `build --atomic`).
 *
 *   node --import tsx test/helpers/held-swap.ts build <project root> <step>
 *   node --import tsx test/helpers/held-swap.ts import <project root> <step> <source>
 */
import { build } from '../../scripts/generator/build.ts';
import { importJournal } from '../../scripts/import/import.ts';
import { projectPaths } from '../../scripts/project.ts';
import type { SwapStep } from '../../scripts/shared/folder-swap.ts';
import type { SwitchStep } from '../../scripts/shared/output-generations.ts';

const [what, root, step, source] = process.argv.slice(2);
const paths = projectPaths(root!);
const hold = async (reached: SwapStep | SwitchStep) => {
  if (reached !== step) return;
  process.stdout.write(`held ${reached}\n`);
  // Waits for the kill; the timer keeps the process alive, the timeout ends a forgotten one.
  await new Promise((resolve) => setTimeout(resolve, 120_000));
  process.exit(9);
};
const result =
  what === 'build'
    ? await build(paths, 'build', { swapSteps: hold, switchSteps: hold })
    : await importJournal(paths, { source: source!, force: true, timeoutMs: 10_000, swapSteps: hold });
process.stdout.write(result.ok ? 'done\n' : `failed ${JSON.stringify(result.problems)}\n`);
