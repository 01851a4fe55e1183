/**
 * A mistake in how a command was called (an unknown command, a missing or unsafe option): the
 * command line prints its message with the usage text and exits with code 2, never a stack trace.
 */
export class UsageError extends Error {
  override name = 'UsageError';
}
