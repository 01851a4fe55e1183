/**
 * The part of citation-js the tests use (the packages ship no types): a Cite parses a reference
 * file's text, or CSL-JSON data, into CSL-JSON items. The plugins register formats on import.
 */
declare module '@citation-js/core' {
  export class Cite {
    constructor(data: unknown);
    readonly data: unknown[];
  }
}
declare module '@citation-js/plugin-bibtex';
declare module '@citation-js/plugin-ris';
declare module '@citation-js/plugin-csl';
