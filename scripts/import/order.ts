/**
 * Which records need an `order` field so the build reproduces the source order
 * (docs/content-model.md "Order"). The build puts records that have an order first, ascending,
 * and the rest after them in the list's default order. So the records without one must be a tail
 * of the source list already in default order: the longest such tail is kept free of `order`, and
 * every record before it gets its position. When the whole list is in default order, nothing is written.
 */
import { compareText } from '../shared/compare-text.ts';

export interface OrderPlan {
  /** `order` for the first `count` records in source order (1, 2, ...); none for the rest. */
  count: number;
  /** The first position (0-based) where the source differs from the default order, if any. */
  firstDifference?: number;
}

export function planOrder<T>(items: readonly T[], compareDefault: (a: T, b: T) => number): OrderPlan {
  let start = items.length === 0 ? 0 : items.length - 1;
  while (start > 0 && compareDefault(items[start - 1]!, items[start]!) < 0) start--;
  if (start === 0) return { count: 0 };
  let first = 0;
  while (first + 1 < items.length && compareDefault(items[first]!, items[first + 1]!) < 0) first++;
  return { count: start, firstDifference: first + 1 };
}

/** resolve.ts: authors by institution, then key. */
function compareAuthorsByDefault(
  a: { institution: string; key: string },
  b: { institution: string; key: string },
): number {
  return compareText(a.institution, b.institution) || compareText(a.key, b.key);
}

/** resolve.ts: manuscripts by volume id, then id, then key. */
function compareManuscriptsByDefault(
  a: { citation_volume: number; id: number; key: string },
  b: { citation_volume: number; id: number; key: string },
): number {
  return a.citation_volume - b.citation_volume || a.id - b.id || compareText(a.key, b.key);
}

/**
 * An order plan as the summary tells it: the list's size, its default order in words, and the key
 * of the first record where the source leaves that order.
 */
export interface OrderInference extends OrderPlan {
  total: number;
  rule: string;
  firstDifferenceKey?: string;
}

export function planAuthorOrder(authors: readonly { institution: string }[], keys: readonly string[]): OrderInference {
  const plan = planOrder(
    authors.map((a, i) => ({ institution: a.institution, key: keys[i]! })),
    compareAuthorsByDefault,
  );
  return describeOrder(plan, 'institution, then key', keys);
}

export function planManuscriptOrder(
  manuscripts: readonly { citation_volume: number; id: number }[],
  keys: readonly string[],
): OrderInference {
  const plan = planOrder(
    manuscripts.map((m, i) => ({ citation_volume: m.citation_volume, id: m.id, key: keys[i]! })),
    compareManuscriptsByDefault,
  );
  return describeOrder(plan, 'volume id, then id', keys);
}

/** resolve.ts: volumes by id. */
export function planVolumeOrder(ids: readonly number[], keys: readonly string[]): OrderInference {
  const plan = planOrder(
    ids.map((id, i) => ({ id, key: keys[i]! })),
    (a, b) => a.id - b.id || compareText(a.key, b.key),
  );
  return describeOrder(plan, 'id', keys);
}

function describeOrder(plan: OrderPlan, rule: string, keys: readonly string[]): OrderInference {
  return {
    ...plan,
    total: keys.length,
    rule,
    ...(plan.firstDifference !== undefined ? { firstDifferenceKey: String(keys[plan.firstDifference]) } : {}),
  };
}
