#!/usr/bin/env node
// `npm run package [-- electron-builder options]`: builds the app and packs it with electron-builder
// (electron-builder.yml: AppImage and .deb on Linux, dmg and zip on macOS, NSIS on Windows; pass
// e.g. `-- --linux deb` or `-- --dir` for one target). electron-builder rebuilds better-sqlite3 in
// node_modules for Electron; afterwards this puts the Node build back, so `npm test` and the CLI
// keep working in the same checkout.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { diagnose } from './desktop/problems.mjs'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const args = process.argv.slice(2)
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'

function say(line) {
  console.log(`cairn: ${line}`)
}

function run(command, commandArgs, options = {}) {
  return spawnSync(command, commandArgs, { cwd: root, stdio: options.capture ? ['ignore', 'pipe', 'pipe'] : 'inherit', encoding: 'utf8', shell: process.platform === 'win32' && command === npm })
}

/** Whether node_modules/better-sqlite3 still loads in this Node (electron-builder's rebuild targets Electron). */
function nodeBuildLoads() {
  const binary = join(root, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node')
  if (!existsSync(binary)) return false
  return run(process.execPath, ['-e', `require(${JSON.stringify(binary)})`], { capture: true }).status === 0
}

/** Runs a command with its output shown as it comes and kept (to say why it failed). */
function shownAndKept(command, commandArgs) {
  return new Promise((done) => {
    const child = spawn(command, commandArgs, { cwd: root, stdio: ['inherit', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk) => {
      output += chunk
      process.stdout.write(chunk)
    })
    child.stderr.on('data', (chunk) => {
      output += chunk
      process.stderr.write(chunk)
    })
    child.on('close', (status) => done({ status, output }))
  })
}

say('building the app (electron-vite build)…')
const built = run(process.execPath, [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'])
if (built.status !== 0) process.exit(built.status ?? 1)

say(`packing with electron-builder ${args.join(' ')}`.trim())
const packed = await shownAndKept(process.execPath, [join(root, 'node_modules', 'electron-builder', 'cli.js'), ...args])

if (!nodeBuildLoads()) {
  say('putting back the Node build of better-sqlite3 that the tests and the CLI use (npm rebuild better-sqlite3)…')
  const restored = run(npm, ['rebuild', 'better-sqlite3'])
  if (restored.status !== 0) say('could not rebuild it; run "npm rebuild better-sqlite3" before "npm test".')
}

if (packed.status !== 0) {
  const problem = diagnose(packed.output)
  if (problem.cause === 'network') {
    say(`packing failed: no network (${problem.detail}). electron-builder downloads Electron, and fpm and appimagetool for .deb and AppImage.`)
  } else {
    say(`packing failed${problem.detail ? `: ${problem.detail}` : ''}.`)
  }
  process.exit(packed.status ?? 1)
}
say(`done: the packages are in ${join(root, 'dist')}.`)
