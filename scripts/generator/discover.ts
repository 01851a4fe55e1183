/**
 * Stage 1: find the content files. One glob per collection, sorted at once (glob order is not
 * stable across machines), symlinks and stray files reported rather than followed or ignored.
 */
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import fg from 'fast-glob';
import { COLLECTION_NAMES, type CollectionName } from './schema.ts';
import { RECORD_KEY } from './formats.ts';
import type { Problem } from './problems.ts';

export const CONTENT_EXTENSIONS = ['.yaml', '.yml', '.json'] as const;

export interface SourceFile {
  collection: CollectionName;
  /** The record's key: its file name without extension (authors are referenced by it). */
  key: string;
  /** Path relative to the project root, forward slashes: used in every report. */
  file: string;
  absolutePath: string;
}

export interface Discovery {
  files: Record<CollectionName, SourceFile[]>;
  journalFile: { file: string; absolutePath: string } | undefined;
  problems: Problem[];
}

const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export async function discover(projectRoot: string, contentDir: string): Promise<Discovery> {
  const problems: Problem[] = [];
  const relative = (absolute: string) => path.relative(projectRoot, absolute).split(path.sep).join('/');
  const files = {} as Record<CollectionName, SourceFile[]>;

  for (const collection of COLLECTION_NAMES) {
    const folder = path.join(contentDir, collection);
    files[collection] = [];
    const folderStat = await lstat(folder).catch(() => undefined);
    if (folderStat?.isSymbolicLink()) {
      problems.push(whole(relative(folder), 'io/symlink', 'is a symbolic link', 'a real folder inside content/'));
      continue;
    }
    // One readdir, not a glob: at 250,000 files a glob's entry objects cost seconds and 100 MB (issue 4).
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => byCodeUnits(a.name, b.name));
    const seenKeys = new Map<string, string>();
    // Paths by concatenation: path.join and path.relative per file cost a second at 250,000 files.
    const folderPrefix = `${folder}${path.sep}`;
    const filePrefix = `${relative(folder)}/`;
    for (const dirent of entries) {
      const name = dirent.name;
      const absolutePath = folderPrefix + name;
      const file = filePrefix + name;
      if (dirent.isDirectory()) {
        problems.push(whole(file, 'io/unexpected-file', 'is a folder', `record files directly in content/${collection}/`));
        continue;
      }
      if (dirent.isSymbolicLink()) {
        problems.push(whole(file, 'io/symlink', 'is a symbolic link', 'a regular file'));
        continue;
      }
      const extension = path.extname(name).toLowerCase();
      if (!(CONTENT_EXTENSIONS as readonly string[]).includes(extension)) {
        problems.push(whole(file, 'io/unexpected-file', 'is not a content file', 'a .yaml, .yml or .json file'));
        continue;
      }
      const key = name.slice(0, -extension.length);
      if (!RECORD_KEY.test(key)) {
        problems.push(whole(file, 'io/unexpected-file', `the file name "${key}" cannot be used as a key`, 'letters, digits, ".", "_" and "-", starting with a letter or digit'));
        continue;
      }
      const previous = seenKeys.get(key);
      if (previous) {
        problems.push(whole(file, 'ref/duplicate-key', `has the same key "${key}" as ${previous}`, 'one file per key'));
        continue;
      }
      seenKeys.set(key, file);
      files[collection].push({ collection, key, file, absolutePath });
    }
  }

  const journalCandidates = await fg(['journal.yaml', 'journal.yml', 'journal.json'], { cwd: contentDir, onlyFiles: true, followSymbolicLinks: false });
  journalCandidates.sort(byCodeUnits);
  const journalName = journalCandidates[0];
  const journalFile = journalName ? { file: relative(path.join(contentDir, journalName)), absolutePath: path.join(contentDir, journalName) } : undefined;
  if (!journalFile) {
    problems.push(whole(relative(path.join(contentDir, 'journal.yaml')), 'io/unreadable', 'is missing', 'the journal settings file (see docs/content-model.md)'));
  }
  for (const extra of journalCandidates.slice(1)) {
    problems.push(whole(relative(path.join(contentDir, extra)), 'ref/duplicate-key', `duplicates ${journalFile?.file}`, 'one journal settings file'));
  }
  return { files, journalFile, problems };
}

function whole(file: string, code: Problem['code'], message: string, expected: string): Problem {
  return { code, file, line: 0, column: 0, field: '', message, expected };
}
