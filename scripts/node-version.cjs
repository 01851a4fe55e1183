// The oldest Node.js the command line runs on, checked before anything else loads: npm only warns
// about package.json's `engines` when it installs, and on an older Node a build failed deep inside
// (the build cache checksums its files with zlib.crc32, new in 20.15) with an error that named no
// version. Plain JavaScript, as cli.cjs is. Types: node-version.d.cts.
'use strict';

/** The same as package.json's `engines.node` (test/node-version.test.ts keeps them equal). */
const MINIMUM_NODE = '20.15.0';

/** What to tell the user when `version` (as `process.versions.node` gives it) is too old; undefined when it is not. */
function unsupportedNode(version) {
  const [major = 0, minor = 0, patch = 0] = version.split('.').map(Number);
  const [wantedMajor, wantedMinor, wantedPatch] = MINIMUM_NODE.split('.').map(Number);
  const older =
    major !== wantedMajor ? major < wantedMajor : minor !== wantedMinor ? minor < wantedMinor : patch < wantedPatch;
  return older
    ? `This needs Node.js ${MINIMUM_NODE} or newer; this is Node.js ${version}. Install a newer Node.js (https://nodejs.org) and run the command again.`
    : undefined;
}

module.exports = { MINIMUM_NODE, unsupportedNode };
