/**
 * Appends every item of `items` to `target`. `target.push(...items)` passes each item as an
 * argument on the stack, and past about 120,000 of them (a journal's problems, a record's
 * keywords) the call stops with "Maximum call stack size exceeded".
 */
export function appendAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}
