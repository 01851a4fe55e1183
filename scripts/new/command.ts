/**
 * `npm run new -- manuscript|author|volume [options]`: writes a new record file under content/ with
 * the next free id (and, for a volume, the next numeral), today's date, and every field the options
 * give; prints its path. Refuses to overwrite a file. Today's date is the command's input (the
 * command line reads the clock), never the build's.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { numberToRoman } from '../generator/model/formats.ts';
import { volumeKeys } from '../generator/model/volume-keys.ts';
import type { ProjectPaths } from '../project.ts';
import { UsageError } from '../shared/usage-error.ts';
import { readJournalFacts, type JournalFacts } from './journal-facts.ts';
import { authorText, manuscriptText, volumeText } from './record-text.ts';
import { slugOf } from './slug.ts';

const KINDS = ['manuscript', 'author', 'volume'] as const;
type Kind = (typeof KINDS)[number];

/** The options of each kind (and --content, for every kind). */
const OPTIONS: Record<Kind, readonly string[]> = {
  manuscript: ['title', 'volume', 'authors', 'section'],
  author: ['name', 'surname', 'institution'],
  volume: [],
};

export interface NewRecord {
  /** Relative to the project root. */
  file: string;
  /** The fields left for the editor to fill (the TODOs). */
  todo: string[];
}

/**
 * Parses `args` (what follows `new`), writes the file, prints its path. A mistake in the options is
 * one sentence and exit code 2, without the whole usage text: what `new` takes is in the sentence.
 */
export async function runNew(
  args: readonly string[],
  today: string,
  pathsOf: (content?: string) => ProjectPaths,
): Promise<number> {
  try {
    return await newFromArgs(args, today, pathsOf);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(error.message);
    return 2;
  }
}

async function newFromArgs(
  args: readonly string[],
  today: string,
  pathsOf: (content?: string) => ProjectPaths,
): Promise<number> {
  const [kind, ...rest] = args;
  if (!KINDS.includes(kind as Kind))
    throw new UsageError(`new needs what to make: ${KINDS.join(', ')} (e.g. npm run new -- manuscript --title "...")`);
  const allowed = [...OPTIONS[kind as Kind], 'content'];
  const { values, positionals } = parseArgs({
    args: [...rest],
    allowPositionals: true,
    strict: false,
    options: Object.fromEntries(allowed.map((name) => [name, { type: 'string' as const }])),
  });
  const unknown = Object.keys(values).filter((name) => !allowed.includes(name));
  if (unknown.length > 0 || positionals.length > 0) {
    const what = unknown.length > 0 ? `--${unknown[0]}` : `"${positionals[0]}"`;
    throw new UsageError(
      `new ${kind} does not take ${what}; it takes ${allowed.map((name) => `--${name}`).join(', ')}.`,
    );
  }
  const options = values as Record<string, string | undefined>;
  for (const [name, value] of Object.entries(options))
    if (typeof value !== 'string') throw new UsageError(`--${name} needs a value, e.g. --${name} "..."`);
  const paths = pathsOf(options['content']);
  const made = await makeRecord(paths, kind as Kind, options, today);
  console.log(made.file);
  if (made.todo.length > 0)
    console.error(`Fill in ${made.todo.join(', ')} (marked TODO), then run npm run check or npm run dev.`);
  return 0;
}

async function makeRecord(
  paths: ProjectPaths,
  kind: Kind,
  options: Record<string, string | undefined>,
  today: string,
): Promise<NewRecord> {
  const facts = await readJournalFacts(paths.content);
  const made =
    kind === 'manuscript'
      ? newManuscript(facts, options, today)
      : kind === 'author'
        ? newAuthor(options)
        : newVolume(facts, today);
  const folder = path.join(paths.content, `${kind}s`);
  const absolute = path.join(folder, `${made.key}.yaml`);
  const file = path.relative(paths.root, absolute).split(path.sep).join('/');
  if (facts.taken(`${kind}s`).has(made.key))
    throw new UsageError(
      `${file} (or a file of that name) already exists: nothing was written; choose another ${kind === 'author' ? 'name' : 'title'}.`,
    );
  await mkdir(folder, { recursive: true });
  await writeFile(absolute, made.text, { flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'EEXIST') throw new UsageError(`${file} already exists: nothing was written.`);
    throw error;
  });
  return { file, todo: made.todo };
}

interface Made {
  key: string;
  text: string;
  todo: string[];
}

function newManuscript(facts: JournalFacts, options: Record<string, string | undefined>, today: string): Made {
  const title = options['title']?.trim();
  if (!title) throw new UsageError('new manuscript needs --title "..." (its file name is made from it).');
  const key = slugOf(title);
  if (!key) throw new UsageError(`--title "${title}" has no letters or digits to name its file by.`);
  const volume = options['volume'] === undefined ? latestVolume(facts)?.key : volumeNamed(facts, options['volume']);
  const authors = (options['authors'] ?? '')
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  const unknownAuthor = authors.find((a) => !facts.authorKeys.has(a));
  if (unknownAuthor)
    throw new UsageError(
      `--authors names "${unknownAuthor}", but no file content/authors/${unknownAuthor}.yaml exists (make one with npm run new -- author).`,
    );
  const section = options['section'];
  if (section !== undefined && !facts.sections.includes(section))
    throw new UsageError(`--section "${section}" is not one of the journal's sections: ${facts.sections.join(', ')}.`);
  const todo = [
    ...(volume === undefined ? ['volume'] : []),
    ...(authors.length === 0 ? ['authors'] : []),
    ...(section === undefined ? ['section'] : []),
    'keywords',
    'document (the PDF)',
    'abstract',
  ];
  const text = manuscriptText(facts, {
    id: facts.lastManuscriptId + 1,
    volume,
    title,
    date: today,
    authors,
    section,
    slug: key,
  });
  return { key, text, todo };
}

function newAuthor(options: Record<string, string | undefined>): Made {
  const name = options['name']?.trim();
  const surname = options['surname']?.trim();
  if (!name || !surname)
    throw new UsageError(
      'new author needs --name and --surname (its file name, the key manuscripts use, is made from them).',
    );
  const key = slugOf(`${name} ${surname}`);
  if (!key) throw new UsageError(`"${name} ${surname}" has no letters or digits to name its file by.`);
  const institution = options['institution']?.trim() || undefined;
  return { key, text: authorText({ name, surname, institution }), todo: institution ? [] : ['institution'] };
}

/** The file name of the volume `--volume` names, by the build's rules (volume-keys.ts): its file name, label or numeral. */
function volumeNamed(facts: JournalFacts, key: string): string {
  const keys = volumeKeys(
    facts.volumes.map((v) => ({ id: v.id, citation_journal_title: v.label, origin: { key: v.key, file: v.key } })),
  );
  const match = keys.find(key);
  if (match && 'volume' in match) return match.volume.origin.key;
  const volumes = facts.volumes.map((v) => `${v.key} (${v.label})`).join(', ') || 'none yet';
  throw new UsageError(
    match
      ? `--volume ${key} names more than one volume (${match.ambiguous.map((v) => v.origin.key).join(', ')}): give its file name.`
      : `--volume ${key} names no volume: give its file name, label or numeral; the volumes are ${volumes}.`,
  );
}

/** The volume with the highest numeral (ids need not follow the numerals), else the highest id. */
function latestVolume(facts: JournalFacts) {
  return [...facts.volumes].sort((a, b) => b.numeral - a.numeral || b.id - a.id)[0];
}

function newVolume(facts: JournalFacts, today: string): Made {
  const last = latestVolume(facts);
  const id = Math.max(0, ...facts.volumes.map((v) => v.id)) + 1;
  const numeral = numberToRoman(Math.max(0, ...facts.volumes.map((v) => v.numeral)) + 1);
  const key = `volume-${numeral.toLowerCase()}`;
  const pdf = `volumes/pdfs/${today.slice(0, 4)}/${key}.pdf`;
  // The UDC numbers of a journal rarely change: the last volume's are the likeliest.
  const udc = last?.udc ?? '';
  const text = volumeText(facts, { id, label: `Volume ${numeral}`, date: today, udc, pdf });
  return { key, text, todo: [...(udc ? [] : ['udc']), 'last_page', 'pdf (the PDF)'] };
}
