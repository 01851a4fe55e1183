/**
 * Every output of the site comes from one of these renderers, in this order (the order the files
 * are listed in and written). A new output is a new renderer here: the build keys and reuses its
 * files from what they read (model/site.ts), with nothing else to register.
 */
import type { Renderer } from '../model/site.ts';
import { renderAdmin } from './admin.ts';
import { renderApi } from './api.ts';
import { renderApiDetails } from './api-detail.ts';
import { renderCitations } from './citations/citations.ts';
import { renderFeed } from './feed.ts';
import { renderOai } from './oai/oai.ts';
import { renderHostFiles } from './host-files.ts';
import { renderOpenApi } from './openapi.ts';
import { renderPages } from './pages.ts';
import { renderSitemap } from './sitemap.ts';

export const RENDERERS: readonly Renderer[] = [
  { name: 'the API lists', render: renderApi },
  { name: 'the API records, root and sections', render: renderApiDetails },
  { name: 'the HTML pages', render: renderPages },
  { name: 'the OpenAPI description', render: renderOpenApi },
  { name: 'the sitemap', render: renderSitemap },
  { name: 'the citation files', render: renderCitations },
  { name: 'the feed', render: renderFeed },
  { name: 'the OAI-PMH repository', render: renderOai },
  { name: 'the host rules', render: renderHostFiles },
  { name: 'the web editor', render: renderAdmin },
];
