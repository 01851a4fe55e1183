/**
 * Watches the folders a build reads (content/, public/) and hands over the paths that changed, one
 * batch at a time: a batch that arrives while the previous one is handled waits, and joins the
 * batches after it, so a burst of saves is one rebuild. A batch is handed over once no event has
 * come for SETTLE_MS: an editor's save truncates the file and then writes it, and the file read
 * between the two would be reported empty for a moment.
 *
 * @parcel/watcher: one native watch per folder (inotify on Linux, FSEvents on macOS, the change
 * journal on Windows), events batched and coalesced by the library, its tree of entries kept in
 * native code. A journal of 100,000 manuscripts is a handful of folders, so a handful of watches.
 * Node 20's own recursive `fs.watch` is emulated in JavaScript on Linux, with a watcher per file.
 */
import { existsSync } from 'node:fs';
import watcher from '@parcel/watcher';

const SETTLE_MS = 30;

export interface Watch {
  close(): Promise<void>;
}

export async function watchFolders(
  folders: readonly string[],
  handle: (changed: string[]) => Promise<void>,
  failed: (error: unknown) => void,
): Promise<Watch> {
  let waiting = new Set<string>();
  let running: Promise<void> | undefined;
  let settling: NodeJS.Timeout | undefined;
  const run = () => {
    const changed = [...waiting];
    waiting = new Set();
    running = handle(changed)
      .catch(failed)
      .finally(() => {
        running = undefined;
        if (waiting.size > 0 && !settling) run();
      });
  };
  const subscriptions = await Promise.all(
    folders
      .filter((folder) => existsSync(folder))
      .map((folder) =>
        watcher.subscribe(
          folder,
          (error, events) => {
            if (error) return failed(error);
            for (const event of events) waiting.add(event.path);
            clearTimeout(settling);
            settling = setTimeout(() => {
              settling = undefined;
              if (!running && waiting.size > 0) run();
            }, SETTLE_MS);
          },
          { ignore: ['.git', 'node_modules'] },
        ),
      ),
  );
  return {
    async close() {
      clearTimeout(settling);
      await Promise.all(subscriptions.map((subscription) => subscription.unsubscribe()));
      await running;
    },
  };
}
