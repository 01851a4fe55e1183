/**
 * A situation of the user's machine or files that stops a command before it changes anything (an
 * output link that points nowhere, a folder that cannot be read, a disk with no free inodes): the
 * command line prints the message, one sentence that says what to do, and exits with code 1, never
 * a stack trace.
 */
export class Stopped extends Error {
  override name = 'Stopped';
}
