/**
 * Authors: keys from the names; `order` only where the source differs from the default order.
 */
import { authorSchema } from '../generator/model/schema.ts';
import type { Dump } from './dump.ts';
import { keyMaker, slug } from './keys.ts';
import { planAuthorOrder, type OrderInference } from './order.ts';
import type { Check } from './plan-problems.ts';
import type { PlannedFile } from './plan-types.ts';

export function planAuthors(
  authors: Dump['authors'],
  check: Check,
): { files: PlannedFile[]; keys: string[]; order: OrderInference } {
  const authorKey = keyMaker();
  const keys = authors.map((a) => authorKey(slug(`${a.name} ${a.surname}`, 'author')));
  const order = planAuthorOrder(authors, keys);
  const files = authors.map((a, i): PlannedFile => {
    const data: Record<string, unknown> = {
      name: a.name,
      surname: a.surname,
      institution: a.institution,
      ...(i < order.count ? { order: i + 1 } : {}),
    };
    check('authors', `authors[${i}]`, authorSchema, data);
    return { path: `authors/${keys[i]}.yaml`, data };
  });
  return { files, keys, order };
}
