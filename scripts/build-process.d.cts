/** Types of build-process.cjs (plain JavaScript: cli.cjs runs it before any TypeScript can load). */
export declare const LARGE_JOURNAL: number;
export interface ChildProcessSettings {
  readonly execArgv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}
export declare const CHILD: ChildProcessSettings;
export declare const CHILD_AFTER_EDIT: ChildProcessSettings;
export declare function buildProcess(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  platform: string,
  cwd?: string,
): ChildProcessSettings | undefined;
