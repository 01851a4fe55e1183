/**
 * Every manuscript as the OAI-PMH index lists it (oai-index.ts): its id, its datestamp and its sets,
 * by datestamp, then id. The index is made while the outputs are listed, in every build, a build
 * with nothing changed included: its files are named by where its chunks start, which every
 * datestamp decides (oai.ts). So this reads what it needs once: each volume's `modified` and set
 * once for all its manuscripts, and the manuscripts' authors only when an author has a `modified`
 * date: looking each manuscript's volume up twice and its authors once, each a record the site
 * hands out, was a third of what listing the repository's files cost (docs/oai-pmh.md).
 *
 * An item's datestamp and sets are the ones its record's header gives (datestampOf and setsOf,
 * oai-values.ts): the tests hold the two to each other.
 */
import type { ManuscriptRecord } from '../../model/records.ts';
import type { Site } from '../../model/site.ts';
import type { IndexItem } from './oai-index.ts';
import { later, volumeSetSpec } from './oai-values.ts';

/**
 * The items, in the list's order. `sets`: every set's spec, as the head lists them (an item names
 * its sets by their positions there); `sections`: each section's set, by the section's name.
 */
export function indexItems(site: Site, sets: readonly string[], sections: ReadonlyMap<string, string>): IndexItem[] {
  const position = new Map(sets.map((spec, i) => [spec, i]));
  // As site.volume finds one: the last volume of an id (ids are unique once the content is valid).
  const volumeSet = new Map<number, number | undefined>();
  for (const v of site.volumes) volumeSet.set(v.id, position.get(volumeSetSpec(v)));
  const sectionSet = new Map<string, number | undefined>();
  for (const [name, spec] of sections) sectionSet.set(name, position.get(spec));
  const datestampOf = datestamps(site);
  const items = site.manuscripts.map((m): IndexItem => {
    const itemSets: number[] = [];
    const volume = volumeSet.get(m.citation_volume);
    if (volume !== undefined) itemSets.push(volume);
    const section = m.section === '' ? undefined : sectionSet.get(m.section);
    if (section !== undefined) itemSets.push(section);
    return { id: m.id, datestamp: datestampOf(m), sets: itemSets };
  });
  return items.sort((a, b) => (a.datestamp < b.datestamp ? -1 : a.datestamp > b.datestamp ? 1 : a.id - b.id));
}

/**
 * Each manuscript's datestamp, as datestampOf gives it, from the volumes' and authors' lists read
 * whole: in a body (Identify's, which reads every datestamp), the lists are noted as three tokens,
 * where a lookup per manuscript noted every author on its own, a token for each to value again
 * after any edit.
 */
export function datestamps(site: Site): (m: ManuscriptRecord) => string {
  const volumeDates = new Map<number, string | undefined>();
  for (const v of site.volumes) volumeDates.set(v.id, v.modified);
  const authorDates = site.authors.some((a) => a.modified !== undefined);
  return (m) => {
    let datestamp = later(later(m.citation_date, m.modified), volumeDates.get(m.citation_volume));
    if (authorDates) for (const author of site.authorsOf(m)) datestamp = later(datestamp, author?.modified);
    return datestamp;
  };
}
