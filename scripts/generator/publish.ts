/**
 * What a build does that `check` never does: the renderers, the engine's second seam (outputs →
 * finished dist/), the hosts' limits, public/ and the web editor. The orchestrator loads this only
 * when it has a site to publish: at 1,000 manuscripts these modules were a third of the code a
 * `check` after one edit loaded, and loading them took about 13 ms of its 180.
 */
export { startOutput } from './engine/output.ts';
export { RENDERERS } from './render/renderers.ts';
export { checkHostLimits, ruleFilesOf } from './stages/host-limits.ts';
export { readAdminBundle } from './stages/admin-bundle.ts';
export { readOaiHandler } from './stages/oai-handler.ts';
export { findOutputConflicts, readPublicFiles } from './stages/public-files.ts';
