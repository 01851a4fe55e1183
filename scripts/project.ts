/**
 * Where things are. Resolved once from the command line and the environment, then frozen and
 * passed to whatever needs it (nothing else reads `process.env` or `process.cwd()`).
 */
import path from 'node:path';

export interface ProjectPaths {
  /** The project root: every path in a report is relative to it. */
  root: string;
  content: string;
  public: string;
  out: string;
  /** The build cache: outside the output, safe to delete at any time. */
  cache: string;
}

export function projectPaths(
  root: string,
  overrides: { content?: string; out?: string; public?: string; cache?: string } = {},
): ProjectPaths {
  const absolute = path.resolve(root);
  return Object.freeze({
    root: absolute,
    content: path.resolve(absolute, overrides.content ?? 'content'),
    public: path.resolve(absolute, overrides.public ?? 'public'),
    out: path.resolve(absolute, overrides.out ?? 'dist'),
    cache: path.resolve(absolute, overrides.cache ?? '.cache/journal-build'),
  });
}
