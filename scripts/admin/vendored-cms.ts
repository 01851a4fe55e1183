/**
 * Where the web editor's copy of Decap CMS lives: vendor/decap-cms/, the prebuilt browser bundle
 * from the npm package `decap-cms`, with its license notices and ORIGIN.json (the version, the
 * tarball it came from and each file's SHA-256). scripts/admin/vendor-cms.ts refreshes it.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/** The folder, with a trailing slash. */
export const VENDORED_CMS = new URL('../../vendor/decap-cms/', import.meta.url);
/** The file that says where the copy came from. */
export const CMS_ORIGIN = 'ORIGIN.json';

export interface CmsOrigin {
  package: string;
  version: string;
  tarball: string;
  /** The tarball's integrity, as the registry gives it. */
  integrity: string;
  /** Each vendored file's `sha256-<base64>`. */
  files: Record<string, string>;
}

export async function readCmsOrigin(): Promise<CmsOrigin> {
  return JSON.parse(await readFile(new URL(CMS_ORIGIN, VENDORED_CMS), 'utf8')) as CmsOrigin;
}

/** A vendored file's path on disk. */
export function vendoredCmsFile(name: string): string {
  return fileURLToPath(new URL(name, VENDORED_CMS));
}
