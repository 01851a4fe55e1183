/**
 * Runs `work` over `items` with at most `limit` calls in flight: enough to keep the disk or the
 * network busy, few enough to keep open files and memory bounded. After a failure no new call
 * starts, and the promise settles (with the first error) only once the calls in flight are done:
 * a caller cleaning up after it (write.ts, removing its staging folder) has nothing still running.
 */
export async function forEachLimited<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      try {
        await work(items[next++]!);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const results = await Promise.allSettled(Array.from({ length: Math.min(limit, items.length) }, worker));
  const rejected = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (rejected) throw rejected.reason;
}
