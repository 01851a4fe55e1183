/**
 * Values given on the command line (`--root`, `--server-name`) end up inside a server's config.
 * One that the config syntax would read as syntax is the user's mistake: the command line reports
 * it without a stack, and nothing is printed.
 */
import { UsageError } from '../shared/usage-error.ts';

/** `value` double-quoted, or refused when it holds a character the syntax would read. */
export function quoteFor(syntax: string, value: string, forbidden: RegExp): string {
  const found = forbidden.exec(value);
  if (found)
    throw new UsageError(
      `${JSON.stringify(value)} cannot be written into ${syntax}: it contains ${JSON.stringify(found[0])}`,
    );
  return `"${value}"`;
}

/** A host name (or `_` for "any"), as every server's config takes it unquoted. */
export function serverName(value: string): string {
  if (!/^(_|[A-Za-z0-9*]([A-Za-z0-9.*-]*[A-Za-z0-9])?)$/.test(value))
    throw new UsageError(`--server-name ${JSON.stringify(value)} is not a host name`);
  return value;
}
