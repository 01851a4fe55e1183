/**
 * The hosts a journal can name in `hosts` (content/journal.yaml; docs/hosting/). Kept apart from the
 * limits so that the content schema can import the names without the host renderers.
 */
export const HOST_IDS = [
  'cloudflare-pages',
  'netlify',
  'vercel',
  'firebase',
  'azure-static-web-apps',
  's3-cloudfront',
  'github-pages',
  'gitlab-pages',
  'nginx',
  'apache',
  'caddy',
] as const;
export type HostId = (typeof HOST_IDS)[number];
