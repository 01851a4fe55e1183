/**
 * The stages' ManyFiles (stages/listing.ts): many files' stamps and first bytes, and the clock that
 * decides which stamps the next build may trust.
 */
import type { ManyFiles } from '../../stages/listing.ts';
import { trustedStamp } from '../load/load-job.ts';
import { startsWithMany, statMany } from './stat-many.ts';

export const manyFilesOnWorkers: ManyFiles = {
  stat: (paths) => statMany(paths),
  startWith: (paths, magic) => startsWithMany(paths, magic),
  trusted: (stamp) => trustedStamp(stamp, Date.now()),
};
