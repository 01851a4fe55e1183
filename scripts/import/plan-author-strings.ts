/**
 * The manuscripts' author strings matched to the author records by full name (SPEC-NOTES
 * decision 2): a string that names exactly one record becomes its key; any other is kept as
 * published, with a comment in the file saying why.
 */
import type { AuthorRef } from '../generator/model/schema.ts';
import type { Dump } from './dump.ts';
import type { AuthorMatch, Inferences } from './plan-types.ts';

export interface AuthorStrings {
  /** Each manuscript's `authors` list, by the manuscript's position. */
  refs: AuthorRef[][];
  /** Comments for the items kept as published, by the manuscript's position, then the item's. */
  comments: (Record<number, string> | undefined)[];
  inference: Inferences['authorStrings'];
}

export function matchAuthorStrings(
  manuscripts: Dump['manuscripts'],
  authors: Dump['authors'],
  authorKeys: readonly string[],
): AuthorStrings {
  const byFullName = new Map<string, string[]>();
  authors.forEach((a, i) => {
    const full = `${a.name} ${a.surname}`;
    byFullName.set(full, [...(byFullName.get(full) ?? []), authorKeys[i]!]);
  });
  const ambiguous = new Map<string, AuthorMatch>();
  const unmatched = new Map<string, AuthorMatch>();
  let total = 0;
  let matched = 0;
  const comments: (Record<number, string> | undefined)[] = [];
  const refs = manuscripts.map((m, i) => {
    const kept: Record<number, string> = {};
    const refs = m.authors.map((text, j): AuthorRef => {
      total++;
      const keys = byFullName.get(text) ?? [];
      if (keys.length === 1) {
        matched++;
        return keys[0]!;
      }
      const table = keys.length ? ambiguous : unmatched;
      const entry = table.get(text) ?? { text, candidates: keys, at: [] };
      entry.at.push(`manuscripts[${i}].authors[${j}]`);
      table.set(text, entry);
      kept[j] = keys.length ? `several authors have this name: ${keys.join(', ')}` : 'no author record has this name';
      return { as_published: text };
    });
    comments.push(Object.keys(kept).length ? kept : undefined);
    return refs;
  });
  return {
    refs,
    comments,
    inference: { total, matched, ambiguous: [...ambiguous.values()], unmatched: [...unmatched.values()] },
  };
}
