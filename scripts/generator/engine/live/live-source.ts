/**
 * Dev's content for the pipeline (pipeline.ts, PipelineContent): the journal held in memory
 * (live-content.ts), its records handed out as they are after the last save, and the PDFs' copies
 * kept while the PDFs are the same. The journal is ordered by the build's own stage (orderJournal,
 * the pipeline's default). Of two records sharing an id, the one saved while dev runs is the new
 * one (repeated-ids.ts): the files saved are named to the references' checks.
 */
import type { PipelineContent } from '../../pipeline.ts';
import type { MediaCopy } from '../../stages/media.ts';
import { referencesOf } from '../../stages/resolve.ts';
import type { LiveContent } from './live-content.ts';

export interface LiveSource {
  /** The content for one run of the pipeline. */
  content(): PipelineContent;
  /** Content files saved while dev runs (relative to the project, with `/`). */
  saved(files: readonly string[]): void;
}

export function liveSource(live: LiveContent): LiveSource {
  const saved = new Set<string>();
  /** The PDFs' copies, made again only when the PDFs' map is. */
  let copies:
    { of: ReadonlyMap<string, string>; copies: MediaCopy[]; outputs: { path: string; body: '' }[] } | undefined;

  return {
    saved(files) {
      for (const file of files) saved.add(file);
    },
    content() {
      const records = live.records();
      const checked = referencesOf(records);
      if (saved.size > 0) checked.changedFiles = saved;
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
        locate: (problems) => live.locate(problems),
      };
    },
  };
}
