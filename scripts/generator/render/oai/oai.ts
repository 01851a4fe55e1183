/**
 * Renderer: the files an OAI-PMH repository of the manuscripts is answered from, when
 * content/journal.yaml sets `oai` (docs/oai-pmh.md, "What the build writes"). The handler
 * (scripts/oai/handler.js) answers the protocol's requests by putting these files together:
 *
 *   oai/records/<id>.xml         one `<record>` per manuscript (oai-record.ts)
 *   oai/items.json, oai/items/   every identifier with its datestamp and sets, by datestamp then id,
 *                                in chunks, and a head that says where each starts (oai-index.ts)
 *   oai/identify.xml             the `<Identify>` answer's element
 *   oai/sets.xml                 the `<ListSets>` answer's element: a set per volume and per section
 *   oai/formats.xml              the `<ListMetadataFormats>` answer's element: oai_dc
 *   oai/static-repository.xml    the whole repository as an OAI static repository, for hosts that
 *                                run no handler; only up to STATIC_REPOSITORY_MAX_RECORDS records
 *
 * Fragments are UTF-8 without an XML declaration or a final line break: the handler places them
 * inside its answer as they are. Each body reads what it needs through the site (model/site.ts).
 */
import { createHash } from 'node:crypto';
import { RecordFile, type OutputFile } from '../../../shared/output-file.ts';
import type { ManuscriptRecord } from '../../model/records.ts';
import type { Site, TypeRule } from '../../model/site.ts';
import { CROSS_ORIGIN_HEADERS } from '../../../hosts/path-rules.ts';
import { sectionsOf } from '../api-detail.ts';
import { xmlText } from '../feed.ts';
import { indexFiles, type IndexItem } from './oai-index.ts';
import { datestamps, indexItems } from './oai-items.ts';
import { dublinCore, oaiRecord } from './oai-record.ts';
import {
  OAI_DC_PREFIX,
  OAI_FILES,
  OAI_NAMESPACE,
  STATIC_REPOSITORY_MAX_RECORDS,
  identifierPrefix,
  recordPath,
  repositoryIdentifier,
  sectionSets,
  volumeSetSpec,
} from './oai-values.ts';

/**
 * How hosts serve the repository's files: XML in UTF-8, as the protocol's answers are, and the
 * handler's index as JSON; readable from any origin, for a harvester or a static repository gateway.
 */
export const OAI_TYPES: readonly TypeRule[] = [
  { folder: '/oai/', extension: '.xml', contentType: 'text/xml; charset=utf-8', headers: CROSS_ORIGIN_HEADERS },
  { folder: '/oai/records/', extension: '.xml', contentType: 'text/xml; charset=utf-8', headers: CROSS_ORIGIN_HEADERS },
  { path: '/oai/items.json', contentType: 'application/json', headers: CROSS_ORIGIN_HEADERS },
];

/** The earliest datestamp of a repository with no record yet: Identify requires one, and no clock is read. */
const NO_RECORD_DATESTAMP = '1970-01-01';

export function renderOai(site: Site): OutputFile[] {
  if (!site.journal.oai) return [];
  const sections = sectionSetsOf(site);
  // Which files there are is decided from how many manuscripts there are (as the sitemap's parts are).
  const withStaticRepository = site.manuscripts.length <= STATIC_REPOSITORY_MAX_RECORDS;
  const metadata = withStaticRepository ? metadataOnce() : dublinCore;
  const write = (m: ManuscriptRecord) => [oaiRecord(site, m, sections(), metadata)];
  const outputs: OutputFile[] = site.manuscripts.map((m) => new RecordFile(recordPath(m.id), m, write));
  outputs.push(
    ...index(site, sections()),
    {
      path: OAI_FILES.identify,
      body: () => [`<Identify>${identify(site, `${site.journal.base_url}/oai`)}</Identify>`],
    },
    { path: OAI_FILES.sets, body: () => [listSets(site, sections())] },
    { path: OAI_FILES.formats, body: () => [`<ListMetadataFormats>${metadataFormats()}</ListMetadataFormats>`] },
  );
  if (withStaticRepository)
    outputs.push({ path: OAI_FILES.staticRepository, body: () => staticRepository(site, metadata) });
  return outputs;
}

/**
 * A manuscript's oai_dc element made once for its record file and the static repository, which
 * holds every record again (it took 40% of the renderer's time at 1,000 manuscripts). Kept by the
 * record as this build's site hands it out, so a body given it reads that record (and, through its
 * datestamp, the volume and authors the element is made from): what each body depends on is noted
 * as when it makes the element itself. Only while a static repository is written: up to 5,000.
 */
function metadataOnce(): (site: Site, m: ManuscriptRecord) => string {
  const made = new WeakMap<ManuscriptRecord, string>();
  return (site, m) => {
    let element = made.get(m);
    if (element === undefined) made.set(m, (element = dublinCore(site, m)));
    return element;
  };
}

/**
 * The section sets, as a body asks for them. From the journal's `sections` (its settings) they are
 * made once; from the manuscripts, when it lists none, every body that asks reads the manuscripts
 * list, and they are made again only for another list (another build's).
 */
function sectionSetsOf(site: Site): () => ReadonlyMap<string, string> {
  const listed = site.journal.sections;
  if (listed) {
    const sets = sectionSets(listed);
    return () => sets;
  }
  let made: { list: readonly ManuscriptRecord[]; sets: ReadonlyMap<string, string> } | undefined;
  return () => {
    const list = site.manuscripts;
    if (made?.list !== list) made = { list, sets: sectionSets(sectionsOf(site)) };
    return made.sets;
  };
}

/** Every set: the volumes by id, then the sections in the journal's order. */
function allSets(site: Site, sections: ReadonlyMap<string, string>): { spec: string; name: string }[] {
  const volumes = [...site.volumes].sort((a, b) => a.id - b.id);
  return [
    ...volumes.map((v) => ({ spec: volumeSetSpec(v), name: v.citation_journal_title })),
    ...[...sections].map(([name, spec]) => ({ spec, name })),
  ];
}

/**
 * The index the handler reads (oai-index.ts), made here, while the outputs are listed, and keyed by
 * its bytes: which chunk an item falls in depends on every datestamp, so a chunk made by a body of
 * its own would read every manuscript, volume and author and be made again, and written, after any
 * edit. Made here, a chunk whose bytes are the previous build's is taken from the previous output.
 * Its files' names depend on every datestamp too, so it is made in every build, a build with nothing
 * changed included (oai-items.ts reads what it needs once; docs/oai-pmh.md says what it costs).
 */
function index(site: Site, sections: ReadonlyMap<string, string>): OutputFile[] {
  const sets = allSets(site, sections).map((set) => set.spec);
  const items = indexItems(site, sets, sections);
  const head = { identifierPrefix: identifierPrefix(site.journal), earliestDatestamp: earliest(items), sets };
  return indexFiles(head, items).map(({ path, text }) => ({
    path,
    body: text,
    key: `oai-index/${createHash('sha256').update(text).digest('base64url')}`,
  }));
}

function earliest(items: readonly IndexItem[]): string {
  return items[0]?.datestamp ?? NO_RECORD_DATESTAMP;
}

/** The Identify element's content, with `baseURL` (the handler's address, or a static repository's). */
function identify(site: Site, baseUrl: string): string {
  const { journal } = site;
  let earliestDatestamp = NO_RECORD_DATESTAMP;
  let firstId: number | undefined;
  const datestampOf = datestamps(site);
  for (const m of site.manuscripts) {
    const datestamp = datestampOf(m);
    if (firstId === undefined || datestamp < earliestDatestamp) earliestDatestamp = datestamp;
    if (firstId === undefined || m.id < firstId) firstId = m.id;
  }
  return [
    `<repositoryName>${xmlText(journal.title)}</repositoryName>`,
    `<baseURL>${xmlText(baseUrl)}</baseURL>`,
    '<protocolVersion>2.0</protocolVersion>',
    `<adminEmail>${xmlText(journal.oai!.admin_email)}</adminEmail>`,
    `<earliestDatestamp>${earliestDatestamp}</earliestDatestamp>`,
    '<deletedRecord>no</deletedRecord>',
    '<granularity>YYYY-MM-DD</granularity>',
    '<description><oai-identifier xmlns="http://www.openarchives.org/OAI/2.0/oai-identifier" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.openarchives.org/OAI/2.0/oai-identifier http://www.openarchives.org/OAI/2.0/oai-identifier.xsd">',
    '<scheme>oai</scheme>',
    `<repositoryIdentifier>${xmlText(repositoryIdentifier(journal))}</repositoryIdentifier>`,
    '<delimiter>:</delimiter>',
    `<sampleIdentifier>${xmlText(identifierPrefix(journal) + (firstId ?? 1))}</sampleIdentifier>`,
    '</oai-identifier></description>',
  ].join('');
}

function listSets(site: Site, sections: ReadonlyMap<string, string>): string {
  const sets = allSets(site, sections).map(
    (set) => `<set><setSpec>${xmlText(set.spec)}</setSpec><setName>${xmlText(set.name)}</setName></set>`,
  );
  return `<ListSets>${sets.join('\n')}</ListSets>`;
}

function metadataFormats(): string {
  return [
    '<metadataFormat>',
    `<metadataPrefix>${OAI_DC_PREFIX}</metadataPrefix>`,
    '<schema>http://www.openarchives.org/OAI/2.0/oai_dc.xsd</schema>',
    '<metadataNamespace>http://www.openarchives.org/OAI/2.0/oai_dc/</metadataNamespace>',
    '</metadataFormat>',
  ].join('');
}

/**
 * The OAI static repository (static-repository.xsd): the OAI-PMH namespace is the default one, so
 * that the Identify content and the records are written as in the handler's answers; a static
 * repository's headers carry no sets. Its baseURL is its own address: the gateway a journal registers
 * it with answers under an address of its own, which the journal cannot know here.
 */
function* staticRepository(site: Site, metadata: (site: Site, m: ManuscriptRecord) => string): Generator<string> {
  const sr = 'http://www.openarchives.org/OAI/2.0/static-repository';
  yield '<?xml version="1.0" encoding="UTF-8"?>\n';
  yield `<sr:Repository xmlns:sr="${sr}" xmlns="${OAI_NAMESPACE}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="${sr} http://www.openarchives.org/OAI/2.0/static-repository.xsd">\n`;
  yield `<sr:Identify>${identify(site, `${site.journal.base_url}/${OAI_FILES.staticRepository}`)}</sr:Identify>\n`;
  yield `<sr:ListMetadataFormats>${metadataFormats()}</sr:ListMetadataFormats>\n`;
  yield `<sr:ListRecords metadataPrefix="${OAI_DC_PREFIX}">\n`;
  const ordered = indexItems(site, [], new Map());
  const byId = new Map(site.manuscripts.map((m) => [m.id, m]));
  for (const item of ordered) yield `${oaiRecord(site, byId.get(item.id)!, undefined, metadata)}\n`;
  yield '</sr:ListRecords>\n</sr:Repository>\n';
}
