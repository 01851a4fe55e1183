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

/**
 * Cloudflare's plans, as far as Pages' limits differ (`cloudflare_pages_plan` in content/journal.yaml):
 * the Free plan serves 20,000 files a site, every paid plan 100,000 (docs/hosting/cloudflare-pages.md).
 */
export const CLOUDFLARE_PAGES_PLANS = ['free', 'paid'] as const;
export type CloudflarePagesPlan = (typeof CLOUDFLARE_PAGES_PLANS)[number];

/**
 * Azure Static Web Apps' plans, as far as its limits differ (`azure_static_web_apps_plan` in
 * content/journal.yaml): an app's content is at most 250 MB on the Free plan, 500 MB on the
 * Standard plan (docs/hosting/azure-static-web-apps.md).
 */
export const AZURE_STATIC_WEB_APPS_PLANS = ['free', 'standard'] as const;
export type AzureStaticWebAppsPlan = (typeof AZURE_STATIC_WEB_APPS_PLANS)[number];
