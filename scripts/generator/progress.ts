/**
 * Progress of a long build on a terminal: one line per stage with the count done and
 * the rate, rewritten in place a few times a second; a final line per stage with its time.
 * Silent when the output is not a terminal (CI logs, pipes, tests), so logs hold only results.
 */
import { countText } from '../shared/count-text.ts';

export interface ProgressStage {
  advance(count?: number): void;
  done(): void;
}

export interface Progress {
  stage(name: string, total: number): ProgressStage;
}

/** Stages shorter than this print nothing at all: small journals build without chatter. */
const QUIET_BELOW_MS = 500;
const REDRAW_MS = 200;

export const silentProgress: Progress = { stage: () => ({ advance: () => {}, done: () => {} }) };

/**
 * `stream` is where lines go (the command line passes `process.stderr`). `live` redraws the current
 * line in place (a terminal); otherwise only each stage's final line is written (`--progress` in a log).
 */
export function terminalProgress(
  stream: { write(text: string): unknown },
  options: { live: boolean },
  clock: () => number = () => performance.now(),
): Progress {
  return {
    stage(name, total) {
      const started = clock();
      let done = 0;
      let drawn = started;
      let shown = false;
      const line = (final: boolean) => {
        const seconds = (clock() - started) / 1000;
        const rate = seconds > 0 ? Math.round(done / seconds) : 0;
        const count = total > 0 ? `${countText(done)}/${countText(total)}` : countText(done);
        const text = `${name.padEnd(8)} ${count}  ${countText(rate)}/s  ${seconds.toFixed(1)} s`;
        return options.live ? `\r\u001b[2K${text}${final ? '\n' : ''}` : `${text}\n`;
      };
      return {
        advance(count = 1) {
          done += count;
          const now = clock();
          if (options.live && now - drawn >= REDRAW_MS && now - started >= QUIET_BELOW_MS) {
            stream.write(line(false));
            drawn = now;
            shown = true;
          }
        },
        done() {
          if (shown || !options.live || clock() - started >= QUIET_BELOW_MS) stream.write(line(true));
        },
      };
    },
  };
}

/** Runs one stage of work as a progress stage of `count` items (reported when it ends). */
export async function timed<T>(
  progress: Progress,
  name: string,
  count: number,
  work: () => T | Promise<T>,
): Promise<T> {
  const stage = progress.stage(name, count);
  const result = await work();
  stage.advance(count);
  stage.done();
  return result;
}
