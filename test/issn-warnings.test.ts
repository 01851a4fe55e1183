/**
 * ISSN check digits: every ISSN the content writes (the journal's print and online ISSN, a volume's
 * and a manuscript's override) is checked, and a wrong check digit is a warning at its file, line
 * and column, never a problem: imported data must round-trip as it was published.
 */
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { issnCheckDigit } from '../scripts/generator/model/identifiers.ts';
import { formatProblem } from '../scripts/generator/model/problems.ts';
import { age } from './helpers/incremental.ts';
import { VALID_JOURNAL, createWorkspace, type Workspace } from './helpers/workspace.ts';

let ws: Workspace | undefined;
afterEach(async () => {
  await ws?.dispose();
  ws = undefined;
});

const fixture = (file: string) => readFile(path.join(VALID_JOURNAL, file), 'utf8');

describe('the ISSN check digit', () => {
  it.each([
    ['0378-5955', '5'],
    ['2049-3630', '0'],
    ['1050-124X', 'X'],
    ['1857-9639', '9'],
    ['1857-9876', '6'],
  ])('of %s is %s (weights 8 to 2, mod 11, X for 10)', (issn, check) => {
    expect(issnCheckDigit(issn.replace('-', '').slice(0, 7))).toBe(check);
  });
});

describe('a wrong ISSN check digit', () => {
  it('is a warning at the field, in every place an ISSN is written, and the build succeeds', async () => {
    const journal = await fixture('journal.yaml');
    const volume = await fixture('volumes/volume-i.yaml');
    const orchids = await fixture('manuscripts/orchids.yaml');
    ws = await createWorkspace({
      'journal.yaml': `${journal.replace('1857 - 9639', '1857 - 9870')}online_issn: 2545 - 4260\n`,
      'volumes/volume-i.yaml': volume.replace('1857 - 9639', '1857 - 9870'),
      'manuscripts/orchids.yaml': orchids.replace('citation_issn: ""', 'citation_issn: 0378 - 5950'),
    });
    const result = await ws.build();
    expect(result.problems).toEqual([]);
    expect(result.ok).toBe(true);
    const journalLines = journal.split('\n').length;
    expect(result.warnings).toEqual([
      'content/journal.yaml:4:16 citation_issn: the check digit of "1857 - 9870" is 0, but its first seven digits give 6 ("1857 - 9876" if the first seven digits are right; an ISSN published with a wrong check digit may stay as it is)',
      `content/journal.yaml:${journalLines}:14 online_issn: the check digit of "2545 - 4260" is 0, but its first seven digits give 9 ("2545 - 4269" if the first seven digits are right; an ISSN published with a wrong check digit may stay as it is)`,
      expect.stringMatching(
        new RegExp(
          `^content/manuscripts/orchids\\.yaml:7:16 citation_issn: the check digit of "0378 - 5950" is 0, but its first seven digits give 5 `,
        ),
      ),
      expect.stringMatching(
        new RegExp(`^content/volumes/volume-i\\.yaml:5:16 citation_issn: the check digit of "1857 - 9870"`),
      ),
    ]);
    // Published as written: the API keeps the ISSN byte for byte.
    const volumes = await readFile(path.join(ws.paths.out, 'api/volumes/index.json'), 'utf8');
    expect(volumes).toContain('"citation_issn":"1857 - 9870"');
  });

  it('is reported the same by a build whose records come from the build cache', async () => {
    const orchids = await fixture('manuscripts/orchids.yaml');
    ws = await age(
      await createWorkspace({
        'manuscripts/orchids.yaml': orchids.replace('citation_issn: ""', 'citation_issn: 0378 - 5950'),
      }),
    );
    const cold = await ws.build();
    expect(cold.warnings).toHaveLength(1);
    const check = await ws.build('check');
    expect(check.parsed).toBe(0);
    expect(check.warnings).toEqual(cold.warnings);
    await rm(ws.paths.out, { recursive: true, force: true });
    const cached = await ws.build();
    expect(cached.parsed).toBe(0);
    expect(cached.warnings).toEqual(cold.warnings);
  });

  it('is printed by the command line as a warning, with exit code 0; a right one prints nothing', async () => {
    const journal = await fixture('journal.yaml');
    ws = await createWorkspace({
      'journal.yaml': journal.replace('1857 - 9639', '1857 - 9870'),
      'volumes/volume-i.yaml': (await fixture('volumes/volume-i.yaml')).replace(/citation_issn: .*\n/, ''),
    });
    const run = await ws.cli('check');
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      'Warning: content/journal.yaml:4:16 citation_issn: the check digit of "1857 - 9870" is 0, but its first seven digits give 6',
    );
    await ws.write('journal.yaml', journal);
    const clean = await ws.cli('check');
    expect(clean.code).toBe(0);
    expect(clean.stderr).toBe('');
  });
});

describe('an ISSN whose check character is X', () => {
  // About one ISSN in eleven ends in X (ISO 3297 writes 10 so); 1050-124X is a real one.
  it('builds in every field that holds an ISSN, published as written, with no warning', async () => {
    const journal = await fixture('journal.yaml');
    const volume = await fixture('volumes/volume-i.yaml');
    const orchids = await fixture('manuscripts/orchids.yaml');
    ws = await createWorkspace({
      'journal.yaml': journal.replace('1857 - 9639', '1050 - 124X'),
      'volumes/volume-i.yaml': volume.replace('1857 - 9639', '1050 - 124X'),
      'manuscripts/orchids.yaml': orchids.replace('citation_issn: ""', 'citation_issn: 1050 - 124X'),
    });
    const result = await ws.build();
    expect(result.problems).toEqual([]);
    expect(result.warnings).toEqual([]);
    const volumes = await readFile(path.join(ws.paths.out, 'api/volumes/index.json'), 'utf8');
    expect(volumes).toContain('"citation_issn":"1050 - 124X"');
    const manuscripts = await readFile(path.join(ws.paths.out, 'api/manuscripts/index.json'), 'utf8');
    expect(manuscripts).toContain('"citation_issn":"1050 - 124X"');
    const openapi = JSON.parse(await readFile(path.join(ws.paths.out, 'api/openapi.json'), 'utf8')) as unknown;
    const patterns = JSON.stringify(openapi).match(/"pattern":"[^"]*d\{4\} - [^"]*"/g) ?? [];
    expect(patterns.length).toBeGreaterThan(0);
    for (const pattern of patterns) expect(pattern).toContain('[\\\\dX]');
  });

  it('is refused in lower case, saying to write a capital X', async () => {
    const journal = await fixture('journal.yaml');
    ws = await createWorkspace({ 'journal.yaml': journal.replace('1857 - 9639', '1050 - 124x') });
    const result = await ws.build();
    expect(result.ok).toBe(false);
    expect(result.problems.map(formatProblem).join('\n')).toMatch(/citation_issn: .*1050 - 124x.*capital X/);
  });
});
