/**
 * Dev's content for the pipeline (pipeline.ts, PipelineContent): the journal held in memory
 * (live-content.ts), its records handed out as they are after the last save, the order kept from
 * the last save patched when a save leaves it as it was (live-order.ts), and the PDFs' copies kept
 * while the PDFs are the same. Of two records sharing an id, the one saved while dev runs is the
 * new one (repeated-ids.ts): the files saved are named to the references' checks.
 */
import type { PipelineContent } from '../../pipeline.ts';
import type { MediaCopy } from '../../stages/media.ts';
import { orderJournal, referencesOf } from '../../stages/resolve.ts';
import { resolveVolumeKeys } from '../../stages/volume-references.ts';
import type { LiveContent, RecordChange } from './live-content.ts';
import { liveOrder, patchOrder, type LiveOrder } from './live-order.ts';

export interface LiveSource {
  /**
   * The content for one run of the pipeline. `replaced`: the records a save replaced (none after a
   * first load); undefined after anything else (a file added or removed): ordered from scratch.
   */
  content(replaced: readonly RecordChange[] | undefined): PipelineContent;
  /** The records the last run's order replaced in their places; undefined when it ordered from scratch. */
  readonly patched: readonly RecordChange[] | undefined;
  /** After a site with problems: the next save orders from scratch. */
  forgetOrder(): void;
  /** Content files saved while dev runs (relative to the project, with `/`). */
  saved(files: readonly string[]): void;
}

export function liveSource(live: LiveContent): LiveSource {
  /** The journal as last ordered, to be patched when an edit leaves the order as it was. */
  let order: LiveOrder | undefined;
  let patched: readonly RecordChange[] | undefined;
  const saved = new Set<string>();
  /** The PDFs' copies, made again only when the PDFs' map is. */
  let copies:
    { of: ReadonlyMap<string, string>; copies: MediaCopy[]; outputs: { path: string; body: '' }[] } | undefined;

  return {
    get patched() {
      return patched;
    },
    forgetOrder() {
      order = undefined;
    },
    saved(files) {
      for (const file of files) saved.add(file);
    },
    content(replaced) {
      const records = live.records();
      // Every manuscript named by a volume key is resolved as the volumes are now: a replaced record
      // takes its place (patchOrder) with its volume known, as orderJournal gives it.
      resolveVolumeKeys(records.volumes, records.manuscripts);
      const checked = referencesOf(records);
      if (saved.size > 0) checked.changedFiles = saved;
      patched = undefined;
      return {
        journal: live.journal,
        journalFile: live.journalFile ?? 'content/journal.yaml',
        records,
        checked,
        problems: live.problems(),
        counts: {
          authors: records.authors.length,
          volumes: records.volumes.length,
          manuscripts: records.manuscripts.length,
        },
        checkMedia() {
          const media = live.media();
          if (copies?.of !== media) {
            const made = [...media].map(([to, from]) => ({ from, to }));
            copies = { of: media, copies: made, outputs: made.map((copy) => ({ path: copy.to, body: '' })) };
          }
          return Promise.resolve({
            problems: live.mediaProblems(),
            pdfs: media.size,
            copies: copies.copies,
            outputs: copies.outputs,
          });
        },
        order(journal, unordered) {
          const kept = replaced && order ? patchOrder(order, replaced) : undefined;
          if (kept) patched = replaced;
          order = kept ?? liveOrder(orderJournal(journal, unordered));
          return order.resolved;
        },
        locate: (problems) => live.locate(problems),
      };
    },
  };
}
