/**
 * What the OAI-PMH tests share: reading the parts of a response they check, following a list's
 * resumption tokens, and validating responses with xmllint against the protocol's schemas
 * (vendored in test/fixtures/schemas/oai-pmh/ with their origin).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from './workspace.ts';

const run = promisify(execFile);
const SCHEMAS = path.join(REPO_ROOT, 'test/fixtures/schemas/oai-pmh');
const SCHEMA = path.join(SCHEMAS, 'driver-oai-pmh-response.xsd');
const CATALOG = path.join(SCHEMAS, 'catalog.xml');

/** xmllint comes from Debian's libxml2-utils; CI installs it (.ci/run). */
const xmllintInstalled = await run('xmllint', ['--version']).then(
  () => true,
  () => false,
);
/** Skipped with the reason where xmllint is missing; under CI, which installs it, the checks run (and fail). */
export const canValidate = xmllintInstalled || Boolean(process.env['CI']);
if (!canValidate) console.warn('xmllint is not installed (Debian libxml2-utils): OAI-PMH schema validation is skipped');

/**
 * Validates whole responses (oai_dc records and the oai-identifier description included) in one
 * xmllint run; resolves to its exit code and report.
 */
export async function validateResponses(bodies: readonly string[]): Promise<{ code: number; report: string }> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'oai-responses-'));
  try {
    const files = await Promise.all(
      bodies.map(async (body, i) => {
        const file = path.join(folder, `${String(i).padStart(5, '0')}.xml`);
        await writeFile(file, body);
        return file;
      }),
    );
    return await validateFiles(files);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** The same for responses already written to files; resolves to xmllint's exit code and report. */
export async function validateFiles(files: readonly string[]): Promise<{ code: number; report: string }> {
  const args = ['--nonet', '--noout', '--schema', SCHEMA, ...files];
  const env = { ...process.env, XML_CATALOG_FILES: CATALOG };
  try {
    const { stderr } = await run('xmllint', args, { env, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, report: stderr };
  } catch (error) {
    const failed = error as { code?: number; stderr?: string };
    return { code: failed.code ?? -1, report: failed.stderr ?? '' };
  }
}

/** The error codes of a response, in order (none for an answer). */
export const errorCodes = (xml: string): string[] => [...xml.matchAll(/<error code="([^"]+)"/g)].map((m) => m[1]!);

/** The `<request>` element as sent. */
export const requestElement = (xml: string): string => /<request[^>]*>[^<]*<\/request>/.exec(xml)?.[0] ?? '';

/** Every header's identifier, in order. */
export const identifiersIn = (xml: string): string[] =>
  [...xml.matchAll(/<header><identifier>([^<]+)<\/identifier>/g)].map((m) => m[1]!);

/** Every header's datestamp, in order. */
export const datestampsIn = (xml: string): string[] =>
  [...xml.matchAll(/<datestamp>([^<]+)<\/datestamp>/g)].map((m) => m[1]!);

export interface TokenElement {
  token: string;
  completeListSize: number;
  cursor: number;
}

/** The resumptionToken element of a list's page, if any (an empty token is the last page's). */
export function resumptionToken(xml: string): TokenElement | undefined {
  const found = /<resumptionToken completeListSize="(\d+)" cursor="(\d+)"(?:\/>|>([^<]*)<\/resumptionToken>)/.exec(xml);
  if (!found) return undefined;
  return { completeListSize: Number(found[1]), cursor: Number(found[2]), token: unescapeXml(found[3] ?? '') };
}

const unescapeXml = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

/** A list harvested whole: every page's body, and the identifiers in the order they came. */
export interface Harvest {
  pages: string[];
  identifiers: string[];
}

/**
 * Asks for a list (`query`, e.g. `verb=ListRecords&metadataPrefix=oai_dc`) and follows its
 * resumption tokens to the end, checking each page's cursor as it goes (`given`: the items a token
 * in `query` follows).
 */
export async function harvest(ask: (query: string) => Promise<string>, query: string, given = 0): Promise<Harvest> {
  const verb = /verb=(\w+)/.exec(query)![1]!;
  const pages: string[] = [];
  const identifiers: string[] = [];
  for (let next: string | undefined = query; next !== undefined;) {
    const page = await ask(next);
    pages.push(page);
    if (errorCodes(page).length > 0) break;
    const token = resumptionToken(page);
    if (token && token.cursor !== given + identifiers.length)
      throw new Error(`page ${pages.length}: cursor ${token.cursor} after ${given + identifiers.length} items`);
    identifiers.push(...identifiersIn(page));
    next = token?.token ? `verb=${verb}&resumptionToken=${encodeURIComponent(token.token)}` : undefined;
    if (pages.length > 10_000) throw new Error('the list never ends');
  }
  return { pages, identifiers };
}

/** The index of a built repository (oai/items.json and its chunks), its items as one list in its order. */
export interface OaiIndex {
  identifierPrefix: string;
  earliestDatestamp: string;
  sets: string[];
  items: [number, string, number[]][];
}

/** Reads the head and every chunk of the whole list from an output folder (`dist`). */
export async function readOaiIndex(dist: string): Promise<OaiIndex> {
  const head = JSON.parse(await readFile(path.join(dist, 'oai/items.json'), 'utf8')) as Omit<OaiIndex, 'items'> & {
    items: { chunks: [string, number, string, number, number][] };
  };
  const items: OaiIndex['items'] = [];
  for (const [, first] of head.items.chunks)
    items.push(
      ...(JSON.parse(await readFile(path.join(dist, `oai/items/${first}.json`), 'utf8')) as OaiIndex['items']),
    );
  return { identifierPrefix: head.identifierPrefix, earliestDatestamp: head.earliestDatestamp, sets: head.sets, items };
}
