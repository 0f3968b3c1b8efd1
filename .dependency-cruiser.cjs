// The layering of Cairn, enforced by `npm run lint` (docs/ARCHITECTURE.md describes it in words).
//
// Inside electron/core, a module may import its own folder and folders of lower layers only: never a
// higher layer and never a sibling of its own layer. Outside the core, each process shell may import
// the core and shared/, the renderer only shared/, and shared/ nothing of ours. Across the layers runs
// the runtime axis: the learning loop's host side and its worker side never import each other.

/** Core layers, lowest first. Each entry is a folder of electron/core, or `cairn.ts` (the data home's composition). */
const CORE_LAYERS = [
  ['text', 'events', 'fs', 'security', 'db'],
  ['config', 'tools', 'ledger', 'provider'],
  ['memory', 'skills', 'sessions', 'workspace', 'attachments', 'mcp', 'recall', 'prompts'],
  ['cairn.ts', 'staging'],
  ['agent', 'doctor', 'backup', 'import', 'sync'],
  ['learning'],
  ['app', 'mcp-server']
]

/**
 * The modules that may name the whole data home (`cairn.ts`, CairnCore): where a core is composed. The
 * process shells (main, cli, serve, worker) sit outside electron/core and are roots too. `cairn doctor`
 * opens a core of its own, because whether one opens at all is what it checks.
 */
const COMPOSITION_ROOTS = '^electron/core/(cairn\\.ts|app/cairn-app\\.ts|doctor/index\\.ts)$'

const corePath = (unit) => (unit.endsWith('.ts') ? `^electron/core/${unit.replace(/\./g, '\\.')}$` : `^electron/core/${unit}/`)
const anyOf = (units) => `(${units.map(corePath).join('|')})`

/** npm packages that load Electron (or need its runtime): never in code that runs under plain Node or in a page. */
const ELECTRON_PACKAGES = '(^|/)node_modules/(electron|electron-[^/]+|@electron/[^/]+)/|^electron$'
/** npm packages that need Node (native addons, the file system): never in the sandboxed renderer. */
const NODE_ONLY_PACKAGES = '(^|/)node_modules/(better-sqlite3|proper-lockfile|write-file-atomic|chokidar|openai|ws|gray-matter|@modelcontextprotocol)/'

const layerRules = CORE_LAYERS.flatMap((layer, index) => {
  const below = CORE_LAYERS.slice(0, index).flat()
  return layer.map((unit) => ({
    name: `core-layer:${unit}`,
    severity: 'error',
    comment: `electron/core/${unit} (layer ${index + 1}) may import only its own folder and lower layers: ${below.join(', ') || 'none'}.`,
    from: { path: corePath(unit) },
    to: { path: '^electron/core/', pathNot: anyOf([unit, ...below]) }
  }))
})

/**
 * The runtime axis, after VS Code's `code-layering` (node / worker / shared-by-both). The learning loop
 * runs in two processes: its host side (electron/core/learning/host/: triggers, the loop, the queue and
 * review host, spawning and supervising the worker, the Inbox) in the app, browser mode and the CLI; its
 * worker side (electron/core/learning/worker/: the runner, its policy and prompts, the curation overview)
 * only in the review worker (electron/worker/). The two share nothing but the protocol
 * (shared/review-protocol.ts) and the lower core layers both stand on (staging/, ledger/, the stores).
 */
const LEARNING_HOST = '^electron/core/learning/host/'
const LEARNING_WORKER = '^electron/core/learning/worker/'
const HOST_SIDE = '^(electron/core/learning/host/|electron/core/(app|mcp-server)/|electron/(main|serve|cli)/)'
const WORKER_SIDE = '^(electron/core/learning/worker/|electron/worker/)'
/** Core code that only the host side runs: the learning host, the app's parts and Cairn's MCP server. */
const HOST_ONLY_CORE = '^electron/core/(learning/host|app|mcp-server)/'
/** The one host file that names worker code: it hands electron-vite the worker entry to bundle as its own chunk (`?modulePath`). */
const WORKER_SPAWNER = '^electron/main/review/utility-spawner\\.ts$'
const WORKER_ENTRY = '^electron/worker/review-entry\\.ts$'

const runtimeRules = [
  {
    name: 'runtime:worker-is-not-host',
    severity: 'error',
    comment:
      'Review worker code (electron/worker/, electron/core/learning/worker/) runs in its own process and never imports the ' +
      "host side (the learning host, the app's parts, the MCP server): what it needs from the host travels in the start frame " +
      '(shared/review-protocol.ts).',
    from: { path: WORKER_SIDE },
    to: { path: HOST_ONLY_CORE }
  },
  {
    name: 'runtime:host-is-not-worker',
    severity: 'error',
    comment:
      'The host side (electron/core/learning/host/, app/, mcp-server/, main, serve, cli) starts reviews through the review ' +
      'host and its worker process, never by importing worker code: move what both need to shared/ (protocol) or a lower core layer.',
    from: { path: HOST_SIDE, pathNot: WORKER_SPAWNER },
    to: { path: WORKER_SIDE }
  },
  {
    name: 'runtime:spawner-names-only-the-entry',
    severity: 'error',
    comment:
      'The utility spawner may name the worker entry (electron-vite bundles it as a separate chunk through `?modulePath`, ' +
      'which is not an import of its code), and no other worker file.',
    from: { path: WORKER_SPAWNER },
    to: { path: WORKER_SIDE, pathNot: WORKER_ENTRY }
  },
  {
    name: 'runtime:learning-file-has-a-side',
    severity: 'error',
    // A file that imports nothing never reaches this rule; test/architecture/runtime.test.ts checks every file's folder.
    comment: 'Every file of electron/core/learning runs on one side: put it in host/ or worker/ (the protocol they share lives in shared/).',
    from: { path: '^electron/core/learning/', pathNot: `${LEARNING_HOST}|${LEARNING_WORKER}` },
    to: {}
  }
]

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle makes two modules one: split the concept both need into a lower module.',
      from: { path: '^(electron|shared|renderer)/' },
      to: { circular: true }
    },
    {
      name: 'core-is-electron-free',
      severity: 'error',
      comment: 'The core, the CLI, browser mode, the worker and shared/ run under plain Node: no electron import.',
      from: { path: '^(electron/(core|cli|serve|worker)|shared)/' },
      // The package resolves into node_modules when installed; unresolved it keeps its bare name.
      to: { path: ELECTRON_PACKAGES }
    },
    {
      name: 'core-stays-in-core',
      severity: 'error',
      comment: 'The core is used by the shells, never the other way round.',
      from: { path: '^electron/core/' },
      to: { path: '^(electron/(main|preload|cli|serve|worker)|renderer)/' }
    },
    {
      name: 'core-composed-at-the-roots',
      severity: 'error',
      comment:
        'Only a composition root names the whole data home (cairn.ts): other core modules take the narrow interface ' +
        'they declare beside them (agent-stores.ts, import-home.ts, app-home.ts), which CairnCore satisfies; nor do they ' +
        'name CairnApp (app/cairn-app.ts), which holds the whole core: a route handler takes its slice (handlers/route-slices.ts).',
      from: { path: '^electron/core/', pathNot: COMPOSITION_ROOTS },
      to: { path: '^electron/core/(cairn|app/cairn-app)\\.ts$' }
    },
    {
      name: 'renderer-speaks-the-contract',
      severity: 'error',
      comment: 'The renderer reaches the core only over the typed contract in shared/, and loads no Electron or Node package.',
      from: { path: '^renderer/' },
      to: { path: `^electron/|${ELECTRON_PACKAGES}|${NODE_ONLY_PACKAGES}` }
    },
    {
      name: 'renderer-has-no-node',
      severity: 'error',
      comment: 'The renderer runs sandboxed in a browser page: no Node built-ins.',
      from: { path: '^(renderer|shared)/' },
      to: { dependencyTypes: ['core'] }
    },
    {
      name: 'shared-is-the-bottom',
      severity: 'error',
      comment: 'shared/ is the contract every side agrees on: it imports none of them.',
      from: { path: '^shared/' },
      to: { path: '^(electron|renderer)/' }
    },
    {
      name: 'preload-is-a-bridge',
      severity: 'error',
      comment: 'The sandboxed preload may only require electron and the contract.',
      from: { path: '^electron/preload/' },
      to: { path: '^(electron/(core|main|cli|serve|worker)|renderer)/' }
    },
    {
      name: 'shells-are-separate',
      severity: 'error',
      comment:
        'Each process shell (main, worker, serve) stands alone; only the CLI starts browser mode. The utility spawner ' +
        'names the worker entry with `?modulePath`, which bundles it as a separate chunk rather than importing it.',
      from: { path: '^electron/(main|worker|serve)/', pathNot: '^electron/main/review/utility-spawner\\.ts$' },
      to: { path: '^(electron/(main|worker|serve|cli)|renderer)/', pathNot: '^electron/$1/' }
    },
    {
      name: 'cli-is-a-shell',
      severity: 'error',
      comment: 'The CLI may start browser mode, but never loads the Electron shell or the worker entry.',
      from: { path: '^electron/cli/' },
      to: { path: '^electron/(main|worker|preload)/' }
    },
    {
      name: 'core-unit-has-a-layer',
      severity: 'error',
      comment: 'Every folder (and top-level file) of electron/core belongs to a layer: add it to CORE_LAYERS in .dependency-cruiser.cjs.',
      from: { path: '^electron/core/', pathNot: anyOf(CORE_LAYERS.flat()) },
      to: {}
    },
    ...layerRules,
    ...runtimeRules
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(out|dist)/' },
    // Type-only imports count: a type cycle is still two concepts tangled together.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.node.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
    // `?modulePath` imports are electron-vite's way to bundle the worker as its own chunk.
    moduleSystems: ['es6', 'cjs']
  }
}
