// The layering of Cairn, enforced by `npm run lint` (docs/ARCHITECTURE.md describes it in words).
//
// Inside electron/core, a module may import its own folder and folders of lower layers only: never a
// higher layer and never a sibling of its own layer. Outside the core, each process shell may import
// the core and shared/, the renderer only shared/, and shared/ nothing of ours.

/** Core layers, lowest first. Each entry is a folder of electron/core, or `cairn.ts` (the data home's composition). */
const CORE_LAYERS = [
  ['text', 'events', 'fs', 'security', 'db'],
  ['config', 'tools', 'ledger', 'provider'],
  ['memory', 'skills', 'sessions', 'workspace', 'attachments', 'mcp'],
  ['cairn.ts', 'staging'],
  ['agent', 'doctor', 'backup', 'import', 'sync'],
  ['learning'],
  ['app', 'mcp-server']
]

/**
 * The modules that may name the whole data home (`cairn.ts`, CairnCore): where a core is composed. The
 * process shells (main, cli, serve, worker) sit outside electron/core and are roots too. learning/ is
 * narrowed by its own change (split by runtime); until then the whole folder is let through.
 */
const COMPOSITION_ROOTS = '^electron/core/(cairn\\.ts|app/cairn-app\\.ts|doctor/index\\.ts)$|^electron/core/learning/'

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
        'they declare beside them (agent-stores.ts, import-home.ts, app-home.ts), which CairnCore satisfies.',
      from: { path: '^electron/core/', pathNot: COMPOSITION_ROOTS },
      to: { path: '^electron/core/cairn\\.ts$' }
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
    ...layerRules
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
