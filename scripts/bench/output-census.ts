/**
 * What a site generator wrote: its files and their bytes, and how its paths compare with the build's.
 * The benchmark times the peers (Hugo, Eleventy) only as makers of the same site as the build: the
 * same paths, content of the same kind and size.
 */
import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

export interface Census {
  files: number;
  bytes: number;
  /** Relative paths, forward slashes. */
  paths: Set<string>;
}

/** Every file under `dir`, except the folders named in `skip` (relative paths). */
export async function takeCensus(dir: string, skip: readonly string[] = []): Promise<Census> {
  const census: Census = { files: 0, bytes: 0, paths: new Set() };
  const visit = async (relative: string): Promise<void> => {
    for (const entry of await readdir(path.join(dir, relative), { withFileTypes: true })) {
      const name = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!skip.includes(name)) await visit(name);
      } else {
        census.files++;
        census.bytes += (await stat(path.join(dir, name))).size;
        census.paths.add(name);
      }
    }
  };
  await visit('');
  return census;
}

export interface CensusComparison {
  /** The build's paths the peer did not write, and the peer's the build did not. */
  missing: string[];
  extra: string[];
  /** The difference in file counts, as a share of the build's. */
  countDifference: number;
}

export function compareCensus(ours: Census, theirs: Census): CensusComparison {
  return {
    missing: [...ours.paths].filter((p) => !theirs.paths.has(p)).sort(),
    extra: [...theirs.paths].filter((p) => !ours.paths.has(p)).sort(),
    countDifference: Math.abs(theirs.files - ours.files) / Math.max(1, ours.files),
  };
}

export interface SiteFigures {
  files: number;
  bytes: number;
  /** How many of the build's paths the peer did not write, and of its own the build did not. */
  missing?: number;
  extra?: number;
  /** More than the tolerance off the build's file count: not timed. */
  refused?: boolean;
}

/**
 * Prints and returns the files and bytes of the build's site in `dist` (its search index left out:
 * no peer makes one) and of each peer's output, which paths differ, and which peers are refused.
 */
export async function compareSites(
  dist: string,
  peers: readonly (readonly [name: string, out: string])[],
  tolerance: number,
): Promise<{ sites: Record<string, SiteFigures>; refused: string[] }> {
  const counted = (c: Census) => `${c.files.toLocaleString('en-US')} files, ${(c.bytes / 1e6).toFixed(1)} MB`;
  const ours = existsSync(dist) ? await takeCensus(dist, ['pagefind']) : undefined;
  const sites: Record<string, SiteFigures> = ours ? { 'cold build': { files: ours.files, bytes: ours.bytes } } : {};
  const refused: string[] = [];
  if (!peers.length) return { sites, refused };
  console.log(`\nThe same site${ours ? `: the build's ${counted(ours)} (without pagefind/, the search index)` : ''}`);
  for (const [name, out] of peers) {
    const theirs = await takeCensus(out);
    sites[name] = { files: theirs.files, bytes: theirs.bytes };
    if (!ours) {
      console.log(`  ${name}: ${counted(theirs)}`);
      continue;
    }
    const { missing, extra, countDifference } = compareCensus(ours, theirs);
    Object.assign(sites[name], { missing: missing.length, extra: extra.length, refused: countDifference > tolerance });
    const differ = (what: string, paths: string[]) =>
      paths.length
        ? `, ${what} ${paths.length} (${paths.slice(0, 3).join(', ')}${paths.length > 3 ? ', ...' : ''})`
        : '';
    console.log(`  ${name}: ${counted(theirs)}${differ('missing', missing)}${differ('extra', extra)}`);
    if (countDifference > tolerance) {
      console.log(`  ${name} is not timed: its file count is ${(countDifference * 100).toFixed(1)}% off the build's.`);
      refused.push(name);
    }
  }
  return { sites, refused };
}
