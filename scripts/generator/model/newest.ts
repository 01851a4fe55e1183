/**
 * Which manuscripts are the newest: by `citation_date`, the later first, and between manuscripts of
 * one date by `id`, the higher first (ids are unique, so the order is total and the same on every
 * machine). One function for both sites (the plain one, stages/resolve.ts, and the one that notes
 * reads, engine/reuse/read-tracking.ts), so that a feed's entries and its key agree.
 */

/** What the order reads of a manuscript. */
export interface Dated {
  readonly citation_date: string;
  readonly id: number;
}

/** Whether `a` comes before `b`, newest first. ISO dates compare as text. */
export function isNewer(a: Dated, b: Dated): boolean {
  return a.citation_date > b.citation_date || (a.citation_date === b.citation_date && a.id > b.id);
}

/**
 * The positions in `manuscripts` of the newest `count`, newest first. One pass that keeps the
 * `count` newest so far in order: at 100,000 manuscripts and a count of 50, a sort of them all
 * would compare about thirty times as often.
 */
export function newestPositions(manuscripts: readonly Dated[], count: number): number[] {
  const chosen: number[] = [];
  if (count <= 0) return chosen;
  for (let i = 0; i < manuscripts.length; i++) {
    const m = manuscripts[i]!;
    if (chosen.length === count && !isNewer(m, manuscripts[chosen[count - 1]!]!)) continue;
    let at = chosen.length;
    while (at > 0 && isNewer(m, manuscripts[chosen[at - 1]!]!)) at--;
    chosen.splice(at, 0, i);
    if (chosen.length > count) chosen.pop();
  }
  return chosen;
}
