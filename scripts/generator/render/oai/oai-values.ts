/**
 * What every file of the OAI-PMH repository agrees on (docs/oai-pmh.md, "What the build writes"):
 * where the files are, a manuscript's identifier and datestamp, and the sets it belongs to.
 */
import type { JournalInput } from '../../model/schema.ts';
import type { ManuscriptRecord, VolumeRecord } from '../../model/records.ts';
import type { Site } from '../../model/site.ts';

export const OAI_NAMESPACE = 'http://www.openarchives.org/OAI/2.0/';
export const OAI_DC_PREFIX = 'oai_dc';

export const OAI_FILES = {
  items: 'oai/items.json',
  identify: 'oai/identify.xml',
  sets: 'oai/sets.xml',
  formats: 'oai/formats.xml',
  staticRepository: 'oai/static-repository.xml',
} as const;

/** A manuscript's record: one `<record>` element. */
export const recordPath = (id: number) => `oai/records/${id}.xml`;

export { STATIC_REPOSITORY_MAX_RECORDS } from '../../model/oai-settings.ts';

/** The repository's identifier, in the oai-identifier scheme: the host name of `base_url`. */
export function repositoryIdentifier(journal: JournalInput): string {
  return new URL(journal.base_url).hostname;
}

/** `oai:<host>:`, before a manuscript's id. */
export function identifierPrefix(journal: JournalInput): string {
  return `oai:${repositoryIdentifier(journal)}:`;
}

/**
 * A manuscript's datestamp: the latest of its `citation_date`, its own `modified`, its volume's and
 * its authors' (ISO dates compare as text). No clock: the same content gives the same datestamps.
 */
export function datestampOf(site: Site, m: ManuscriptRecord): string {
  let datestamp = later(later(m.citation_date, m.modified), site.volume(m.citation_volume)?.modified);
  for (const author of site.authorsOf(m)) datestamp = later(datestamp, author?.modified);
  return datestamp;
}

/** The later of two ISO dates, which compare as text. */
export function later(date: string, other: string | undefined): string {
  return other !== undefined && other > date ? other : date;
}

export const volumeSetSpec = (volume: VolumeRecord) => `volume-${volume.id}`;

/**
 * The section sets, by section name, in the journal's order (api-detail.ts, sectionsOf): `section-`
 * and the name lower-cased, its ASCII letters and digits kept and every run of anything else made one
 * `-`, trimmed. Where that leaves nothing, or only digits (which a position could equal), or two
 * sections would share it, the section's position, 1-based: `section-3`.
 */
export function sectionSets(sections: readonly string[]): Map<string, string> {
  const slugs = sections.map((name) =>
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, ''),
  );
  const sets = new Map<string, string>();
  slugs.forEach((slug, i) => {
    const usable = /[a-z]/.test(slug) && slugs.indexOf(slug) === slugs.lastIndexOf(slug);
    sets.set(sections[i]!, `section-${usable ? slug : i + 1}`);
  });
  return sets;
}

/** A manuscript's sets: its volume's, then its section's (none when it names no listed section). */
export function setsOf(site: Site, m: ManuscriptRecord, sections: ReadonlyMap<string, string>): string[] {
  const sets: string[] = [];
  const volume = site.volume(m.citation_volume);
  if (volume) sets.push(volumeSetSpec(volume));
  const section = m.section === '' ? undefined : sections.get(m.section);
  if (section) sets.push(section);
  return sets;
}
