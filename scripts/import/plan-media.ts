/**
 * With `--download-media`, each PDF URL becomes a file under content/media/, planned once however
 * many records name it; a URL that cannot become one is reported, never rewritten.
 */
import { absoluteMediaPath } from '../generator/model/formats.ts';
import type { ApiList } from '../shared/contract.ts';
import type { Report } from './plan-problems.ts';
import type { PlannedMedia } from './plan-types.ts';

/** The value a record's PDF field gets: the local path when the PDF is to be fetched, else the URL. */
export type ToMedia = (list: ApiList, at: string, url: string, shape: RegExp) => string;

export function mediaPlanner(
  localMedia: boolean,
  mediaUrl: string | undefined,
  report: Report,
): { toMedia: ToMedia; planned: PlannedMedia[] } {
  const planned: PlannedMedia[] = [];
  const byPath = new Map<string, PlannedMedia>();
  const toMedia: ToMedia = (list, at, url, shape) => {
    if (!localMedia) return url;
    const local = absoluteMediaPath(url);
    if (
      local === undefined ||
      originOf(url) !== mediaUrl ||
      url !== `${mediaUrl}/media/${local}` ||
      !shape.test(local)
    ) {
      report(
        list,
        at,
        'import/media',
        `${JSON.stringify(url)} cannot become a file under content/media/`,
        `a URL ${mediaUrl}/media/<path> whose path is letters, digits, ".", "_" and "-" (or import without --download-media and keep the URL)`,
      );
      return url;
    }
    let entry = byPath.get(local);
    if (entry === undefined) {
      entry = { url, path: local, usedBy: [] };
      byPath.set(local, entry);
      planned.push(entry);
    }
    entry.usedBy.push(at);
    return local;
  };
  return { toMedia, planned };
}

export function originOf(url: string): string | undefined {
  try {
    return /^https?:\/\//.test(url) ? new URL(url).origin : undefined;
  } catch {
    return undefined;
  }
}
