/** Types of compiled-cli.cjs (plain JavaScript: cli.cjs runs it before any TypeScript can load). */
export declare const ENTRIES: Readonly<
  Record<'cli' | 'load-worker' | 'list-writer-worker' | 'file-writer-worker', string>
>;
export declare function compiledCli(root?: string): Promise<string | undefined>;
export declare function compiledEntry(
  name: 'cli' | 'load-worker' | 'list-writer-worker' | 'file-writer-worker',
  options?: { root?: string; compile?: boolean },
): Promise<string | undefined>;
export declare function runCompiledCli(argv?: readonly string[], root?: string): Promise<boolean>;
