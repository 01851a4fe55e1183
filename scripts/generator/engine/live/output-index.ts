/**
 * The outputs of the live site by path (`npm run dev`), kept from one edit to the next while the
 * paths stay the same. At 100,000 manuscripts a site has about 750,000 outputs; making a map of
 * them, and a text of every path to compare with the last site's, took more of an edit than
 * the renderers' listing did. An edit that changes a record's fields but not what its outputs are
 * called (nearly every save) lists the same paths in the same places: the index made for the last
 * site finds each output of the new one by its place (its group and its position there).
 *
 * Only paths can conflict (stages/public-files.ts, findOutputConflicts): the same paths as a site
 * that had no conflict have none, so the check runs only when the paths changed.
 */
import type { OutputFile } from '../../../shared/output-file.ts';
import type { Problem } from '../../model/problems.ts';
import type { OutputGroup } from '../../pipeline.ts';
import { findOutputConflicts } from '../../stages/public-files.ts';

/** A site's outputs by path: each one's group and position, and every group's paths in order. */
export interface OutputIndex {
  /** Each group's paths, in order: what the next site's groups are compared with. */
  readonly paths: readonly (readonly string[])[];
  /** Each path's place: its group times PLACES_PER_GROUP, plus its position in the group. */
  readonly places: ReadonlyMap<string, number>;
}

/** More outputs than one group can hold (a renderer lists a few per record). */
const PLACES_PER_GROUP = 2 ** 32;

/**
 * The index of `groups`: `previous` itself when they list the same paths in the same places, a new
 * one when the paths changed and none conflicts, or the conflicts. The first `trusted` groups are
 * known to list the paths they listed for `previous` (listing-site.ts): they are not listed to compare.
 */
export function indexOutputs(
  groups: readonly OutputGroup[],
  previous: OutputIndex | undefined,
  trusted = 0,
): { index: OutputIndex } | { conflicts: Problem[] } {
  if (previous && samePaths(groups, previous.paths, trusted)) return { index: previous };
  const conflicts = findOutputConflicts([...groups]);
  if (conflicts.length > 0) return { conflicts };
  return { index: reindexOutputs(groups) };
}

/** The index of `groups` whatever they list, the last of two outputs at one path winning (no conflict is checked). */
export function reindexOutputs(groups: readonly OutputGroup[]): OutputIndex {
  const places = new Map<string, number>();
  const paths = groups.map((group, g) =>
    group.outputs.map((output, i) => {
      places.set(output.path, g * PLACES_PER_GROUP + i);
      return output.path;
    }),
  );
  return { paths, places };
}

/** The output at `path` among `groups` (the groups the index was made or kept for). */
export function outputAt(
  index: OutputIndex,
  groups: readonly OutputGroup[],
  path: string,
): { group: number; output: OutputFile } | undefined {
  const place = index.places.get(path);
  if (place === undefined) return undefined;
  const group = Math.floor(place / PLACES_PER_GROUP);
  const output = groups[group]?.outputs[place % PLACES_PER_GROUP];
  return output && { group, output };
}

/** Whether the outputs of `group` are at `paths`, in that order. */
export function listsPaths(group: OutputGroup, paths: readonly string[]): boolean {
  const { outputs } = group;
  if (outputs.length !== paths.length) return false;
  for (let i = 0; i < outputs.length; i++) if (outputs[i]!.path !== paths[i]) return false;
  return true;
}

function samePaths(groups: readonly OutputGroup[], paths: readonly (readonly string[])[], trusted: number): boolean {
  if (groups.length !== paths.length) return false;
  return groups.every((group, g) => g < trusted || listsPaths(group, paths[g]!));
}
