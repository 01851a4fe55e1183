/**
 * A manuscript names its volume by a key an editor can read (`volume:`), resolved after every file
 * is loaded: the volume's file name, its label, or the label's numeral. The published
 * `citation_volume` is still the volume's id (SPEC 2.3, SPEC-NOTES 1), which in the fixture journal
 * differs from the numeral: Volume II has id 1, Volume I id 2.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Problem } from '../scripts/generator/model/problems.ts';
import { createWorkspace, type Workspace } from './helpers/workspace.ts';
import { NEW_MANUSCRIPT } from './helpers/records.ts';
import { age, expectSameAsCold } from './helpers/incremental.ts';
import { WARNINGS_SHOWN } from '../scripts/generator/stages/volume-references.ts';

let workspace: Workspace | undefined;
afterEach(async () => {
  await workspace?.dispose();
  workspace = undefined;
});

const where = (p: Problem) => `${p.code} ${p.file}:${p.line}:${p.column} ${p.field}`;
const withVolume = (line: string) => NEW_MANUSCRIPT.replace('volume: volume-ii', line);

async function publishedVolumeOf(ws: Workspace, id: number): Promise<unknown> {
  const list = JSON.parse(await readFile(path.join(ws.paths.out, 'api/manuscripts/index.json'), 'utf8')) as {
    id: number;
    citation_volume: number;
  }[];
  return list.find((m) => m.id === id)?.citation_volume;
}

describe('a manuscript names its volume by a readable key', () => {
  it.each(['volume-ii', 'II', 'Volume II', 'volume ii', '2', '"2"'])(
    '`volume: %s` lands in Volume II, published with its id',
    async (key) => {
      workspace = await createWorkspace({ 'manuscripts/new.yaml': withVolume(`volume: ${key}`) });
      const result = await workspace.build();
      expect(result.problems).toEqual([]);
      expect(result.warnings ?? []).toEqual([]);
      expect(await publishedVolumeOf(workspace, 40)).toBe(1);
    },
  );

  it('a JSON manuscript may name its volume by its numeral as a number', async () => {
    workspace = await createWorkspace({
      'manuscripts/beetles.json': (
        await readFile('test/fixtures/valid-journal/manuscripts/beetles.json', 'utf8')
      ).replace('"volume": "volume-i"', '"volume": 1'),
    });
    const result = await workspace.build();
    expect(result.problems).toEqual([]);
    const beetles = JSON.parse(await readFile('test/fixtures/valid-journal/manuscripts/beetles.json', 'utf8')) as {
      id: number;
    };
    // Volume I, whose id is 2.
    expect(await publishedVolumeOf(workspace, beetles.id)).toBe(2);
  });

  it.each(['check', 'build'] as const)('an unknown key points at the field and suggests a key (%s)', async (mode) => {
    workspace = await createWorkspace({ 'manuscripts/new.yaml': withVolume('volume: volum-ii') });
    const result = await workspace.build(mode);
    expect(result.ok).toBe(false);
    expect(result.problems.map(where)).toEqual(['ref/unknown-volume content/manuscripts/new.yaml:2:9 volume']);
    expect(result.problems[0]!.message).toContain('did you mean "volume-ii"?');
    expect(result.problems[0]!.expected).toContain('volume-i (Volume I)');
  });

  it.each(['check', 'build'] as const)(
    'a key naming a volume number that no volume has says so, with no guess at another (%s)',
    async (mode) => {
      workspace = await createWorkspace({ 'manuscripts/new.yaml': withVolume('volume: volume-iii') });
      const result = await workspace.build(mode);
      expect(result.problems.map(where)).toEqual(['ref/unknown-volume content/manuscripts/new.yaml:2:9 volume']);
      expect(result.problems[0]!.message).toBe('no volume has the key "volume-iii": there is no Volume III');
      expect(result.problems[0]!.expected).toContain('volume-i (Volume I)');
    },
  );

  it('a key that names two volumes is refused, naming both', async () => {
    // A file named `ii` that holds Volume I: "ii" is its file name and Volume II's numeral.
    workspace = await createWorkspace({
      'volumes/volume-i.yaml': null,
      'volumes/ii.yaml': await readFile('test/fixtures/valid-journal/volumes/volume-i.yaml', 'utf8'),
      'manuscripts/new.yaml': withVolume('volume: ii'),
    });
    const result = await workspace.build('check');
    expect(result.problems.filter((p) => p.file.endsWith('new.yaml')).map(where)).toEqual([
      'ref/ambiguous-volume content/manuscripts/new.yaml:2:9 volume',
    ]);
    expect(result.problems.find((p) => p.code === 'ref/ambiguous-volume')!.message).toContain(
      'content/volumes/ii.yaml',
    );
  });

  it('neither volume nor citation_volume: the missing field is `volume`', async () => {
    workspace = await createWorkspace({ 'manuscripts/new.yaml': withVolume('') });
    const result = await workspace.build('check');
    expect(result.problems.map(where)).toEqual(['schema/missing content/manuscripts/new.yaml:1:1 volume']);
  });

  it("a missing volume is reported in the same run as the other fields' problems", async () => {
    workspace = await createWorkspace({
      'manuscripts/new.yaml': withVolume('').replace('citation_date: 2022-01-10', 'citation_date: 2022-02-30'),
    });
    const result = await workspace.build('check');
    expect(result.problems.map(where)).toEqual([
      'schema/format content/manuscripts/new.yaml:4:16 citation_date',
      'schema/missing content/manuscripts/new.yaml:1:1 volume',
    ]);
  });

  it('both given and disagreeing is an error naming the volume the key names', async () => {
    workspace = await createWorkspace({
      'manuscripts/new.yaml': withVolume('volume: Volume II\ncitation_volume: 2'),
    });
    const result = await workspace.build('check');
    expect(result.problems.map(where)).toEqual([
      'ref/volume-disagrees content/manuscripts/new.yaml:3:18 citation_volume',
    ]);
    expect(result.problems[0]!.message).toContain('Volume II');
  });

  it('both given and agreeing builds as either alone', async () => {
    workspace = await createWorkspace({
      'manuscripts/new.yaml': withVolume('volume: Volume II\ncitation_volume: 1'),
    });
    const result = await workspace.build();
    expect(result.problems).toEqual([]);
    expect(await publishedVolumeOf(workspace, 40)).toBe(1);
  });
});

describe('warnings', () => {
  it('a citation_volume that is not the numeral of its volume warns, naming the volume and the line to write', async () => {
    // citation_volume: 1 is the id of Volume II: an editor who meant Volume I would not notice.
    workspace = await createWorkspace({ 'manuscripts/new.yaml': withVolume('citation_volume: 1') });
    const result = await workspace.build();
    expect(result.ok).toBe(true);
    const warning = (result.warnings ?? []).find((w) => w.includes('content/manuscripts/new.yaml'));
    expect(warning).toContain('content/manuscripts/new.yaml:2:18 citation_volume');
    expect(warning).toContain('Volume II');
    expect(warning).toContain('volume: volume-ii');
    expect(await publishedVolumeOf(workspace, 40)).toBe(1);
  });

  it("with --format github, that warning is an annotation on the manuscript's file and line", async () => {
    workspace = await createWorkspace({ 'manuscripts/new.yaml': withVolume('citation_volume: 1') });
    const { code, stdout } = await workspace.cli('check', '--format', 'github');
    expect(code).toBe(0);
    const annotation = stdout.split('\n').find((line) => line.includes('Volume II'));
    expect(annotation).toMatch(
      /^::warning file=content\/manuscripts\/new\.yaml,line=2,col=18,title=citation_volume::citation_volume: /,
    );
  });

  it('a journal that names every volume by an id that is not its numeral gets twenty warnings and a count', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < WARNINGS_SHOWN + 5; i++)
      files[`manuscripts/m${i}.yaml`] = withVolume('citation_volume: 1').replace('id: 40', `id: ${100 + i}`);
    workspace = await createWorkspace(files);
    const result = await workspace.build();
    expect(result.ok).toBe(true);
    const warnings = (result.warnings ?? []).filter(
      (w) => w.includes('citation_volume') || w.includes('more manuscripts'),
    );
    expect(warnings).toHaveLength(WARNINGS_SHOWN + 1);
    expect(warnings.filter((w) => /content\/manuscripts\/m\d+\.yaml:2:18 citation_volume/.test(w))).toHaveLength(
      WARNINGS_SHOWN,
    );
    expect(warnings.find((w) => w.includes('more manuscripts'))).toContain(
      '5 more manuscripts name their volume by an id that is not its numeral',
    );
  });

  it('a manuscript dated more than a year from its volume warns at its date', async () => {
    workspace = await createWorkspace({
      'manuscripts/new.yaml': withVolume('volume: volume-ii').replace(
        'citation_date: 2022-01-10',
        'citation_date: 2019-05-02',
      ),
    });
    const result = await workspace.build();
    expect(result.ok).toBe(true);
    const warning = (result.warnings ?? []).find((w) => w.includes('content/manuscripts/new.yaml'));
    expect(warning).toContain('content/manuscripts/new.yaml:4:16 citation_date');
    expect(warning).toContain('2022-06-30');
  });
});

describe('warnings of unchanged manuscripts, from the build cache', () => {
  it.each(['check', 'build'] as const)(
    "a volume's date moved: its unchanged manuscripts warn at their dates' lines (%s)",
    async (mode) => {
      workspace = await age(await createWorkspace());
      expect((await workspace.build(mode)).warnings ?? []).toEqual([]);
      const file = 'volumes/volume-i.yaml';
      const text = await readFile(path.join(workspace.paths.content, file), 'utf8');
      await workspace.write(file, text.replace('full_date: 2021-12-01', 'full_date: 2025-12-01'));
      const result = await workspace.build(mode);
      expect(result.problems).toEqual([]);
      // Volume I holds beetles.json and salamanders.yaml (dated 2021), neither of them changed.
      expect((result.warnings ?? []).filter((w) => w.includes('more than a year'))).toEqual([
        expect.stringContaining('content/manuscripts/beetles.json:5:20 citation_date: 2021-07-15 is more than a year'),
        expect.stringContaining(
          'content/manuscripts/salamanders.yaml:4:16 citation_date: 2021-03-04 is more than a year',
        ),
      ]);
    },
  );
});

describe('a volume renamed or re-labelled moves the manuscripts that name it, unchanged, as a cold build does', () => {
  const volumeI = () => readFile('test/fixtures/valid-journal/volumes/volume-i.yaml', 'utf8');
  const volumeII = () => readFile('test/fixtures/valid-journal/volumes/volume-ii.yaml', 'utf8');

  it('two volumes trade labels: a manuscript named by label follows the label', async () => {
    // salamanders.yaml names `Volume I`; orchids.yaml names `volume-ii` (by file name).
    workspace = await age(await createWorkspace({ 'manuscripts/new.yaml': withVolume('volume: II') }));
    await workspace.build('check');
    expect((await workspace.build()).problems).toEqual([]);
    expect(await publishedVolumeOf(workspace, 7)).toBe(2);
    expect(await publishedVolumeOf(workspace, 40)).toBe(1);
    await workspace.write('volumes/volume-i.yaml', (await volumeI()).replace('Volume I\n', 'Volume II\n'));
    await workspace.write('volumes/volume-ii.yaml', (await volumeII()).replace('Volume II\n', 'Volume I\n'));
    await expectSameAsCold(workspace);
    // By label, now in the other volume; by file name, where it was.
    expect(await publishedVolumeOf(workspace, 7)).toBe(1);
    expect(await publishedVolumeOf(workspace, 40)).toBe(2);
    expect(await publishedVolumeOf(workspace, 3)).toBe(1);
  });

  it('two volume files trade names: a manuscript named by file name follows the name', async () => {
    workspace = await age(await createWorkspace());
    expect((await workspace.build()).problems).toEqual([]);
    expect(await publishedVolumeOf(workspace, 3)).toBe(1);
    await workspace.write('volumes/volume-i.yaml', await volumeII());
    await workspace.write('volumes/volume-ii.yaml', await volumeI());
    const checked = await workspace.build('check');
    expect(checked.problems).toEqual([]);
    await expectSameAsCold(workspace);
    // orchids.yaml (volume: volume-ii) is now in the volume of id 2; salamanders (Volume I) stays.
    expect(await publishedVolumeOf(workspace, 3)).toBe(2);
    expect(await publishedVolumeOf(workspace, 7)).toBe(2);
  });

  it('a volume file renamed away: check, from the index, names the unchanged manuscript whose key is gone', async () => {
    workspace = await age(await createWorkspace());
    expect((await workspace.build('check')).problems).toEqual([]);
    await workspace.remove('volumes/volume-ii.yaml');
    await workspace.write('volumes/second.yaml', await volumeII());
    const checked = await workspace.build('check');
    expect(checked.problems.map(where)).toEqual(['ref/unknown-volume content/manuscripts/orchids.yaml:2:9 volume']);
    expect(checked.problems[0]!.message).toContain('no volume has the key "volume-ii"');
    // Named by its label, the renamed file is found again.
    await workspace.write(
      'manuscripts/orchids.yaml',
      (await readFile('test/fixtures/valid-journal/manuscripts/orchids.yaml', 'utf8')).replace(
        'volume: volume-ii',
        'volume: Volume II',
      ),
    );
    await expectSameAsCold(workspace);
    expect(await publishedVolumeOf(workspace, 3)).toBe(1);
  });
});
