// Bundles the `cairn` command into one JS file (and beside it the review worker it forks and the
// markdown renderer it loads for answers on a terminal), so the command starts without compiling
// TypeScript. Usage: node scripts/build-cli.mjs [outdir]
// (default out/cli). The outdir must sit two levels below the checkout (out/<name>): the bundle
// finds the checkout, its node_modules (better-sqlite3 stays external: it is native) and
// out/renderer from there.
import { chmodSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { build } from 'esbuild'

const root = resolve(import.meta.dirname, '..')
const outdir = resolve(root, process.argv[2] ?? 'out/cli')

await build({
  absWorkingDir: root,
  // The markdown renderer is an entry of its own, loaded only when an answer is printed on a terminal.
  entryPoints: { cairn: 'electron/cli/index.ts', 'review-worker': 'electron/worker/review-entry.ts', 'markdown-render': 'electron/cli/markdown-render.ts' },
  outdir,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  // pdfjs-dist is ESM with a worker file of its own beside it: loaded from node_modules, on the first PDF only.
  external: ['better-sqlite3', 'pdfjs-dist', 'sqlite-vec'],
  banner: { js: '#!/usr/bin/env node' },
  legalComments: 'none',
  logLevel: 'warning'
})
chmodSync(join(outdir, 'cairn.js'), 0o755)
