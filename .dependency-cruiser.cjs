/**
 * The seams of the generator (README.md, "Project layout"), checked on every `npm test`:
 *
 *   model/   what a journal is: schemas, records, formats, problems. Imports nothing of ours but shared/.
 *   stages/  the pipeline's steps; render/ the outputs, one renderer per format. Both import the
 *            model (and their own folder's helpers), never the engine, and renderers never a stage.
 *   render/  is pure: no file system, no processes, no threads, no clock or environment modules.
 *   engine/  the machinery that makes the pipeline fast (threads, caches, reuse, compression); only
 *            the orchestrators (build.ts, and live-build.ts for `npm run dev`), publish.ts (what only a
 *            build loads), start-scan.ts (which the
 *            command line starts first) and the engine itself reach into it.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle means two modules are one job split badly: one of them must not know the other.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'model-is-the-base',
      severity: 'error',
      comment: 'The model is what everything else speaks; it depends on none of them.',
      from: { path: '^scripts/generator/model/' },
      to: { path: '^scripts/(generator/(stages|render|engine|build)|hosts|import|preview|cli)' },
    },
    {
      name: 'stages-do-not-reach-the-engine',
      severity: 'error',
      comment: 'Stages are plain functions over the model; threads and caches wrap them from outside.',
      from: { path: '^scripts/generator/stages/' },
      to: { path: '^scripts/generator/(engine|render)/' },
    },
    {
      name: 'renderers-read-only-the-model',
      severity: 'error',
      comment: 'A renderer gets records and returns files: the model is all it may know.',
      from: { path: '^scripts/generator/render/' },
      to: { path: '^scripts/generator/(engine|stages)/|^scripts/(import|preview|cli)' },
    },
    {
      name: 'renderers-are-pure',
      severity: 'error',
      comment: 'No disk, no processes, no threads, no environment in a renderer: same records, same bytes.',
      from: { path: '^scripts/generator/render/' },
      to: {
        dependencyTypes: ['core'],
        path: '^(node:)?(fs|fs/promises|child_process|worker_threads|os|process|cluster|net|http|https)$',
      },
    },
    {
      name: 'only-the-orchestrator-wires-the-engine',
      severity: 'error',
      comment: 'The engine sits behind build.ts; commands and other folders go through the pipeline.',
      from: {
        path: '^scripts/',
        pathNot: '^scripts/generator/(engine/|(build|build-types|live-build|publish|start-scan)\\.ts$)|^scripts/bench/',
      },
      to: { path: '^scripts/generator/engine/' },
    },
    {
      name: 'check-loads-no-renderer',
      severity: 'error',
      comment:
        '`check` renders and writes nothing: the orchestrator loads what does (publish.ts) only when it publishes.',
      from: { path: '^scripts/generator/(build|pipeline)\\.ts$' },
      to: {
        path: '^scripts/generator/(publish\\.ts$|render/|engine/output\\.ts$|engine/write/)',
        dependencyTypesNot: ['dynamic-import', 'type-only'],
      },
    },
    {
      name: 'no-orphans',
      severity: 'error',
      comment: 'A module nothing imports is dead code or a forgotten entry point.',
      from: {
        orphan: true,
        pathNot: [
          '\\.d\\.[cm]?ts$',
          '^scripts/(cli\\.cjs|bench/)',
          '(^|/)(eslint\\.config|vitest\\.config)\\.',
          '\\.dependency-cruiser\\.cjs$',
        ],
      },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|content|test/fixtures)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      extensions: ['.ts', '.mjs', '.cjs', '.js', '.d.mts', '.d.cts'],
    },
  },
};
