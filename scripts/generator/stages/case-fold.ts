/**
 * Names as a disk or host that ignores case sees them. A Windows or macOS checkout, and some object
 * stores behind a CDN, keep `ZZ-Twin.yaml` and `zz-twin.yaml` (or `A.pdf` and `a.pdf`) as one file:
 * one of two such names silently replaces the other. The checks of names that collide that way
 * (discover.ts, media.ts, public-files.ts) fold them here, so that they agree on what "one name" is.
 */

/** An upper-case ASCII letter or anything past ASCII: a name without any folds to itself. */
const MAY_FOLD = /[^\x00-\x40\x5b-\x7f]/;

/**
 * `name` as a case-insensitive file system compares it: composed (NFC, as macOS sees `é` written as
 * one character or as `e` and an accent as one name), then upper-cased and lower-cased, so that
 * letters with several lower-case forms (`σ` and the final `ς`, `ſ` and `s`, `ı` and `i`) fold as
 * Windows' table folds them. `ß` and `ss` fold as one too, stricter than Windows, which keeps them
 * apart: a refusal too many costs a rename, one too few a file lost.
 */
export function foldCase(name: string): string {
  if (!MAY_FOLD.test(name)) return name;
  const composed = name.normalize('NFC');
  return /[^\x00-\x7f]/.test(composed) ? composed.toUpperCase().toLowerCase() : composed.toLowerCase();
}

/** Whether `name` may fold to another name: lower-case ASCII names (nearly all) never do. */
export function mayFold(name: string): boolean {
  return MAY_FOLD.test(name);
}

/**
 * The positions among `count` names (`nameAt`) whose names are one once folded but are written in
 * more than one way: for each such name, every position that has it, in order. Names written the
 * same way are not twins (two records may name one PDF). Only the names that may fold are folded
 * and kept in a map (nearly always none, and then nothing more is done): a name that does not fold
 * is its own folded form, and is only looked up.
 */
export function caseTwins(count: number, nameAt: (i: number) => string): number[][] {
  const byFolded = new Map<string, number[]>();
  for (let i = 0; i < count; i++) {
    const name = nameAt(i);
    if (!mayFold(name)) continue;
    const folded = foldCase(name);
    const group = byFolded.get(folded);
    if (group) group.push(i);
    else byFolded.set(folded, [i]);
  }
  if (byFolded.size === 0) return [];
  for (let i = 0; i < count; i++) {
    const name = nameAt(i);
    if (!mayFold(name)) byFolded.get(name)?.push(i);
  }
  const twins: number[][] = [];
  for (const group of byFolded.values()) {
    if (group.length < 2) continue;
    const first = nameAt(group[0]!);
    if (group.some((i) => nameAt(i) !== first)) twins.push(group.sort((a, b) => a - b));
  }
  return twins.sort((a, b) => a[0]! - b[0]!);
}

/**
 * The sentence every such problem shares: what is wrong with the two names, and why it matters.
 * `written` and `otherWritten` are the names themselves, to tell an accent written two ways (the
 * same letters once composed) from a difference of case.
 */
export function caseTwinsMessage(name: string, other: string, written: string, otherWritten: string): string {
  const how =
    written.toLowerCase() === otherWritten.toLowerCase() || !/[^\x00-\x7f]/.test(written + otherWritten)
      ? 'only in upper/lower case'
      : 'only in upper/lower case or in how an accented letter is encoded';
  return (
    `${name} and ${other} differ ${how}: on Windows, macOS and some web hosts ` +
    'the two are one file (or one page), and one would silently replace the other'
  );
}

/** What a record that names one of two PDFs whose paths differ only in case is told (media.ts). */
export function pdfCaseTwins(path: string, other: string): { message: string; expected: string } {
  return {
    message: caseTwinsMessage(`content/media/${path}`, `content/media/${other}`, path, other),
    expected: 'PDFs whose names differ in more than case: rename one of the two, and the field that names it',
  };
}
