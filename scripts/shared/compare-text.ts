/**
 * Texts compared by UTF-16 code units, never by locale: every list and file name sorts the same on
 * every machine (the build's published order, discovery, the import's order plan, the editors' schemas).
 */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
