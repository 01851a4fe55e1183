/**
 * Progress of long builds: count and rate per stage on a terminal, final lines only
 * when asked for in a log, and nothing at all otherwise.
 */
import { describe, expect, it } from 'vitest';
import { terminalProgress } from '../scripts/generator/progress.ts';
import { createWorkspace } from './helpers/workspace.ts';

function fakeTerminal() {
  const written: string[] = [];
  let now = 0;
  return {
    written,
    stream: { write: (text: string) => written.push(text) },
    clock: () => now,
    advanceClock: (ms: number) => (now += ms),
  };
}

describe('progress', () => {
  it('on a terminal, redraws one line per stage with the count and the rate, then ends it', () => {
    const t = fakeTerminal();
    const stage = terminalProgress(t.stream, { live: true }, t.clock).stage('load', 250_000);
    for (let i = 0; i < 10; i++) {
      t.advanceClock(100);
      stage.advance(10_000);
    }
    stage.done();
    expect(t.written.length).toBeGreaterThan(1);
    expect(t.written.every((line) => line.startsWith('\r\u001b[2K'))).toBe(true);
    expect(t.written.at(-1)).toBe('\r\u001b[2Kload     100,000/250,000  100,000/s  1.0 s\n');
    expect(t.written.slice(0, -1).every((line) => !line.endsWith('\n'))).toBe(true);
  });

  it('stays silent for short stages on a terminal', () => {
    const t = fakeTerminal();
    const stage = terminalProgress(t.stream, { live: true }, t.clock).stage('resolve', 8);
    t.advanceClock(20);
    stage.advance(8);
    stage.done();
    expect(t.written).toEqual([]);
  });

  it("in a log (--progress), writes each stage's final line only", () => {
    const t = fakeTerminal();
    const progress = terminalProgress(t.stream, { live: false }, t.clock);
    const stage = progress.stage('write', 4);
    for (let i = 0; i < 4; i++) {
      t.advanceClock(500);
      stage.advance();
    }
    stage.done();
    expect(t.written).toEqual(['write    4/4  2/s  2.0 s\n']);
  });

  it('the command line prints no progress when its output is not a terminal', async () => {
    const workspace = await createWorkspace();
    try {
      const quiet = await workspace.cli('build');
      expect(quiet.code).toBe(0);
      expect(quiet.stderr).toBe('');
      const asked = await workspace.cli('build', '--progress');
      expect(asked.stderr).toMatch(/^load +8\/8 /m);
      expect(asked.stderr).toMatch(/^write +\d+\/\d+ /m);
    } finally {
      await workspace.dispose();
    }
  });
});
