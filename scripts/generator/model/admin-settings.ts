/**
 * The `admin` setting of content/journal.yaml: whether the site publishes the web editor under
 * `/admin/` (docs/web-editor.md), and the git host the editor saves to. Read like every other
 * setting: a YAML file gives text (`true`, not a boolean), a JSON file gives JSON's types.
 */
import type { ProblemCode } from './problems.ts';

/** The git hosts the web editor can save to (the CMS's backends that need no settings beyond these). */
const ADMIN_BACKENDS = ['github', 'gitlab', 'gitea', 'bitbucket', 'git-gateway'] as const;
export type AdminBackend = (typeof ADMIN_BACKENDS)[number];

export interface AdminSettings {
  enabled: boolean;
  backend: AdminBackend;
  /** `owner/name` (GitLab: `group/subgroup/name`); git-gateway needs none. */
  repo?: string;
  branch: string;
  /** The origin of the OAuth server that signs editors in (GitHub outside Netlify). */
  base_url?: string;
  /** Its path, when it is not the CMS's default `auth`. */
  auth_endpoint?: string;
}

const SETTINGS = ['enabled', 'backend', 'repo', 'branch', 'base_url', 'auth_endpoint'] as const;
const REPO = /^[A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.-]+)+$/;
/** A branch name git accepts and a URL needs no escaping for. */
const BRANCH = /^[A-Za-z0-9_][A-Za-z0-9_./-]*$/;
const ORIGIN = /^https?:\/\/[^/?#\s]+$/;
const ENDPOINT = /^[A-Za-z0-9_.~-]+(?:\/[A-Za-z0-9_.~-]+)*$/;

const EXPECTED = {
  whole: `a mapping of web editor settings: ${SETTINGS.join(', ')}`,
  enabled: 'true or false',
  backend: `one of: ${ADMIN_BACKENDS.join(', ')}`,
  repo: 'the repository as owner/name, e.g. my-society/journal',
  branch: 'the branch the editor saves to, e.g. main',
  base_url: 'the origin of the OAuth server, e.g. https://auth.example.org',
  auth_endpoint: 'the OAuth server path, e.g. api/auth',
} as const;

export const ADMIN_JSON_SCHEMA = {
  type: 'object',
  description: 'the web editor under /admin/ (docs/web-editor.md): published when enabled is true',
  properties: {
    enabled: { type: ['boolean', 'string'], enum: [true, false, 'true', 'false'], description: EXPECTED.enabled },
    backend: { enum: [...ADMIN_BACKENDS], description: `the git host: ${EXPECTED.backend}` },
    repo: { type: 'string', pattern: REPO.source, description: EXPECTED.repo },
    branch: { type: 'string', pattern: BRANCH.source, description: `${EXPECTED.branch} (main when omitted)` },
    base_url: { type: 'string', pattern: ORIGIN.source, description: EXPECTED.base_url },
    auth_endpoint: { type: 'string', pattern: ENDPOINT.source, description: EXPECTED.auth_endpoint },
  },
  required: ['enabled'],
  additionalProperties: false,
};

type Parsed = { ok: true; value: AdminSettings } | { ok: false; code: ProblemCode; message: string; expected: string };

const bad = (code: ProblemCode, message: string, expected: string): Parsed => ({ ok: false, code, message, expected });

export function parseAdminSettings(value: unknown): Parsed {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return bad('schema/type', `is ${Array.isArray(value) ? 'a list' : JSON.stringify(value)}`, EXPECTED.whole);
  const given = value as Record<string, unknown>;
  const unknown = Object.keys(given).find((key) => !(SETTINGS as readonly string[]).includes(key));
  if (unknown !== undefined)
    return bad('schema/unknown-field', `has the unknown setting ${JSON.stringify(unknown)}`, EXPECTED.whole);

  const text = (name: keyof typeof EXPECTED, shape: RegExp): string | Parsed | undefined => {
    const setting = given[name];
    if (setting === undefined) return undefined;
    if (typeof setting !== 'string' || !shape.test(setting))
      return bad('schema/format', `${name} ${JSON.stringify(setting)} is not valid`, EXPECTED[name]);
    return setting;
  };

  const enabled = given['enabled'];
  if (enabled === undefined) return bad('schema/missing', 'enabled is missing', EXPECTED.enabled);
  if (enabled !== true && enabled !== false && enabled !== 'true' && enabled !== 'false')
    return bad('schema/format', `enabled ${JSON.stringify(enabled)} is not valid`, EXPECTED.enabled);
  const on = enabled === true || enabled === 'true';

  const backend = given['backend'] ?? (on ? undefined : 'github');
  if (backend === undefined) return bad('schema/missing', 'backend is missing', EXPECTED.backend);
  if (!(ADMIN_BACKENDS as readonly unknown[]).includes(backend))
    return bad('schema/format', `backend ${JSON.stringify(backend)} is not known`, EXPECTED.backend);

  const settings: AdminSettings = { enabled: on, backend: backend as AdminBackend, branch: 'main' };
  for (const [name, shape] of [
    ['repo', REPO],
    ['branch', BRANCH],
    ['base_url', ORIGIN],
    ['auth_endpoint', ENDPOINT],
  ] as const) {
    const result = text(name, shape);
    if (typeof result === 'object') return result;
    if (result !== undefined) settings[name] = result;
  }
  // git-gateway finds the repository from the site's own Netlify settings.
  if (on && settings.backend !== 'git-gateway' && settings.repo === undefined)
    return bad('schema/missing', 'repo is missing', EXPECTED.repo);
  return { ok: true, value: settings };
}
