/**
 * The one part of the build that the command line starts before it loads the build: the scan of
 * the content folders on worker threads, which runs while the rest of the build's modules load
 * (docs/performance.md). Like build.ts, it is a door into the engine for the commands.
 */
export { scanContent as startContentScan } from './engine/scan/content-scan.ts';
