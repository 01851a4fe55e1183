/**
 * Runs `work` over `items` with at most `limit` calls in flight: enough to keep the disk or the
 * network busy, few enough to keep open files and memory bounded.
 */
export async function forEachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
