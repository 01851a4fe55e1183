/**
 * Authors: keys from the names; `order` only where the source differs from the default order.
 */
import { authorSchema } from '../generator/model/schema.ts';
import type { Dump } from './dump.ts';
import { keyMaker, slug } from './keys.ts';
import { compareAuthorsByDefault, planOrder, type OrderPlan } from './order.ts';
import type { Check } from './plan-problems.ts';
import type { PlannedFile } from './plan-types.ts';

export function planAuthors(
  authors: Dump['authors'],
  check: Check,
): { files: PlannedFile[]; keys: string[]; order: OrderPlan; byFullName: Map<string, string[]> } {
  const authorKey = keyMaker();
  const authorKeys = authors.map((a) => authorKey(slug(`${a.name} ${a.surname}`, 'author')));
  const authorOrder = planOrder(
    authors.map((a, i) => ({ institution: a.institution, key: authorKeys[i]! })),
    compareAuthorsByDefault,
  );
  const byFullName = new Map<string, string[]>();
  const authorFiles = authors.map((a, i): PlannedFile => {
    const key = authorKeys[i]!;
    const full = `${a.name} ${a.surname}`;
    byFullName.set(full, [...(byFullName.get(full) ?? []), key]);
    const data: Record<string, unknown> = {
      name: a.name,
      surname: a.surname,
      institution: a.institution,
      ...(i < authorOrder.count ? { order: i + 1 } : {}),
    };
    check('authors', `authors[${i}]`, authorSchema, data);
    return { path: `authors/${key}.yaml`, data };
  });
  return { files: authorFiles, keys: authorKeys, order: authorOrder, byFullName };
}
