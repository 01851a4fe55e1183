/** Types of compiled-cli.mjs (plain JavaScript: cli.mjs runs it before any TypeScript can load). */
export declare function compiledCli(root?: string): Promise<string | undefined>;
