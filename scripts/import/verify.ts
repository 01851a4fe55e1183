/**
 * The import's last step before the swap: build the staged tree with the real pipeline and
 * compare the three lists, byte for byte, with the source: a build of the imported tree must
 * reproduce the three source arrays exactly (docs/importing.md). A difference is a problem, not a warning.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from '../generator/build.ts';
import { removeTree } from '../shared/remove-tree.ts';
import type { Problem } from '../generator/model/problems.ts';
import { toJson } from '../generator/render/json-text.ts';
import { API_LISTS, listFile, type ApiList } from '../shared/contract.ts';
import { projectPaths } from '../project.ts';

/**
 * `expected` holds each list's bytes as the build must write them (DRF's serialization, contract key
 * order). When the plan found values the build refuses (`refusals.expected`), a build that refuses
 * only values (`schema/*` problems) is what was expected: its problems come back as `refused`, each
 * at its file and line in the content folder (`refusals.content`), as are the build's warnings, and the lists cannot be compared.
 */
export async function verifyRoundTrip(
  projectRoot: string,
  staged: string,
  expected: Record<ApiList, Buffer>,
  labels: Record<ApiList, string>,
  refusals: { content: string; expected: boolean },
): Promise<{ problems: Problem[]; refused: Problem[]; warnings: Problem[] }> {
  const out = `${staged}-verify`;
  // No public/ files and a build cache of its own: only the three lists matter here,
  // and nothing of the user's may interfere or be disturbed.
  const cache = `${staged}-cache`;
  const overrides = { content: staged, out, public: path.join(out, 'no-public'), cache };
  const paths = projectPaths(projectRoot, overrides);
  try {
    const result = await build(paths, 'build');
    const stagedName = path.relative(projectRoot, staged).split(path.sep).join('/');
    const inContent = (p: Problem): Problem =>
      p.file.startsWith(`${stagedName}/`) ? { ...p, file: `${refusals.content}${p.file.slice(stagedName.length)}` } : p;
    const warnings = (result.contentWarnings ?? []).map(inContent);
    if (!result.ok && refusals.expected && result.problems.every((p) => p.code.startsWith('schema/')))
      return { problems: [], refused: result.problems.map(inContent), warnings };
    if (!result.ok) {
      const problems: Problem[] = [
        {
          code: 'import/round-trip',
          file: path.relative(projectRoot, staged) || staged,
          line: 0,
          column: 0,
          field: '',
          message: 'the imported tree does not build; the build reports the problems below',
          expected: 'content that builds (please report this: the import should have caught it)',
        },
        ...result.problems,
      ];
      return { problems, refused: [], warnings };
    }
    const problems: Problem[] = [];
    for (const list of API_LISTS) {
      // Compared as bytes; decoded only to say where they differ (238 MB at 100,000 manuscripts).
      const built = await readFile(path.join(out, ...listFile(list).split('/')));
      if (!built.equals(expected[list]))
        problems.push(describeDifference(list, built.toString('utf8'), expected[list].toString('utf8'), labels[list]));
    }
    return { problems, refused: [], warnings };
  } finally {
    // A whole output (200,000 files at 100,000 manuscripts): removed a few at a time (remove-tree.ts).
    await removeTree(out);
    await removeTree(cache);
  }
}

function describeDifference(list: ApiList, built: string, expected: string, label: string): Problem {
  const a = JSON.parse(built) as unknown[];
  const b = JSON.parse(expected) as unknown[];
  let message = `the build writes ${a.length} records, the source has ${b.length}`;
  if (a.length === b.length) {
    const index = a.findIndex((record, i) => toJson(record) !== toJson(b[i]));
    message =
      index < 0
        ? 'the built list differs from the source in its bytes only'
        : `${list}[${index}]: the build writes ${clip(toJson(a[index]))} where the source has ${clip(toJson(b[index]))}`;
  }
  return {
    code: 'import/round-trip',
    file: label,
    line: 0,
    column: 0,
    field: list,
    message,
    expected: 'the same records, order, values and key order as the source',
  };
}

function clip(text: string, max = 300): string {
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}
