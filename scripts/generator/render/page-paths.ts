/** The pages' URL paths (docs/indexing.md): where each page is, for the pages, their metadata and the sitemap. */
import type { ManuscriptRecord, VolumeRecord } from '../model/records.ts';
import { romanToNumber, VOLUME_LABEL } from '../model/formats.ts';
import { PAGE_FOLDERS } from '../../shared/contract.ts';

const [VOLUMES, MANUSCRIPTS] = PAGE_FOLDERS;

/** URL paths of the pages, with the leading slash and no extension (the home page is `/`). */
export const homePagePath = '/';
export const volumePagePath = (volume: VolumeRecord) => `/${VOLUMES}/${volumeNumber(volume)}`;
export const manuscriptPagePath = (manuscript: ManuscriptRecord) => `/${MANUSCRIPTS}/${manuscript.id}`;
/** Where every manuscript's page file is, relative to the output folder (pageFile of manuscriptPagePath). */
export const MANUSCRIPT_PAGES = `${MANUSCRIPTS}/`;

/**
 * The number a reader cites: the label's Roman numeral as a number ("Volume V" → 5). Not the API's
 * `citation_volume`, which is the volume record's key (SPEC-NOTES 1; 1 for Volume V in the original).
 */
export function volumeNumber(volume: VolumeRecord): number {
  return romanToNumber(VOLUME_LABEL.exec(volume.citation_journal_title)?.[1] ?? '');
}
