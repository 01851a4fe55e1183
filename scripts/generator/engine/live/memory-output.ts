/**
 * Dev's output sink (pipeline.ts, OutputSink): the site a build would write, kept in memory and
 * written nowhere. A renderer lists its outputs when one of them is first asked for, and a file's
 * bytes are made when it is asked for (live-output.ts); the paths are indexed once and kept while
 * they stay the same (output-index.ts), so the conflict check runs only when they change. The files
 * beside the renderers' (public/, the web editor's, the OAI-PMH handler's) are read once and again
 * only when public/ or the settings change. The hosts' limits are not measured: no file is written.
 */
import type { OutputFile } from '../../../shared/output-file.ts';
import type { Renderer } from '../../model/site.ts';
import type { JournalInput } from '../../model/schema.ts';
import type { ExtraFiles, OutputGroup, OutputSink } from '../../pipeline.ts';
import { noListedFields, type ListedFields } from './listing-site.ts';
import { emptyMemo, renderLive, type OutputMemo } from './live-output.ts';
import { chunksOf } from '../write/previous-lists.ts';
import { indexOutputs, listsPaths, outputAt, reindexOutputs, type OutputIndex } from './output-index.ts';

/** The files a build would write into dist/, by their path there. */
export interface LiveFiles {
  has(path: string): boolean;
  /** The bytes of a file the renderers, public/, the web editor or the OAI-PMH handler make. */
  bytes(path: string): Uint8Array | undefined;
  /** The source of a PDF (`media/...`), absolute. */
  mediaSource(path: string): string | undefined;
}

/** What the site in memory keeps from one save to the next. */
export interface KeptOutput {
  memo: OutputMemo;
  /** The outputs of the last site that had no conflict, by path: the same paths have none again. */
  index: OutputIndex | undefined;
  /** What the renderers' listings have read of the records (listing-site.ts). */
  listed: ListedFields;
  /** The files beside the renderers', as last read. */
  extra: Promise<ExtraFiles> | undefined;
}

export function keptOutput(): KeptOutput {
  return { memo: emptyMemo(), index: undefined, listed: noListedFields(), extra: undefined };
}

export interface MemoryOutputOptions {
  readExtraFiles(journal: JournalInput, journalFile: string): Promise<ExtraFiles>;
  /**
   * Whether every renderer lists the paths it listed for the last site: the records were replaced
   * in their places, the same in all the listings read of them (listing-site.ts).
   */
  sameListings(): boolean;
  /** Where each PDF goes in the output, and its file. */
  media(): ReadonlyMap<string, string>;
}

export function outputToMemory(
  renderers: readonly Renderer[],
  kept: KeptOutput,
  options: MemoryOutputOptions,
): OutputSink<LiveFiles> {
  // The web editor's script is bundled when first asked for, and kept while its file is.
  const extraBytes = new WeakMap<OutputFile, Uint8Array>();
  const bytesBeside = (file: OutputFile) => {
    let bytes = extraBytes.get(file);
    if (!bytes) extraBytes.set(file, (bytes = bytesOf(file)));
    return bytes;
  };
  return {
    readExtraFiles: (journal, journalFile) => (kept.extra ??= options.readExtraFiles(journal, journalFile)),
    start(site) {
      const output = renderLive(site, renderers, kept.memo, kept.listed);
      const rendered: OutputGroup[] = renderers.map((renderer, at) => ({
        source: renderer.name,
        get outputs() {
          return output.outputsOf(at);
        },
      }));
      let groups: readonly OutputGroup[] = rendered;
      let index: OutputIndex | undefined;
      // The renderers listed to index or compare their paths need no second look.
      const compared = new Set<number>();
      return Promise.resolve({
        groups: rendered,
        problems: [],
        // The PDFs are served from their files (mediaSource), never copied.
        copyMedia() {},
        conflicts(all) {
          groups = all;
          const same = options.sameListings();
          const indexed = indexOutputs(all, kept.index, same ? rendered.length : 0);
          if ('conflicts' in indexed) return indexed.conflicts;
          index = kept.index = indexed.index;
          if (!same) for (const at of rendered.keys()) compared.add(at);
          return [];
        },
        finish(extra) {
          const beside = new Set<OutputFile>(extra);
          const made = (name: string): { file: OutputFile; rendered: boolean } | undefined => {
            const found = outputAt(index!, groups, name);
            if (!found) return undefined;
            if (found.group >= rendered.length)
              return beside.has(found.output) ? { file: found.output, rendered: false } : undefined;
            if (!compared.has(found.group)) {
              compared.add(found.group);
              // A renderer that lists other paths for the same fields is not pure (model/site.ts):
              // the paths are indexed again from every listing, and the next save checks them whole.
              if (!listsPaths(groups[found.group]!, index!.paths[found.group]!)) {
                index = reindexOutputs(groups);
                kept.index = undefined;
                return made(name);
              }
            }
            return { file: found.output, rendered: true };
          };
          const files: LiveFiles = {
            has: (name) => index!.places.has(name),
            bytes(name) {
              const found = made(name);
              if (!found) return undefined;
              return found.rendered ? output.bytesOf(found.file) : bytesBeside(found.file);
            },
            mediaSource: (name) => options.media().get(name),
          };
          return Promise.resolve({ files });
        },
        abandon: () => Promise.resolve(),
      });
    },
  };
}

/** The bytes of a file beside the renderers' (the web editor's script is made when asked for), as the build writes it. */
function bytesOf(file: OutputFile): Uint8Array {
  return Buffer.concat([...chunksOf(file.body)].flat());
}
