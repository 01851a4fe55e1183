/**
 * The one table of path rules that every host configuration is rendered from (STYLE: "host configs
 * are rendered from one table, never written by hand per host"): the rules the API contract fixes
 * (path-rules.ts) and the types each renderer declares with its outputs (render/renderers.ts). A
 * host renderer only translates these rules into its own syntax.
 */
import { RENDERERS } from '../generator/render/renderers.ts';
import { hostRulesFor } from './path-rules.ts';

export * from './path-rules.ts';

export const hostRules = hostRulesFor(RENDERERS);
