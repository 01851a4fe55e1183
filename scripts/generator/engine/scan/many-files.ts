/**
 * The stages' ManyFiles (stages/listing.ts), answered by the stat workers: many files' stamps and
 * first bytes shared among threads, and the clock that decides which stamps the next build may trust.
 */
import type { ManyFiles } from '../../stages/listing.ts';
import { trustedStamp } from '../load/load-job.ts';
import { startsWithMany, statMany } from './stat-many.ts';

export const manyFilesOnWorkers: ManyFiles = {
  stat: (paths) => statMany(paths),
  // The caller goes on while the workers read (a cold build at 100,000 manuscripts reads 100,100 PDFs' first bytes).
  startWith: (paths, magic) => startsWithMany(paths, magic, { shareThisThread: false }),
  trusted: (stamp) => trustedStamp(stamp, Date.now()),
};
