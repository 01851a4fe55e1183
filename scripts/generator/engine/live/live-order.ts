/**
 * The journal in its published order (stages/resolve.ts, orderJournal), kept between edits: an edit
 * that replaces manuscripts or volumes without changing what they are sorted by (docs/content-model.md,
 * "Order": `order`, the volume, the id, the file's key) leaves every list in the same order, so the
 * new records take the old ones' places. At 100,000 manuscripts, ordering from scratch (and finding
 * 250,000 authors by key again) is most of an edit's cost: orderJournal alone is about as much CPU as
 * a save may take (docs/dev-server.md). Any other edit is ordered from scratch, by orderJournal.
 */
import type { AuthorRecord, ManuscriptRecord, VolumeRecord } from '../../model/records.ts';
import type { ResolvedJournal } from '../../stages/resolve.ts';
import type { RecordChange } from './live-content.ts';

export interface LiveOrder {
  readonly resolved: ResolvedJournal;
  /**
   * Each manuscript's and volume's place, and the authors by key: made with the order (a first
   * load, a file added or removed), so that the first save after it does not wait for them.
   */
  places: {
    manuscripts: Map<ManuscriptRecord, number>;
    volumes: Map<VolumeRecord, number>;
    authors: Map<string, AuthorRecord>;
  };
}

/** What a manuscript or a volume is sorted by (`order`: manuscripts only). */
type Sorted = { order?: number | undefined; id: number; origin: { key: string } };

export function liveOrder(resolved: ResolvedJournal): LiveOrder {
  return {
    resolved,
    places: {
      manuscripts: new Map(resolved.manuscripts.map((m, i) => [m, i])),
      volumes: new Map(resolved.volumes.map((v, i) => [v, i])),
      authors: new Map(resolved.authors.map((a) => [a.origin.key, a])),
    },
  };
}

/** The order with the replaced records in their places; undefined when an edit may move one. */
export function patchOrder(order: LiveOrder, replaced: readonly RecordChange[]): LiveOrder | undefined {
  for (const { collection, before, after } of replaced) {
    if (collection === 'authors' || !before || !after) return undefined;
    const [was, is] = [before as Sorted, after as Sorted];
    if (was.order !== is.order || was.id !== is.id || was.origin.key !== is.origin.key) return undefined;
    if (collection === 'manuscripts') {
      const [was, is] = [before as ManuscriptRecord, after as ManuscriptRecord];
      if (was.citation_volume !== is.citation_volume) return undefined;
    } else if ((before as VolumeRecord).citation_journal_title !== (after as VolumeRecord).citation_journal_title) {
      // Manuscripts that name a volume by its label may now be in another (volume-references.ts).
      return undefined;
    }
  }
  const { resolved, places } = order;
  const manuscripts = [...resolved.manuscripts];
  const volumes = [...resolved.volumes];
  const manuscriptAuthors = [...resolved.manuscriptAuthors];
  for (const { collection, before, after } of replaced) {
    if (collection === 'volumes') {
      const at = places.volumes.get(before as VolumeRecord);
      if (at === undefined) return undefined;
      volumes[at] = after as VolumeRecord;
      places.volumes.delete(before as VolumeRecord);
      places.volumes.set(after as VolumeRecord, at);
      continue;
    }
    const [was, is] = [before as ManuscriptRecord, after as ManuscriptRecord];
    const at = places.manuscripts.get(was);
    if (at === undefined) return undefined;
    manuscripts[at] = is;
    manuscriptAuthors[at] = is.authors.map((ref) => (typeof ref === 'string' ? places.authors.get(ref) : undefined));
    places.manuscripts.delete(was);
    places.manuscripts.set(is, at);
  }
  return { resolved: { ...resolved, manuscripts, volumes, manuscriptAuthors }, places };
}
