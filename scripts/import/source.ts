/**
 * Where the dump comes from: a running deployment's URL, a saved dump file
 * `{"authors": [...], "volumes": [...], "manuscripts": [...]}`, or a folder holding
 * `authors.json`, `volumes.json` and `manuscripts.json`. Reads only; every failure is a problem
 * naming the URL or file and what was expected.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Problem } from '../generator/model/problems.ts';
import { API_LISTS, type ApiList } from '../shared/contract.ts';
import { fetchJson, parseJsonBody } from './http.ts';

export interface Source {
  kind: 'url' | 'file' | 'folder';
  /** How the summary names the source. */
  label: string;
  lists: Record<ApiList, unknown>;
  /** How reports name each list (its URL or file). */
  labels: Record<ApiList, string>;
  /** The exact bytes read: the whole dump file, or one body per list. */
  bytes: { whole: Buffer } | { lists: Record<ApiList, Buffer> };
  /** The origin of a URL source: the public address the API was read from. */
  origin?: string;
  /** What the summary should say about how the source was read. */
  notes: string[];
}

export function isUrl(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

/** SPEC 4: `/api/<list>/?format=api` below the base address (a trailing `/` or `/api` is allowed). */
export function listUrl(base: string, list: ApiList, format = 'api'): string {
  const trimmed = base.replace(/\/+$/, '').replace(/\/api$/, '');
  return `${trimmed}/api/${list}/?format=${format}`;
}

export async function readSource(
  source: string,
  cwd: string,
  timeoutMs: number,
): Promise<{ source?: Source; problems: Problem[] }> {
  if (isUrl(source)) return readUrl(source, timeoutMs);
  const absolute = path.resolve(cwd, source);
  const shown = path.relative(cwd, absolute).split(path.sep).join('/') || '.';
  const info = await stat(absolute).catch(() => undefined);
  if (!info)
    return fail(
      shown,
      'does not exist',
      'a URL, a dump .json file, or a folder with authors.json, volumes.json and manuscripts.json',
    );
  return info.isDirectory() ? readFolder(absolute, shown) : readDumpFile(absolute, shown);
}

async function readUrl(base: string, timeoutMs: number): Promise<{ source?: Source; problems: Problem[] }> {
  let origin: string;
  try {
    origin = new URL(base).origin;
  } catch {
    return fail(base, 'is not a valid URL', 'an address such as https://journal.example.org');
  }
  const problems: Problem[] = [];
  const notes: string[] = [];
  const lists = {} as Record<ApiList, unknown>;
  const labels = {} as Record<ApiList, string>;
  const bytes = {} as Record<ApiList, Buffer>;
  // One list at a time: a small deployment should not see three heavy queries at once.
  for (const list of API_LISTS) {
    const url = listUrl(base, list);
    labels[list] = url;
    const expected = `a 200 response with the JSON array of ${list} (SPEC 4)`;
    let result = await fetchJson(url, { timeoutMs });
    if (!result.ok && result.html) {
      // SPEC 4 says `?format=api` answers JSON, but a stock Django REST Framework deployment
      // answers it with its HTML browsable API; `?format=json` then gives the same list as JSON.
      const jsonUrl = listUrl(base, list, 'json');
      const second = await fetchJson(jsonUrl, { timeoutMs });
      if (second.ok) {
        labels[list] = jsonUrl;
        notes.push(`${url} answered with an HTML page; ${list} were read from ${jsonUrl}`);
      }
      result = second.ok ? second : { ok: false, message: `${result.message}; ${jsonUrl} ${second.message}` };
    }
    if (!result.ok) {
      problems.push(problem(url, result.message, expected));
      continue;
    }
    lists[list] = result.value;
    bytes[list] = result.bytes;
  }
  if (problems.length > 0) return { problems };
  return { source: { kind: 'url', label: base, lists, labels, bytes: { lists: bytes }, origin, notes }, problems };
}

async function readDumpFile(absolute: string, shown: string): Promise<{ source?: Source; problems: Problem[] }> {
  const bytes = await readFile(absolute).catch((error: NodeJS.ErrnoException) => error);
  if (bytes instanceof Error) return fail(shown, `cannot be read (${bytes.code ?? bytes.message})`, 'a readable file');
  const parsed = parseJsonBody(bytes);
  const expected = 'one JSON object {"authors": [...], "volumes": [...], "manuscripts": [...]}';
  if (!parsed.ok) return fail(shown, parsed.message, expected);
  const value = parsed.value;
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return fail(shown, `holds ${Array.isArray(value) ? 'a list' : 'no object'}`, expected);
  const keys = Object.keys(value);
  const missing = API_LISTS.filter((list) => !keys.includes(list));
  const extra = keys.filter((key) => !(API_LISTS as readonly string[]).includes(key));
  if (missing.length || extra.length) {
    const parts = [
      missing.length ? `lacks ${missing.join(', ')}` : '',
      extra.length ? `has the unknown key${extra.length > 1 ? 's' : ''} ${extra.join(', ')}` : '',
    ];
    return fail(shown, parts.filter(Boolean).join(' and '), expected);
  }
  const lists = value as Record<ApiList, unknown>;
  const labels = { authors: shown, volumes: shown, manuscripts: shown };
  return { source: { kind: 'file', label: shown, lists, labels, bytes: { whole: bytes }, notes: [] }, problems: [] };
}

async function readFolder(absolute: string, shown: string): Promise<{ source?: Source; problems: Problem[] }> {
  const problems: Problem[] = [];
  const lists = {} as Record<ApiList, unknown>;
  const labels = {} as Record<ApiList, string>;
  const bytes = {} as Record<ApiList, Buffer>;
  for (const list of API_LISTS) {
    const file = `${shown === '.' ? '' : `${shown}/`}${list}.json`;
    labels[list] = file;
    const expected = `the JSON array of ${list} as the API serves it`;
    const read = await readFile(path.join(absolute, `${list}.json`)).catch((error: NodeJS.ErrnoException) => error);
    if (read instanceof Error) {
      problems.push(
        problem(
          file,
          read.code === 'ENOENT' ? 'is missing' : `cannot be read (${read.code ?? read.message})`,
          expected,
        ),
      );
      continue;
    }
    const parsed = parseJsonBody(read);
    if (!parsed.ok) {
      problems.push(problem(file, parsed.message, expected));
      continue;
    }
    lists[list] = parsed.value;
    bytes[list] = read;
  }
  if (problems.length > 0) return { problems };
  return { source: { kind: 'folder', label: shown, lists, labels, bytes: { lists: bytes }, notes: [] }, problems };
}

function problem(file: string, message: string, expected: string): Problem {
  return { code: 'import/fetch', file, line: 0, column: 0, field: '', message, expected };
}

function fail(file: string, message: string, expected: string): { problems: Problem[] } {
  return { problems: [problem(file, message, expected)] };
}
