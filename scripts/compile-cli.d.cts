/** Types of compile-cli.cjs (plain JavaScript: cli.cjs runs it before any TypeScript can load). */
export type EntryName = 'cli' | 'load-worker' | 'list-writer-worker' | 'file-writer-worker';
export declare const ENTRIES: Readonly<Record<EntryName, string>>;
export declare function compileCli(root?: string): Promise<string>;
export declare function compiledCliFor(command: string | undefined, root?: string): Promise<string | undefined>;
export declare function compiledDir(root?: string): string;
export declare function currentCompiledCli(root?: string): string | undefined;
