/**
 * Every output of the site comes from one of these renderers, in this order (the order the files
 * are listed in and written). A new output is a new renderer here: the build keys and reuses its
 * files from what they read (model/site.ts), and every host serves its files as its `types` say,
 * with nothing else to register (docs/architecture.md, "Adding an output").
 */
import type { Renderer } from '../model/site.ts';
import { hostRulesFor } from '../../hosts/path-rules.ts';
import { renderAdmin } from './admin.ts';
import { renderApi } from './api.ts';
import { renderApiDetails } from './api-detail.ts';
import { CITATION_TYPES, renderCitations } from './citations/citations.ts';
import { FEED_TYPES, renderFeed } from './feed.ts';
import { OAI_TYPES, renderOai } from './oai/oai.ts';
import { renderHostFiles } from './host-files.ts';
import { OPENAPI_TYPES, renderOpenApi } from './openapi.ts';
import { renderPages } from './pages.ts';
import { renderSitemap } from './sitemap.ts';

export const RENDERERS: readonly Renderer[] = [
  { name: 'the API lists', render: renderApi },
  { name: 'the API records, root and sections', render: renderApiDetails },
  { name: 'the HTML pages', render: renderPages },
  { name: 'the sitemap', render: renderSitemap },
  { name: 'the citation files', render: renderCitations, types: CITATION_TYPES },
  { name: 'the feed', render: renderFeed, types: FEED_TYPES },
  { name: 'the OpenAPI description', render: renderOpenApi, types: OPENAPI_TYPES },
  { name: 'the OAI-PMH repository', render: renderOai, types: OAI_TYPES },
  // The host rules files serve every renderer's files as its `types` say: made from this list.
  { name: 'the host rules', render: () => renderHostFiles(hostRulesFor(RENDERERS)) },
  { name: 'the web editor', render: renderAdmin },
];
