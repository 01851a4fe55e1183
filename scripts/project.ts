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
}

export function projectPaths(root: string, overrides: { content?: string; out?: string; public?: string } = {}): ProjectPaths {
  const absolute = path.resolve(root);
  return Object.freeze({
    root: absolute,
    content: path.resolve(absolute, overrides.content ?? 'content'),
    public: path.resolve(absolute, overrides.public ?? 'public'),
    out: path.resolve(absolute, overrides.out ?? 'dist'),
  });
}
