/**
 * Renderer: three citation files per manuscript, for reference managers (docs/indexing.md,
 * "Citation files"), linked from its landing page:
 *
 *   citations/<id>.bib    BibTeX (bibtex.ts)
 *   citations/<id>.ris    RIS (ris.ts)
 *   citations/<id>.json   CSL-JSON (csl-json.ts)
 *
 * `<id>` is the manuscript's API id, as in its landing page's URL. Each body reads its manuscript,
 * its volume and its authors through the site, so an edit re-renders the files of the manuscripts
 * it touches and no others (model/site.ts).
 */
import { RecordFile, type OutputFile } from '../../../shared/output-file.ts';
import type { ManuscriptRecord } from '../../model/records.ts';
import type { Site, TypeRule } from '../../model/site.ts';
import { CROSS_ORIGIN_HEADERS } from '../../../hosts/path-rules.ts';
import { bibtexEntry } from './bibtex.ts';
import { citationOf, readCitationInputs, type Citation } from './citation.ts';
import { cslJson } from './csl-json.ts';
import { risRecord } from './ris.ts';
import { CITATION_FORMATS, CITATIONS_FOLDER, citationPath, type CitationExtension } from '../linked-files.ts';

/**
 * How hosts serve the files: each format's registered or customary type, the text ones in UTF-8,
 * which they are, and CSL JSON without a charset (JSON has none: RFC 8259, always UTF-8); readable
 * from any origin, for a reference manager in the browser.
 */
export const CITATION_TYPES: readonly TypeRule[] = CITATION_FORMATS.map(({ extension, type }) => ({
  folder: `/${CITATIONS_FOLDER}/`,
  extension: `.${extension}`,
  contentType: extension === 'json' ? type : `${type}; charset=utf-8`,
  headers: CROSS_ORIGIN_HEADERS,
}));

/** What writes each format's file (linked-files.ts lists the formats). */
const WRITERS: Record<CitationExtension, (c: Citation) => string> = { bib: bibtexEntry, ris: risRecord, json: cslJson };

export function renderCitations(site: Site): OutputFile[] {
  // The three files of a manuscript are made one after the other: its reference (the abstract's
  // plain text most of it) is made once for them. The others still read its records, so each
  // file is keyed by what its reference was made from.
  let last: { m: ManuscriptRecord; citation: Citation } | undefined;
  const citationFor = (m: ManuscriptRecord): Citation => {
    if (last?.m === m) {
      readCitationInputs(site, m);
      return last.citation;
    }
    last = { m, citation: citationOf(site, m) };
    return last.citation;
  };
  const formats = CITATION_FORMATS.map(({ extension }) => {
    const write = WRITERS[extension];
    return { extension, write: (m: ManuscriptRecord) => [write(citationFor(m))] };
  });
  const outputs: OutputFile[] = [];
  for (const m of site.manuscripts) {
    for (const { extension, write } of formats) {
      outputs.push(new RecordFile(citationPath(m.id, extension).slice(1), m, write));
    }
  }
  return outputs;
}
