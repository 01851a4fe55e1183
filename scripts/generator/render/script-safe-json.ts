/**
 * JSON inside an HTML script element (JSON-LD): the element ends at the first `</script` in it, and
 * a `<!--` in it changes how the rest is read, whatever the JSON means.
 */

/** JSON that a script element holds as it is: `<`, `>` and `&` as `\u003c`, `\u003e` and `\u0026`. */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`);
}
