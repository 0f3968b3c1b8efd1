// Bundles the `cairn` command so it starts without compiling TypeScript, and fast: the command's
// code is split by command (ES modules with shared chunks), so `cairn --help` loads a few KB and
// `cairn search` loads the core but not the MCP SDK or isomorphic-git. Beside it: the review worker
// it forks (sharing the chunks) and the terminal markdown renderer (a CommonJS file of its own,
// required synchronously when an answer is printed on a terminal).
// Usage: node scripts/build-cli.mjs [outdir]   (default out/cli)
// The outdir must sit two levels below the checkout (out/<name>): the bundle finds the checkout, its
// node_modules (better-sqlite3 stays external: it is native) and out/renderer from there.
import { chmodSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { build } from 'esbuild'

const root = resolve(import.meta.dirname, '..')
const outdir = resolve(root, process.argv[2] ?? 'out/cli')

// pdfjs-dist is ESM with a worker file of its own beside it: loaded from node_modules, on the first PDF only.
// The memory providers' SDKs load only when one is chosen; mem0ai names optional peers (vector stores, cloud SDKs) that are not installed.
const external = ['better-sqlite3', 'pdfjs-dist', 'sqlite-vec', 'mem0ai', '@honcho-ai/sdk']
const shared = { absWorkingDir: root, bundle: true, platform: 'node', target: 'node20', external, legalComments: 'none', logLevel: 'warning' }

// Stale chunks from an earlier build would only take up room: start from an empty folder.
rmSync(outdir, { recursive: true, force: true })

await build({
  ...shared,
  entryPoints: { cli: 'electron/cli/index.ts', 'review-worker': 'electron/worker/review-entry.ts' },
  outdir,
  format: 'esm',
  splitting: true,
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunk-[hash]',
  // The sources are CommonJS-minded (__dirname, require of native modules): give every ES module file
  // the same names, pointing at its own folder (all files sit in outdir, so they agree).
  banner: {
    js: [
      "import { createRequire as __cairnCreateRequire } from 'node:module';",
      "import { fileURLToPath as __cairnFileURLToPath } from 'node:url';",
      "import { dirname as __cairnDirname } from 'node:path';",
      'const require = __cairnCreateRequire(import.meta.url);',
      'const __filename = __cairnFileURLToPath(import.meta.url);',
      'const __dirname = __cairnDirname(__filename);'
    ].join('\n')
  }
})

await build({ ...shared, entryPoints: { 'markdown-render': 'electron/cli/markdown-render.ts' }, outdir, format: 'cjs' })

// The installed command: a CommonJS file (the package is CommonJS) that hands over to the ES module entry.
const launcher = join(outdir, 'cairn.js')
writeFileSync(launcher, "#!/usr/bin/env node\n'use strict'\nimport('./cli.mjs')\n")
chmodSync(launcher, 0o755)
