/**
 * Renderer: the original router's other routes (SPEC section 10; SPEC-NOTES, "The original
 * deployment"): a detail file per record, the API root naming the lists, and the sections.
 *
 * - `api/<list>/<id>.json` answers `/api/<list>/<id>/` (the host rules map the slash URL to the file):
 *   exactly the record's item in its list, the same bytes, since both come from render/api.ts.
 * - `api/index.json` answers `/api/`: DRF's DefaultRouter root, each route's absolute URL by name.
 * - `api/sections/index.json` answers `/api/sections/`: the sections as a bare array of
 *   `{"title": ...}` objects, the one field the original's section records are known to have.
 *
 * Each detail's body reads its own record (and a manuscript's authors) through the Site, so a build
 * after an edit writes only the details of the records that changed (model/site.ts).
 */
import { RecordFile, type OutputFile } from '../../shared/output-file.ts';
import {
  API_LISTS,
  API_ROOT,
  API_SECTIONS,
  detailFile,
  isReservedDetailId,
  type ApiList,
} from '../../shared/contract.ts';
import type { AuthorRecord, ManuscriptRecord, VolumeRecord } from '../model/records.ts';
import type { Site } from '../model/site.ts';
import { itemText, manuscriptItem, publishedAuthor, publishedVolume } from './api.ts';
import { toJson } from './json-text.ts';

export function renderApiDetails(site: Site): OutputFile[] {
  const { journal } = site;
  const files: OutputFile[] = [
    { path: API_ROOT.file, body: () => [toJson(apiRoot(journal.base_url))] },
    { path: API_SECTIONS.file, body: () => [toJson(sectionsOf(site).map((title) => ({ title })))] },
  ];
  const authorDetail = (author: AuthorRecord) => [toJson(publishedAuthor(author))];
  for (const author of site.authors) {
    // An author's id is its key, the one name it has (SPEC section 10); a key that would name the
    // list's own file has no detail.
    const key = author.origin.key;
    if (isReservedDetailId(key)) continue;
    files.push(new RecordFile(detailFile('authors', key), author, authorDetail));
  }
  const volumeDetail = (volume: VolumeRecord) => [toJson(publishedVolume(volume, journal))];
  for (const volume of site.volumes) files.push(new RecordFile(detailFile('volumes', volume.id), volume, volumeDetail));
  const manuscriptDetail = (manuscript: ManuscriptRecord) => [
    itemText(manuscriptItem(manuscript, journal, site.authorsOf(manuscript))),
  ];
  for (const manuscript of site.manuscripts) {
    files.push(new RecordFile(detailFile('manuscripts', manuscript.id), manuscript, manuscriptDetail));
  }
  return files;
}

/** The routes the root names, in the order they are registered: the three lists, then the sections. */
export const ROOT_ROUTES: readonly (ApiList | 'sections')[] = [...API_LISTS, 'sections'];

/** DRF's APIRootView: `{"<route>": "<absolute URL of the route>"}`, in the router's order. */
export function apiRoot(baseUrl: string): Record<string, string> {
  return Object.fromEntries(ROOT_ROUTES.map((route) => [route, `${baseUrl}/api/${route}/`]));
}

/**
 * The journal's sections, in the order `sections` lists them in content/journal.yaml; when it lists
 * none, the manuscripts' sections in the order they first appear in the manuscripts list.
 */
export function sectionsOf(site: Site): string[] {
  const listed = site.journal.sections;
  if (listed) return [...listed];
  return [...new Set(site.manuscripts.map((manuscript) => manuscript.section))];
}
