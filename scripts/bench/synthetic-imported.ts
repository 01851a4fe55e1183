/**
 * The `imported` shape of the synthetic journal: records as `npm run import` writes them from a
 * dump of an original deployment (scripts/import/), which the `plain` shape (synthetic-records.ts)
 * does not resemble in the ways a build feels:
 *
 * - manuscripts name their volume with `volume:`, by the volume's file name or by its label, and
 *   the volumes' ids are the original's keys (the newest volume has id 1), not their numerals;
 * - volumes are uneven: a few hold thousands of manuscripts, most a few dozen;
 * - abstracts are longer (1,500 to 6,000 characters), one paragraph a line, with the markup of an
 *   HTML editor: paragraphs, emphasis, sub- and superscripts, links and character references;
 * - institutions are written in two languages and two scripts;
 * - manuscripts have more authors (5 on average, a long tail), prolific authors sign many, and a
 *   few author strings are kept as published;
 * - keywords are one string, optional fields are left out or empty as an import leaves them.
 *
 * Every record is made from (seed, kind, index) alone, as in the plain shape.
 */
import { numberToRoman as roman } from '../generator/model/formats.ts';
import { slug } from '../import/keys.ts';
import {
  between,
  CYRILLIC,
  GENERA,
  pick,
  random,
  scalar,
  SPECIES,
  WORDS,
  type SyntheticSizes,
} from './synthetic-records.ts';

const SECTIONS = ['Zoology', 'Botany', 'Ecology', 'Microbiology', 'Short Communications'];

export function renderImportedJournal(seed: number) {
  const text = [
    'title: Bulletin of the Imported Biology Society',
    'base_url: https://journal.example.org',
    'media_url: https://media.example.org',
    'citation_issn: 1857 - 9639',
    'citation_language: English',
    `# imported shape, generated with seed ${seed}`,
    'hosts:',
    '  - netlify',
    '  - firebase',
    'sections:',
    ...SECTIONS.map((s) => `  - ${s}`),
    '',
  ].join('\n');
  return { text, sections: SECTIONS };
}

/** Given names and surnames whose keys (scripts/import/keys.ts) are all different. */
const GIVEN = [
  'Ана',
  'Marko',
  'Елена',
  'Стефан',
  'Jane',
  'Иван',
  'Biljana',
  'Zoë',
  'Ömer',
  'Đorđe',
  'Łucja',
  'Αλέξανδρος',
  'Noa',
  'Jiří',
  'Ágnes',
  'Renée',
  'Ioana',
  'Милица',
  'Blerta',
  'Georgios',
];
const FAMILY = [
  'Петровска',
  'Nikolov',
  'Trajkovska',
  'Doe',
  'Jovanovski',
  'Кочовски',
  'Müller',
  "O'Brien",
  'Dvořák',
  'van der Berg',
  'Ристевска',
  'Hoxha',
  'Smith-Jones',
  'Nguyễn',
  'Παπαδοπούλου',
  'Ахмети',
  'Kowalczyk',
  'Yılmaz',
  'Stojanovska',
  'Lefèvre',
  'Ѓорѓиев',
  'Hämäläinen',
];
/** A department and an institution, each in the local language and script and in English. */
const DEPARTMENTS: [string, string][] = [
  ['Институт за биологија', 'Institute of Biology'],
  ['Катедра за зоологија', 'Department of Zoology'],
  ['Катедра за ботаника', 'Department of Botany'],
  ['Лабораторија за хидробиологија', 'Laboratory of Hydrobiology'],
  ['Τμήμα Βιολογίας', 'Department of Biology'],
  ['Zoologisches Institut', 'Institute of Zoology'],
  ['Катедра за екологија', 'Department of Ecology'],
  ['Departamenti i Biologjisë', 'Department of Biology'],
  ['Одсек за микробиологија', 'Department of Microbiology'],
  ['Katedra Genetyki', 'Department of Genetics'],
];
const INSTITUTIONS: [string, string][] = [
  [
    'Природно-математички факултет, Универзитет „Св. Кирил и Методиј“, Архимедова 3, 1000 Скопје, Северна Македонија',
    'Faculty of Natural Sciences and Mathematics, Ss. Cyril and Methodius University, Arhimedova 3, 1000 Skopje, North Macedonia',
  ],
  ['Хидробиолошки завод, Наум Охридски 50, 6000 Охрид', 'Hydrobiological Institute, Naum Ohridski 50, 6000 Ohrid'],
  [
    'Македонски природонаучен музеј, Бул. Илинден 86, Скопје',
    'Macedonian Museum of Natural History, Bul. Ilinden 86, Skopje',
  ],
  ['Πανεπιστήμιο Πατρών, 265 04 Ρίο', 'University of Patras, 265 04 Rio, Greece'],
  ['Универзитет „Гоце Делчев“, Штип', 'Goce Delčev University, Štip'],
  ['Universität Wien, Djerassiplatz 1, 1030 Wien', 'University of Vienna, Djerassiplatz 1, 1030 Vienna, Austria'],
  ['Универзитет у Београду, Биолошки факултет', 'University of Belgrade, Faculty of Biology'],
  ['Universiteti i Tiranës, Fakulteti i Shkencave të Natyrës', 'University of Tirana, Faculty of Natural Sciences'],
  ['Софийски университет „Св. Климент Охридски“', 'Sofia University St. Kliment Ohridski'],
  ['Uniwersytet Jagielloński, Gronostajowa 7, Kraków', 'Jagiellonian University, Gronostajowa 7, Kraków, Poland'],
  ['Земјоделски институт, Скопје', 'Agricultural Institute, Skopje'],
  ['Институт за сточарство, Скопје', 'Institute of Animal Science, Skopje'],
];

function institution(rnd: () => number): string {
  const [localDepartment, department] = pick(rnd, DEPARTMENTS);
  const [localInstitution, institution] = pick(rnd, INSTITUTIONS);
  const local = `${localDepartment}, ${localInstitution}`;
  const english = `${department}, ${institution}`;
  const r = rnd();
  if (r < 0.15) return english;
  if (r < 0.5) return `${local} / ${english}`;
  if (r < 0.8) return `${english} (${local})`;
  return `${local}; ${english}.`;
}

/**
 * The i-th author: the name pairs are walked in a scrambled order, so neighbours differ; once all
 * are taken they repeat, keyed as an import keys them (`ana-petrovska`, then `ana-petrovska-2`).
 */
export function importedAuthor(seed: number, i: number) {
  const rnd = random(seed, 11, i);
  const pairs = GIVEN.length * FAMILY.length;
  const pair = (i * 263) % pairs;
  const name = GIVEN[pair % GIVEN.length]!;
  const surname = FAMILY[Math.floor(pair / GIVEN.length)]!;
  const repeat = Math.floor(i / pairs);
  const key = `${slug(`${name} ${surname}`, 'author')}${repeat ? `-${repeat + 1}` : ''}`;
  const text = `name: ${scalar(name)}\nsurname: ${scalar(surname)}\ninstitution: ${scalar(institution(rnd))}\n`;
  return { key, text };
}

/**
 * Where the volumes start: the i-th manuscript is in the volume whose range holds i. About one
 * volume in sixteen, more often among the recent ones, weighs 20 to 60 times a small one.
 */
export function importedVolumeStarts(sizes: SyntheticSizes): number[] {
  const weights = Array.from({ length: sizes.volumes }, (_, v) => {
    const rnd = random(sizes.seed, 12, v);
    return rnd() < 0.03 + (0.07 * v) / sizes.volumes ? 20 + 40 * rnd() : 0.2 + 1.6 * rnd();
  });
  const total = weights.reduce((a, b) => a + b, 0);
  // Each volume holds at least one manuscript where there are enough.
  const spare = Math.max(0, sizes.manuscripts - sizes.volumes);
  const starts: number[] = [];
  let start = 0;
  let share = 0;
  for (const [v, weight] of weights.entries()) {
    starts.push(Math.min(start, sizes.manuscripts));
    share += weight;
    start = Math.min(v + 1, sizes.manuscripts) + Math.floor((spare * share) / total);
  }
  return starts;
}

/** Volume n (1 to volumes): its file is named after its numeral; the newest has id 1, as in the original. */
export function importedVolume(sizes: SyntheticSizes, n: number) {
  const rnd = random(sizes.seed, 13, n);
  const numeral = roman(n);
  const key = `volume-${numeral.toLowerCase()}`;
  const year = importedYear(sizes, n);
  const title = `Volume ${numeral}`;
  const pdfPath = `volumes/pdfs/${year}/${key}.pdf`;
  const text = [
    `id: ${n === sizes.volumes ? 1 : n + 1}`,
    `citation_journal_title: ${title}`,
    ...(rnd() < 0.1 ? ['citation_language: Macedonian'] : []),
    `udc: ${pick(rnd, ['57 59', '57', '574.5 59', '58 59'])}`,
    'first_page: "1"',
    `last_page: "${between(rnd, 60, 900)}"`,
    `full_date: ${year}-12-${String(between(rnd, 1, 28)).padStart(2, '0')}`,
    `pdf: ${pdfPath}`,
    '',
  ].join('\n');
  return { key, title, year, pdfPath, text };
}

/** Seventy-five years of volumes, several a year when there are many. */
function importedYear(sizes: SyntheticSizes, n: number): number {
  return 1950 + Math.floor(((n - 1) * 75) / sizes.volumes);
}

const ENTITIES = ['&amp;', '&nbsp;', '&#8211;', '&deg;C', '&plusmn;', '&micro;m', '&lt;', '&gt;', '&quot;'];

function sentence(rnd: () => number, words: readonly string[]): string {
  const parts: string[] = [];
  for (let w = between(rnd, 10, 26); w > 0; w--) {
    const r = rnd();
    if (r < 0.07) parts.push(`<em>${pick(rnd, GENERA)} ${pick(rnd, SPECIES)}</em>`);
    else if (r < 0.09) parts.push(`<i>${pick(rnd, GENERA)}</i> sp.`);
    else if (r < 0.11)
      parts.push(`${between(rnd, 2, 40)}&nbsp;${pick(rnd, ['&deg;C', '&micro;m', 'mg&nbsp;l<sup>-1</sup>'])}`);
    else if (r < 0.13)
      parts.push(pick(rnd, ['CO<sub>2</sub>', 'NO<sub>3</sub><sup>-</sup>', 'PM<sub>10</sub>', 'H<sub>2</sub>S']));
    else if (r < 0.15) parts.push(`(p &lt; 0.0${between(rnd, 1, 5)})`);
    else if (r < 0.17) parts.push(pick(rnd, ENTITIES));
    else if (r < 0.18) parts.push(`<strong>${pick(rnd, words)}</strong>`);
    else parts.push(pick(rnd, words));
  }
  const text = parts.join(' ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/** Paragraphs on lines of their own, as an HTML editor saved them; one in five has a Macedonian summary. */
function importedAbstract(rnd: () => number): string {
  const target = between(rnd, 1500, 6000);
  const paragraphs: string[] = [];
  let length = 0;
  while (length < target) {
    const sentences: string[] = [];
    for (let s = between(rnd, 3, 7); s > 0 && length < target; s--) {
      const next = sentence(rnd, WORDS);
      sentences.push(next);
      length += next.length + 1;
    }
    if (rnd() < 0.05)
      sentences.push(`See <a href="https://doi.org/10.5281/zenodo.${between(rnd, 100000, 999999)}">the data</a>.`);
    paragraphs.push(`<p>${sentences.join(' ')}</p>`);
    length += 7;
  }
  if (rnd() < 0.2)
    paragraphs.push(`<p><strong>Апстракт.</strong> ${sentence(rnd, CYRILLIC)} ${sentence(rnd, CYRILLIC)}</p>`);
  return paragraphs.join('\n  ');
}

/** The volume of the i-th manuscript: the last volume that starts at or before it. */
function volumeOf(starts: readonly number[], i: number): number {
  let [low, high] = [0, starts.length - 1];
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (starts[middle]! <= i) low = middle;
    else high = middle - 1;
  }
  return low + 1;
}

export function importedManuscript(
  sizes: SyntheticSizes,
  i: number,
  authorKeys: readonly string[],
  sections: readonly string[],
  volumeStarts: readonly number[],
) {
  const rnd = random(sizes.seed, 14, i);
  const id = i + 1;
  const n = volumeOf(volumeStarts, i);
  const species = `${pick(rnd, GENERA)} ${pick(rnd, SPECIES)}`;
  const title = `${pick(rnd, ['New records of', 'Distribution of', 'Notes on', 'Population structure of', 'Прилог кон познавањето на'])} ${rnd() < 0.4 ? `<i>${species}</i>` : species} ${pick(rnd, ['in North Macedonia', 'at Lake Ohrid', 'on Galičica', 'во Македонија', 'in the Balkans', '(Insecta: Coleoptera) from Jakupica'])}`;
  const key = `${id}-${slug(title.replace(/<[^>]*>/g, ''), 'manuscript')
    .slice(0, 40)
    .replace(/-+$/, '')}`;
  const volume = rnd() < 0.7 ? `volume-${roman(n).toLowerCase()}` : `Volume ${roman(n)}`;
  const year = importedYear(sizes, n);
  const language = rnd();
  const authorCount = Math.min(40, authorKeys.length, 1 + Math.floor(-Math.log(1 - rnd()) * 4.5));
  const authors = new Set<string>();
  // Prolific authors sign many manuscripts: the first authors are picked far more often.
  while (authors.size < authorCount) authors.add(authorKeys[Math.floor(authorKeys.length * rnd() ** 1.5)]!);
  const entries = [...authors].map((a) =>
    rnd() < 0.03 ? `as_published: ${scalar(`${pick(rnd, GENERA).charAt(0)}. ${pick(rnd, FAMILY)}`)}` : a,
  );
  const keywords = Array.from({ length: between(rnd, 3, 8) }, () =>
    rnd() < 0.3 ? species : rnd() < 0.2 ? pick(rnd, CYRILLIC) : pick(rnd, WORDS),
  );
  const abstract = importedAbstract(rnd);
  const udc = rnd() < 0.4 ? undefined : pick(rnd, ['597.6', '582.594', '574.5', '591.5']);
  const pdfPath = `pdfs/ms-${id}-${pick(rnd, ['a', 'b'])}.pdf`;
  const lines = [
    `id: ${id}`,
    `volume: ${volume}`,
    `citation_title: ${scalar(title)}`,
    `citation_date: ${year}-${String(between(rnd, 1, 12)).padStart(2, '0')}-${String(between(rnd, 1, 28)).padStart(2, '0')}`,
    ...(language < 0.05 ? ['citation_language: ""'] : language < 0.2 ? ['citation_language: Macedonian'] : []),
    ...(udc ? [`udc: "${udc}"`] : []),
    ...(rnd() < 0.08 ? ['citation_issn: ""'] : []),
    'authors:',
    ...entries.map((a) => `  - ${a}`),
    `section: ${pick(rnd, sections)}`,
    `keywords: ${scalar(`${keywords.join(', ')}.`)}`,
    `document: ${pdfPath}`,
    `abstract: |-\n  ${abstract}`,
    '',
  ];
  const plainAbstract = abstract
    .replace(/<[^>]*>/g, '')
    .replace(/&[#\w]+;/g, ' ')
    .slice(0, 600);
  return { key, title: title.replace(/<[^>]*>/g, ''), pdfPath, plainAbstract, text: lines.join('\n') };
}
