// Node's internal bindings, for the two places that use one (issue 4): stat-walk.mjs (stamps
// without a Stats object and four Dates each) and stitched-brotli.ts (brotli's stream offset, which
// Node's zlib does not pass on). Plain JavaScript, shared with the stat workers. Types:
// node-binding.d.mts.
//
// `process.binding` is itself deprecated (a pending deprecation): when Node is asked to warn of
// those (on the command line, in NODE_OPTIONS or in NODE_PENDING_DEPRECATION), no binding is used,
// so that the build prints no warning of its own making, and each caller takes its plain way.

const PENDING = /(^|\s)--pending[-_]deprecation\b/;

/** The binding `name`, or undefined when it must not or cannot be used. */
export function nodeBinding(name) {
  if (
    process.execArgv.some((flag) => PENDING.test(flag)) ||
    PENDING.test(process.env.NODE_OPTIONS ?? '') ||
    process.env.NODE_PENDING_DEPRECATION === '1'
  )
    return undefined;
  try {
    // eslint-disable-next-line no-restricted-properties -- to be replaced by public APIs
    return process.binding(name);
  } catch {
    return undefined;
  }
}
