/** Types of node-version.cjs (plain JavaScript: cli.cjs runs it before any TypeScript can load). */
export declare const MINIMUM_NODE: string;
export declare function unsupportedNode(version: string): string | undefined;
