/**
 * The synthetic journal's records as text (synthetic-journal.ts writes them): the journal's
 * settings, and each author, volume and manuscript from (seed, kind, index) alone, so that records
 * can be made in any order and the same seed always gives the same bytes.
 */
import { toAscii } from '../synthetic/minimal-pdf.ts';
import { seededRandom } from '../synthetic/seeded-random.ts';
import { numberToRoman as roman } from '../generator/model/formats.ts';

/** A journal's size and seed (synthetic-journal.ts, syntheticSizes). */
export interface SyntheticSizes {
  manuscripts: number;
  authors: number;
  volumes: number;
  seed: number;
}

/** Each record derives its own stream from (seed, kind, index), so records can be written in any order. */
export function random(seed: number, kind: number, index: number): () => number {
  return seededRandom(seed ^ Math.imul(kind + 1, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b));
}

export const pick = <T>(rnd: () => number, items: readonly T[]): T => items[Math.floor(rnd() * items.length)]!;
export const between = (rnd: () => number, low: number, high: number) => low + Math.floor(rnd() * (high - low + 1));

const SECTIONS = ['Zoology', 'Botany', 'Ecology', 'Microbiology', 'Genetics', 'Hydrobiology', 'Entomology', 'Mycology'];

export function renderJournal(seed: number) {
  const text = [
    'title: Bulletin of the Synthetic Biology Society',
    'base_url: https://journal.example.org',
    'media_url: https://media.example.org',
    'citation_issn: 1857 - 9639',
    'citation_language: English',
    'publisher: Synthetic Biology Society',
    `# generated with seed ${seed}`,
    // Named as a deployed journal names its hosts: the build checks their limits on every run.
    'hosts:',
    '  - netlify',
    '  - firebase',
    'sections:',
    ...SECTIONS.map((s) => `  - ${s}`),
    '',
  ].join('\n');
  return { text, sections: SECTIONS };
}

const GIVEN = [
  'Ана',
  'Марија',
  'Елена',
  'Јована',
  'Бојан',
  'Никола',
  'Горан',
  'Драган',
  'Ѓорѓи',
  'Kristijan',
  'Ljupčo',
  'Snežana',
  'Jane',
  'John',
  'María',
  'José',
  'Zoë',
  'Søren',
  'Łukasz',
  'Małgorzata',
  'Jiří',
  'Dušan',
  'Gülşen',
  'Ömer',
  'François',
  'Hélène',
  'Jürgen',
  'Ægir',
  'Αλέξανδρος',
  'Ελένη',
  'Ioana',
  'Ștefan',
  'Ľubomír',
  'Đorđe',
  'Ärtan',
  'Ngozi',
];
const FAMILY = [
  'Петровска',
  'Николов',
  'Стојановски',
  'Трајковска',
  'Ѓорѓиев',
  'Јовановиќ',
  'Mitrevski',
  'Krstić',
  'Velkovska',
  'Šarić',
  'Doe',
  'Smith',
  'García',
  'Müller',
  'Nowak',
  'Kowalczyk',
  'Dvořák',
  'Yılmaz',
  'Øvergaard',
  'Lefèvre',
  'Παπαδόπουλος',
  'Constantinescu',
  "O'Neill",
  'van der Berg',
  'Da Silva-Costa',
  'Hämäläinen',
  'Nguyễn',
  'Okafor',
];
const INSTITUTIONS = [
  'Faculty of Natural Sciences and Mathematics, Ss. Cyril and Methodius University, Arhimedova 3, 1000 Skopje, North Macedonia',
  'Природно-математички факултет, Архимедова 3, 1000 Скопје, Северна Македонија',
  'Macedonian Museum of Natural History, Bul. Ilinden 86, 1000 Skopje',
  'Hydrobiological Institute, Naum Ohridski 50, 6000 Ohrid, North Macedonia.',
  'Institute of Zoology, Universität Wien, Djerassiplatz 1, 1030 Wien, Österreich',
  'Department of Ecology, Uniwersytet Jagielloński, Gronostajowa 7, 30-387 Kraków, Poland',
  "Muséum national d'Histoire naturelle, 57 rue Cuvier, 75005 Paris, France",
  'Department of Biology, University of Patras, 265 04 Ρίο, Ελλάδα',
  'Faculty of Science, Charles University, Viničná 7, 128 44 Praha 2, Czech Republic',
  'Natural History Museum, Cromwell Road, London SW7 5BD, United Kingdom',
  'Instituto de Biología, Universidad Nacional Autónoma de México, Ciudad Universitaria, 04510 CDMX',
  "Biology Students' Research Society",
];
export const GENERA = [
  'Salamandra',
  'Triturus',
  'Rana',
  'Orchis',
  'Ophrys',
  'Carabus',
  'Lepus',
  'Quercus',
  'Pinus',
  'Daphnia',
  'Salmo',
  'Bombus',
  'Lacerta',
  'Vipera',
  'Helix',
  'Tilia',
];
export const SPECIES = [
  'salamandra',
  'macedonicus',
  'graeca',
  'mascula',
  'sphegodes',
  'coriaceus',
  'europaeus',
  'frainetto',
  'peuce',
  'magna',
  'letnica',
  'terrestris',
  'viridis',
  'ammodytes',
  'pomatia',
  'tomentosa',
];
export const WORDS = [
  'population',
  'distribution',
  'habitat',
  'survey',
  'specimens',
  'altitude',
  'records',
  'diversity',
  'abundance',
  'sampling',
  'seasonal',
  'dynamics',
  'endemic',
  'lake',
  'mountain',
  'forest',
  'meadow',
  'observed',
  'collected',
  'described',
  'genetic',
  'variation',
  'morphometric',
  'analysis',
  'significant',
  'temperature',
  'pH',
  'community',
  'structure',
  'first',
];
export const CYRILLIC = [
  'популација',
  'распространување',
  'живеалиште',
  'истражување',
  'примероци',
  'надморска',
  'висина',
  'езеро',
  'планина',
  'шума',
];
const LANGUAGES = ['English', 'Macedonian', 'English', 'English', 'German'];

function slug(text: string): string {
  return (
    toAscii(text)
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .toLowerCase() || 'x'
  );
}

/** A YAML scalar: plain when that is unambiguous, otherwise double-quoted (JSON escapes are YAML escapes). */
export function scalar(text: string): string {
  return /^[\p{L}\p{N}][\p{L}\p{N} .,'()-]*$/u.test(text) && !/[.,]$/.test(text) ? text : JSON.stringify(text);
}

export function syntheticAuthor(seed: number, i: number) {
  const rnd = random(seed, 1, i);
  const name = pick(rnd, GIVEN);
  const surname = pick(rnd, FAMILY);
  const institution = pick(rnd, INSTITUTIONS);
  const key = `${slug(surname)}-${String(i + 1).padStart(6, '0')}`;
  const text = `name: ${scalar(name)}\nsurname: ${scalar(surname)}\ninstitution: ${scalar(institution)}\n`;
  return { key, text };
}

export function syntheticVolume(v: number) {
  const year = 1925 + v;
  const title = `Volume ${roman(v)}`;
  const pdfPath = `volumes/pdfs/${year}/volume-${v}.pdf`;
  const text = [
    `id: ${v}`,
    `citation_journal_title: ${title}`,
    'citation_language: English',
    'udc: "57 59"',
    'first_page: "1"',
    `last_page: "${200 + (v % 50)}"`,
    `full_date: ${year}-${String((v % 12) + 1).padStart(2, '0')}-${String((v % 28) + 1).padStart(2, '0')}`,
    `pdf: ${pdfPath}`,
    '',
  ].join('\n');
  return { title, year, pdfPath, text };
}

function sentence(rnd: () => number): string {
  const words: string[] = [];
  const count = between(rnd, 8, 20);
  for (let w = 0; w < count; w++) {
    const r = rnd();
    if (r < 0.08) words.push(`<em>${pick(rnd, GENERA)} ${pick(rnd, SPECIES)}</em>`);
    else if (r < 0.12) words.push(pick(rnd, CYRILLIC));
    else if (r < 0.15) words.push(`${between(rnd, 2, 2400)} m a.s.l. (±${between(rnd, 1, 40)} m)`);
    else if (r < 0.17) words.push(`${between(rnd, 4, 28)} °C`);
    else if (r < 0.19) words.push(`${between(rnd, 10, 900)} µm`);
    else if (r < 0.2) words.push(`CO<sub>2</sub>`);
    else if (r < 0.21) words.push('“Galičica”');
    else words.push(pick(rnd, WORDS));
  }
  const text = words.join(' ');
  const reference = rnd() < 0.3 ? ` (${pick(rnd, FAMILY)} et al., ${between(rnd, 1950, 2023)})` : '';
  return text.charAt(0).toUpperCase() + text.slice(1) + reference + (rnd() < 0.1 ? ' – see 𝔘nicode tables.' : '.');
}

function abstractText(rnd: () => number): string {
  const target = between(rnd, 600, 2500);
  const paragraphs: string[] = [];
  let length = 0;
  while (length < target) {
    const sentences: string[] = [];
    for (let s = between(rnd, 2, 5); s > 0 && length < target; s--) {
      const next = sentence(rnd);
      sentences.push(next);
      length += next.length + 1;
    }
    paragraphs.push(`<p>${sentences.join(' ')}</p>`);
    length += 7;
  }
  return paragraphs.join('');
}

export function syntheticManuscript(
  sizes: SyntheticSizes,
  i: number,
  authorKeys: readonly string[],
  sections: readonly string[],
) {
  const rnd = random(sizes.seed, 2, i);
  const key = `m${String(i + 1).padStart(6, '0')}`;
  const volume = 1 + Math.floor((i * sizes.volumes) / sizes.manuscripts);
  const year = 1925 + volume;
  const title = `${pick(rnd, ['On the', 'New records of', 'Distribution of', 'Notes on', 'Prilog kon', 'Прилог кон'])} ${pick(rnd, GENERA)} ${pick(rnd, SPECIES)} ${pick(rnd, ['in North Macedonia', 'at Lake Ohrid', 'on Galičica', 'во Македонија', 'in the Balkans'])}`;
  const authorCount = between(rnd, 1, 5);
  const authors = new Set<string>();
  while (authors.size < authorCount) authors.add(authorKeys[Math.floor(rnd() * authorKeys.length)]!);
  const keywords = Array.from({ length: between(rnd, 2, 6) }, () =>
    rnd() < 0.3 ? `${pick(rnd, GENERA)} ${pick(rnd, SPECIES)}` : pick(rnd, WORDS),
  );
  const abstract = abstractText(rnd);
  const language = rnd() < 0.2 ? pick(rnd, LANGUAGES) : undefined;
  const pdfPath = `pdfs/${key}.pdf`;
  const lines = [
    `id: ${i + 1}`,
    `citation_volume: ${volume}`,
    `citation_title: ${scalar(title)}`,
    `citation_date: ${year}-${String(between(rnd, 1, 12)).padStart(2, '0')}-${String(between(rnd, 1, 28)).padStart(2, '0')}`,
    ...(language ? [`citation_language: ${language}`] : []),
    `udc: "${pick(rnd, ['582.594', '597.6', '574.5(497.7)', '595.76', ''])}"`,
    `abstract: |-\n  ${abstract}`,
    'keywords:',
    ...keywords.map((k) => `  - ${scalar(k)}`),
    `document: ${pdfPath}`,
    'authors:',
    ...[...authors].map((a) => `  - ${a}`),
    `section: ${pick(rnd, sections)}`,
    '',
  ];
  const plainAbstract = abstract.replace(/<[^>]*>/g, '').slice(0, 600);
  return { key, title, pdfPath, plainAbstract, text: lines.join('\n') };
}
